/**
 * Issue 10: idempotency nobody else can evict, on NATS and Redis. An outsider
 * (any user id, e.g. a spectator) floods a room with 10,000 refused actions,
 * the player floods it with refused actions of their own, and the player's
 * retried acknowledged action is still answered from memory, not applied a
 * second time — also after the room moved to another worker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { NatsBus } from '@joke/bus';
import { connectRedis, RedisSnapshotStore, type RedisClient } from '@joke/stores';
import { FakeGateway, openRoom, restoreRoom, seat, storedRoom, worker } from './harness.ts';
import { raceState } from './fixtures/race-game.ts';
import type { RoomWorker } from '../src/index.ts';

const ns = `t-idem-${randomUUID().slice(0, 8)}`;
let bus: NatsBus;
let redis: RedisClient;
let store: RedisSnapshotStore;
const workers: RoomWorker[] = [];

beforeAll(async () => {
  bus = await NatsBus.connect('nats://127.0.0.1:4222', { prefix: ns });
  redis = await connectRedis('redis://127.0.0.1:6379');
  store = new RedisSnapshotStore(redis, ns);
});
afterAll(async () => {
  for (const w of workers) await w.close();
  await bus.close();
  for (const k of await redis.keys(`${ns}:*`)) await redis.del(k);
  await redis.close();
});

/** Sends `n` commands, `wave` at a time (below the room's queue bound, so none is refused as busy). */
async function flood(gw: FakeGateway, roomId: string, userId: string, prefix: string, n: number, wave = 50) {
  const codes = new Map<string, number>();
  for (let k = 0; k < n; k += wave) {
    const replies = await Promise.all(
      Array.from({ length: Math.min(wave, n - k) }, (_, j) =>
        gw.act(roomId, userId, `${prefix}-${k + j}`, { type: 'add', n: 2 }),
      ),
    );
    for (const r of replies) codes.set(r.ok ? 'ok' : r.code!, (codes.get(r.ok ? 'ok' : r.code!) ?? 0) + 1);
  }
  return codes;
}

describe('idempotency per seated user (NATS + Redis)', () => {
  it("an outsider's 10,000 refused actions never make a player's retried action apply twice", async () => {
    // The fake gateway beats once: a flood slower than GATEWAY_DEAD_AFTER_MS (a loaded box) would see it
    // declared gone, its viewers removed, and that write would take a seq of its own.
    const quiet = { gatewayDeadAfterMs: 600_000 };
    const w1 = await worker(bus, store, { workerId: `${ns}-w1`, ...quiet });
    workers.push(w1);
    const roomId = `${ns}-room`;
    // A turn long enough for the floods on a loaded box: a deadline passing before the restore below would
    // add a timeout step (seq + 1) that has nothing to do with what is tested here.
    expect((await openRoom(bus, w1.id, roomId, [seat('a'), seat('b')], { target: 1000, turnMs: 600_000 })).ok).toBe(
      true,
    );
    const gw = new FakeGateway(bus, `${ns}-gw`);
    const first: string = (await gw.join(roomId, 'a')).view.view.current;
    const acked = await gw.act(roomId, first, 'mine-1', { type: 'add', n: 1 });
    expect(acked.ok).toBe(true);

    // Everything the outsider sends is refused (not a seat), never as busy: it reached the game.
    const outsider = await flood(gw, roomId, 'outsider', 'o', 10_000);
    expect(outsider).toEqual(new Map([['illegal', 10_000]]));
    // The player's own refused actions (not their turn now) do not evict it either.
    const own = await flood(gw, roomId, first, 'own', 200);
    expect(own).toEqual(new Map([['illegal', 200]]));

    expect(await gw.act(roomId, first, 'mine-1', { type: 'add', n: 1 })).toEqual(acked);
    const stored = await store.load(roomId);
    expect(stored!.steps).toHaveLength(1);
    expect(raceState((await storedRoom(store, roomId))!.data.state).total).toBe(1);

    // The memory is rebuilt from the stored steps: a retry after a move to another worker is still known.
    await w1.close();
    const w2 = await worker(bus, store, { workerId: `${ns}-w2`, ...quiet });
    workers.push(w2);
    expect((await restoreRoom(bus, w2.id, roomId)).ok).toBe(true);
    expect(await gw.act(roomId, first, 'mine-1', { type: 'add', n: 1 })).toEqual(acked);
    const second = first === 'a' ? 'b' : 'a';
    expect(await gw.act(roomId, second, 'theirs-1', { type: 'add', n: 2 })).toEqual({ ok: true, seq: acked.seq! + 1 });
    const after = await store.load(roomId);
    expect(after!.steps).toHaveLength(2);
    expect(raceState((await storedRoom(store, roomId))!.data.state).total).toBe(3);
    gw.close();
  }, 120_000);

  it('refuses a createRoom for __proto__ or constructor as an unknown game (Object.hasOwn)', async () => {
    const w = await worker(bus, store, { workerId: `${ns}-w3` });
    workers.push(w);
    for (const game of ['__proto__', 'constructor', 'toString'])
      expect(await openRoom(bus, w.id, `${ns}-${game}`, [seat('a')], {}, game)).toMatchObject({
        ok: false,
        code: 'unknownGame',
      });
    expect(w.roomIds()).toEqual([]);
  });
});
