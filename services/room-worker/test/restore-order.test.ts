/**
 * The restores of one failover arrive at the new owner together. Each room's views must leave as soon as
 * that room is built, not once the whole batch is (open.ts): otherwise the last live table's players wait
 * for every other room's decode, check and views. The bus here sends what was published in a microtask
 * after the publish, as the NATS client does, and logs each delivery it sends; the store answers the
 * restores' lease reads together, as Redis does when they were pipelined; the game logs each state check
 * (the start of a room's build). The same holds for a bus that coalesces its writes to the next check
 * phase (setImmediate), as NatsBus does.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { decodeDelivery } from '@joke/protocol';
import { InProcessBus, type Wire } from '@joke/bus';
import { MemorySnapshotStore } from '@joke/stores';
import type { AnyGame } from '@joke/engine';
import { FakeGateway, openRoom, restoreRoom, seat, worker } from './harness.ts';
import { raceGame } from './fixtures/race-game.ts';
import type { RoomWorker } from '../src/index.ts';

/**
 * Publishes leave together after the first one: in a microtask, as @nats-io's client flushes its buffer,
 * or in the next check phase, as NatsBus coalesces a turn's writes.
 */
class FlushingBus extends InProcessBus {
  private pending: [string, Wire][] = [];

  constructor(
    private readonly log: string[],
    private readonly flushIn: 'microtask' | 'immediate',
    private readonly taker: string,
  ) {
    super({ onHandlerError: (e) => console.error(e) });
  }

  override publish(subject: string, data: Wire): void {
    if (this.pending.length === 0)
      (this.flushIn === 'microtask' ? queueMicrotask : setImmediate)(() => {
        const out = this.pending;
        this.pending = [];
        for (const [s, d] of out) {
          // Only the taking worker's: the old owner's presence frames of the joins may leave meanwhile.
          if (s.endsWith('.deliver') && decodeDelivery(d as Uint8Array).owner.startsWith(`${this.taker}/`))
            this.log.push('sent');
          super.publish(s, d);
        }
      });
    this.pending.push([subject, data]);
  }
}

/**
 * Holds the next `together` acquires and answers them in one go, as one read of pipelined Redis replies
 * resolves every restore that was waiting on it before any of them runs on.
 */
class PipelinedStore extends MemorySnapshotStore {
  together = 0;
  private held: (() => void)[] = [];

  override async acquire(roomId: string, owner: string, ttlMs: number) {
    const r = await super.acquire(roomId, owner, ttlMs);
    if (this.together > 0)
      await new Promise<void>((resolve) => {
        this.held.push(resolve);
        if (this.held.length < this.together) return;
        this.together = 0;
        for (const answer of this.held.splice(0)) answer();
      });
    return r;
  }
}

const workers: RoomWorker[] = [];
afterEach(async () => {
  for (const w of workers.splice(0)) await w.close();
});

describe('restores of one failover', () => {
  it.each(['microtask', 'immediate'] as const)(
    "send each room's views before the next room is built (bus flushing in a %s)",
    async (flushIn) => {
      const log: string[] = [];
      const logged: AnyGame = {
        ...(raceGame as unknown as AnyGame),
        restoreState: (raw: unknown) => {
          log.push('built');
          return { ok: true, state: raw, rulesVersion: 1, migrated: false };
        },
      };
      const games = { race: logged };
      const bus = new FlushingBus(log, flushIn, 'w2');
      const store = new PipelinedStore();
      workers.push(await worker(bus, store, { workerId: 'w1' }, games));
      const rooms = ['r1', 'r2', 'r3'];
      const gw = new FakeGateway(bus, 'gw');
      for (const r of rooms) {
        expect((await openRoom(bus, 'w1', r, [seat('a'), seat('b')], { target: 1000 })).ok).toBe(true);
        expect((await gw.join(r, 'a')).ok).toBe(true);
      }
      workers.push(await worker(bus, store, { workerId: 'w2' }, games));
      log.length = 0;
      store.together = rooms.length;
      const opened = await Promise.all(rooms.map((r) => restoreRoom(bus, 'w2', r)));
      expect(opened.map((o) => o.ok)).toEqual([true, true, true]);
      // Every restore republished (views are published before the reply), one delivery per room: in turns.
      expect(log).toEqual(['built', 'sent', 'built', 'sent', 'built', 'sent']);
      expect(new Set(gw.deliveries.slice(-3).map((d) => d.roomId))).toEqual(new Set(rooms));
      gw.close();
      await bus.close();
    },
  );
});
