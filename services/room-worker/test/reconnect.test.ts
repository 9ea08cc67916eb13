/**
 * A worker cut off from the bus and failed over meanwhile must not answer for its old rooms after the reconnect
 * (it would refuse, from stale state, actions the new owner applied); a worker whose lease survived the gap
 * answers what queued up. The cut is simulated by a bus wrapper that drops traffic and reports status the way
 * NatsBus does (onConnectionChange); the lease renewal is set far away so only the reconnect check can act.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { contract } from '@joke/protocol';
import type { Bus, BusMessage, BusSubscription, Wire } from '@joke/bus';
import { FakeGateway, openRoom, restoreRoom, seat, setup, until, worker } from './harness.ts';

/** One process's connection to a shared bus, which the test can cut and restore. */
class CutOffBus implements Bus {
  private up = true;
  private readonly listeners = new Set<(up: boolean) => void>();
  /** Subjects this process answered on, in order. */
  readonly answered: string[] = [];

  constructor(private readonly inner: Bus) {}

  publish(subject: string, data: Wire): void {
    if (this.up) this.inner.publish(subject, data);
  }
  request(subject: string, data: Wire, timeoutMs: number): Promise<Wire> {
    return this.up ? this.inner.request(subject, data, timeoutMs) : Promise.reject(new Error('cut off'));
  }
  subscribe(subject: string, handler: (msg: BusMessage) => void, opts?: { queue?: string }): BusSubscription {
    return this.inner.subscribe(
      subject,
      (msg) => {
        if (!this.up) return;
        const respond = msg.respond;
        if (!respond) return handler(msg);
        handler({
          ...msg,
          respond: (reply) => {
            if (!this.up) return;
            this.answered.push(msg.subject);
            respond(reply);
          },
        });
      },
      opts,
    );
  }
  onConnectionChange(listener: (up: boolean) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  connected(): boolean {
    return this.up;
  }
  set(up: boolean): void {
    this.up = up;
    for (const l of this.listeners) l(up);
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

// Renewal and turn timers far away: without the reconnect check, nothing would tell w1 it lost the room.
const quiet = { leaseRenewMs: 60_000, leaseTtlMs: 120_000 };

async function twoWorkers() {
  const { bus, store } = setup();
  const cut = new CutOffBus(bus);
  const w1 = await worker(cut, store, { workerId: 'w1', ...quiet });
  const w2 = await worker(bus, store, { workerId: 'w2', ...quiet });
  cleanup.push(
    () => bus.close(),
    () => w1.close(),
    () => w2.close(),
  );
  await openRoom(bus, 'w1', 'r', [seat('a'), seat('b')], { target: 1000, turnMs: 600_000 });
  const gw = new FakeGateway(bus, 'gw');
  const first = (await gw.join('r', 'a')).view.view.current as string;
  const second = first === 'a' ? 'b' : 'a';
  return { bus, store, cut, w1, w2, gw, first, second };
}

describe('reconnect after a failover', () => {
  it('a cut-off worker that was failed over answers nothing for the room after the reconnect and lets it go', async () => {
    const { bus, store, cut, w1, gw, first, second } = await twoWorkers();
    const a1 = await gw.act('r', first, 'a1', { type: 'add', n: 1 });
    expect(a1.ok).toBe(true);
    cut.set(false);
    // A matchmaker saw w1 gone and moved the room; the new owner applies the second player's move.
    expect(await restoreRoom(bus, 'w2', 'r')).toMatchObject({ ok: true, epoch: 2 });
    expect((await gw.act('r', second, 'b1', { type: 'add', n: 1 })).ok).toBe(true);
    const before = cut.answered.length;
    cut.set(true);
    // w1 still thinks it is `second`'s turn: from its state this move is illegal; the new owner applies it.
    const r = await gw.act('r', first, 'a2', { type: 'add', n: 2 });
    expect(r).toEqual({ ok: true, seq: a1.seq! + 2 });
    await until(() => w1.roomIds().length === 0, 10_000, 'w1 lets the room go');
    const command = contract.roomCommand.at('r').subject;
    expect(cut.answered.slice(before).filter((s) => s === command)).toEqual([]);
    expect(await store.lease('r')).toMatchObject({ owner: 'w2', epoch: 2 });
  }, 20_000);

  it('a worker whose lease survived the gap answers what queued up once the lease is renewed', async () => {
    const { cut, w1, gw, first } = await twoWorkers();
    const joined = (await gw.join('r', first)).view.seq as number;
    cut.set(false);
    cut.set(true);
    const r = await gw.act('r', first, 'a1', { type: 'add', n: 1 });
    expect(r).toEqual({ ok: true, seq: joined + 1 });
    expect(w1.roomIds()).toEqual(['r']);
    expect(cut.answered).toContain(contract.roomCommand.at('r').subject);
  }, 20_000);
});
