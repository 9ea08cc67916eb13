/**
 * Issue 10, on NATS and Redis: a wiped store is noticed. The deployment's
 * keys are deleted (a FLUSHDB of its key prefix, as a Redis restart without
 * persistence would leave it); the room's next write, or the next lease
 * renewal of a quiet room, finds the store's generation marker changed, so the
 * worker reports a lost table — Korean `error tableLost` to the viewers,
 * `RoomLost` to the lobby, the metric — instead of "fenced out: another worker
 * took this room". A real takeover is still a takeover, with no RoomLost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { NatsBus } from '@joke/bus';
import { connectRedis, RedisSnapshotStore, type RedisClient, type SnapshotStore } from '@joke/stores';
import { FakeClock } from '@joke/bus/clock';
import { contract, ERRORS, listen, type bus as wire } from '@joke/protocol';
import { FakeGateway, openRoom, restoreRoom, seat, until, worker } from './harness.ts';
import type { RoomWorker } from '../src/index.ts';

const ns = `t-lost-${randomUUID().slice(0, 8)}`;
let bus: NatsBus;
let redis: RedisClient;
let store: RedisSnapshotStore;
const workers: RoomWorker[] = [];
const lost: wire.RoomLost[] = [];

beforeAll(async () => {
  bus = await NatsBus.connect('nats://127.0.0.1:4222', { prefix: ns });
  redis = await connectRedis('redis://127.0.0.1:6379');
  store = new RedisSnapshotStore(redis, ns);
  listen(bus, contract.roomLost, (m) => lost.push(m));
});
afterAll(async () => {
  for (const w of workers) await w.close();
  await bus.close();
  await wipe();
  await redis.close();
});

/** Deletes every key of this deployment's prefix: what a restart without persistence leaves. */
async function wipe(): Promise<void> {
  for await (const keys of redis.scanIterator({ MATCH: `${ns}:*`, COUNT: 500 })) if (keys.length) await redis.del(keys);
}

const storeLostCount = async (w: RoomWorker) =>
  (await w.registry.getSingleMetric('joke_worker_store_lost_total')!.get()).values[0]?.value ?? 0;
const staleCount = async (w: RoomWorker) =>
  (await w.registry.getSingleMetric('joke_worker_errors_total')!.get()).values.find((x) => x.labels.kind === 'stale')
    ?.value ?? 0;

async function playing(tag: string, cfg = {}, clock?: FakeClock, on: SnapshotStore = store) {
  const w = await worker(bus, on, { workerId: `${ns}-${tag}`, ...cfg }, undefined, clock);
  workers.push(w);
  const roomId = `${ns}-${tag}-room`;
  expect((await openRoom(bus, w.id, roomId, [seat('a'), seat('b')], { target: 1000 })).ok).toBe(true);
  const gw = new FakeGateway(bus, `${ns}-${tag}-gw`);
  const first: string = (await gw.join(roomId, 'a')).view.view.current;
  await gw.join(roomId, 'b');
  expect((await gw.act(roomId, first, 'before', { type: 'add', n: 1 })).ok).toBe(true);
  return { w, roomId, gw, next: first === 'a' ? 'b' : 'a' };
}

const told = (gw: FakeGateway, roomId: string, viewer: string) =>
  gw.frames(roomId, viewer, 'error').find((f: any) => f.code === 'tableLost') as any;

describe('store loss', () => {
  it('a write after a wipe tells the players in Korean, tells the lobby, and counts it', async () => {
    const { w, roomId, gw, next } = await playing('write');
    await wipe();
    // The write behind this action is refused; the room is gone, so the action is never acknowledged.
    await expect(gw.act(roomId, next, 'after', { type: 'add', n: 1 }, undefined, 2000)).rejects.toThrow();
    await until(() => lost.some((m) => m.roomId === roomId), 10_000, 'RoomLost');
    expect(lost.find((m) => m.roomId === roomId)).toMatchObject({ v: 1, reason: 'storeLost' });
    for (const viewer of ['a', 'b'])
      expect(told(gw, roomId, viewer)).toEqual({
        v: 1,
        t: 'error',
        code: 'tableLost',
        message: ERRORS.tableLost,
        roomId,
      });
    expect(ERRORS.tableLost).toBe(
      '서버 저장소에 문제가 생겨 이 테이블을 되살릴 수 없어요. 로비로 돌아가 방을 다시 시작해 주세요',
    );
    expect(w.roomIds()).not.toContain(roomId);
    expect(await storeLostCount(w)).toBe(1);
    expect(await staleCount(w)).toBe(0);
    gw.close();
  }, 60_000);

  it('a quiet room finds it at its next lease renewal', async () => {
    // The renewal runs on fake time; the lease TTL in Redis is real, so it is long enough not to lapse meanwhile.
    const clock = new FakeClock();
    const renewals: number[] = [];
    const counted: SnapshotStore = Object.create(store);
    counted.renew = (...args) => {
      renewals.push(clock.now());
      return store.renew(...args);
    };
    const start = clock.now();
    const { w, roomId, gw } = await playing('renew', { leaseRenewMs: 200, leaseTtlMs: 60_000 }, clock, counted);
    await wipe();
    // Quiet for less than leaseRenewMs since its last write: the renewal (every 100 ms) has nothing to renew yet.
    await clock.advance(150);
    expect(renewals).toEqual([]);
    expect(w.roomIds()).toContain(roomId);
    // The renewal at 300 ms finds the room due, and the store without it.
    await clock.advance(200);
    expect(renewals.map((t) => t - start)).toEqual([300]);
    await until(() => lost.some((m) => m.roomId === roomId), 20_000, 'RoomLost from the renewal');
    expect(told(gw, roomId, 'a')?.code).toBe('tableLost');
    expect(w.roomIds()).not.toContain(roomId);
    expect(await storeLostCount(w)).toBe(1);
    gw.close();
  }, 60_000);

  it('a takeover by another worker is still a takeover: no RoomLost, no tableLost', async () => {
    const { w, roomId, gw, next } = await playing('taken');
    const w2 = await worker(bus, store, { workerId: `${ns}-taken2` });
    workers.push(w2);
    expect((await restoreRoom(bus, w2.id, roomId)).ok).toBe(true);
    expect((await gw.act(roomId, next, 'after', { type: 'add', n: 1 })).ok).toBe(true);
    await until(() => !w.roomIds().includes(roomId), 30_000, 'the old owner lets go');
    expect(lost.some((m) => m.roomId === roomId)).toBe(false);
    expect(told(gw, roomId, 'a')).toBeUndefined();
    expect(await storeLostCount(w)).toBe(0);
    gw.close();
  }, 60_000);
});
