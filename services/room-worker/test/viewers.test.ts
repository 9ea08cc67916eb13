/**
 * Issue 10, on NATS and Redis: departed viewers are forgotten (the snapshot
 * does not grow with guests who spectated and left), spectators per room are
 * capped, and a seated player's second socket watching as a spectator does
 * not stop the player's own views.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { NatsBus } from '@joke/bus';
import { connectRedis, RedisSnapshotStore, type RedisClient } from '@joke/stores';
import { contract, emit, PROTOCOL_VERSION } from '@joke/protocol';
import { decodeSnapshot } from '../src/snapshot.ts';
import { FakeGateway, openRoom, seat, until, worker } from './harness.ts';
import type { RoomWorker, WorkerConfig } from '../src/index.ts';

const ns = `t-view-${randomUUID().slice(0, 8)}`;
let bus: NatsBus;
let redis: RedisClient;
let store: RedisSnapshotStore;
const workers: RoomWorker[] = [];
const gateways: FakeGateway[] = [];

beforeAll(async () => {
  bus = await NatsBus.connect('nats://127.0.0.1:4222', { prefix: ns });
  redis = await connectRedis('redis://127.0.0.1:6379');
  store = new RedisSnapshotStore(redis, ns);
});
afterAll(async () => {
  for (const g of gateways) g.close();
  for (const w of workers) await w.close();
  await bus.close();
  for (const k of await redis.keys(`${ns}:*`)) await redis.del(k);
  await redis.close();
});

async function room(tag: string, cfg: Partial<WorkerConfig>) {
  const w = await worker(bus, store, { workerId: `${ns}-${tag}`, ...cfg });
  workers.push(w);
  const roomId = `${ns}-${tag}-room`;
  expect((await openRoom(bus, w.id, roomId, [seat('a'), seat('b')], { target: 1000 })).ok).toBe(true);
  const gw = new FakeGateway(bus, `${ns}-${tag}-gw`);
  gateways.push(gw);
  return { w, roomId, gw };
}

const presence = (gw: FakeGateway, roomId: string, userId: string, role: 'player' | 'spectator', left = false) =>
  emit(bus, contract.roomPresence.at(roomId), {
    v: PROTOCOL_VERSION,
    userId,
    gatewayId: gw.id,
    connected: false,
    left,
    role,
  });

const stored = async (roomId: string) => {
  const r = await store.load(roomId);
  return { bytes: r!.data.length, seq: r!.seq, viewers: decodeSnapshot(r!.data)!.viewers };
};

/**
 * `n` guests each join as spectators and then lose their socket, `wave` at a time. A join refused as
 * `busy` (the room's queue is full of the previous wave's disconnections) or, at a cap, as
 * `spectatorsFull` before those disconnections are handled, is sent again, as a client would; the
 * refusals are counted.
 */
async function spectateAndLeave(gw: FakeGateway, roomId: string, tag: string, n: number, wave = 48) {
  const refused = new Map<string, number>();
  const join = async (id: string): Promise<void> => {
    const t0 = Date.now();
    for (;;) {
      const r = await gw.join(roomId, id, true);
      if (r.ok) return;
      refused.set(r.code, (refused.get(r.code) ?? 0) + 1);
      if (r.code !== 'busy' && r.code !== 'spectatorsFull') throw new Error(`join refused: ${r.code}`);
      if (Date.now() - t0 > 30_000) throw new Error(`${id} never got in`);
      await new Promise((res) => setTimeout(res, 5));
    }
  };
  for (let k = 0; k < n; k += wave) {
    const ids = Array.from({ length: Math.min(wave, n - k) }, (_, j) => `${tag}${k + j}`);
    await Promise.all(ids.map(join));
    for (const id of ids) presence(gw, roomId, id, 'spectator');
  }
  return refused;
}

describe('viewers of a room', () => {
  it('20,000 guests who spectated and left do not grow the snapshot', async () => {
    const { roomId, gw } = await room('grace0', { viewerGraceMs: 0 });
    await gw.join(roomId, 'a');
    await gw.join(roomId, 'b');
    const base = await stored(roomId);
    expect(base.viewers).toHaveLength(2);

    const refused = await spectateAndLeave(gw, roomId, 'g', 20_000);
    // Forgetting departed guests at once means the cap (500) never refuses one.
    expect(refused.get('spectatorsFull')).toBeUndefined();
    // The last guests' disconnections are forgotten at the batch that handles them; a final join shows it.
    await gw.join(roomId, 'a');
    await until(async () => (await stored(roomId)).viewers.length === 2, 30_000, 'departed guests forgotten');
    const after = await stored(roomId);
    // Written many times meanwhile (one write per batch of joins or departures).
    expect(after.seq).toBeGreaterThan(base.seq + 20_000 / 16);
    expect(after.viewers.map((v) => v.userId).sort()).toEqual(['a', 'b']);
    expect(after.bytes).toBeLessThan(base.bytes + 200);
  }, 300_000);

  it('caps spectators per room; at the cap departed ones make room first, then joins are refused', async () => {
    const { roomId, gw } = await room('cap', { maxSpectators: 20, viewerGraceMs: 3_600_000 });
    for (let k = 0; k < 20; k++) expect((await gw.join(roomId, `s${k}`, true)).ok).toBe(true);
    expect(await gw.join(roomId, 'late', true)).toMatchObject({
      ok: false,
      code: 'spectatorsFull',
      reason: '관전 자리가 가득 찼어요. 잠시 후 다시 시도해 주세요',
    });
    // Players are never refused for it.
    expect((await gw.join(roomId, 'a')).role).toBe('player');
    presence(gw, roomId, 's0', 'spectator');
    await until(async () => (await gw.join(roomId, 'late', true)).ok, 10_000, 'a place freed by a departure');
    // Everyone leaves; with a grace of an hour, departed spectators still never hold more than the cap.
    for (let k = 1; k < 20; k++) presence(gw, roomId, `s${k}`, 'spectator');
    presence(gw, roomId, 'late', 'spectator');
    await spectateAndLeave(gw, roomId, 'y', 500, 10);
    const specs = (await stored(roomId)).viewers.filter((v) => v.role === 'spectator');
    expect(specs.length).toBeLessThanOrEqual(20);
  }, 120_000);

  it("a seated player's second socket as a spectator does not stop the views on the first", async () => {
    const { roomId, gw } = await room('dual', {});
    const first: string = (await gw.join(roomId, 'a')).view.view.current;
    await gw.join(roomId, 'b');
    expect((await gw.join(roomId, 'a', true)).role).toBe('spectator');
    const r = await gw.act(roomId, first, 'm1', { type: 'add', n: 1 });
    expect(r.ok).toBe(true);
    await until(() => gw.frames(roomId, 'a').some((f) => f.seq === r.seq), 10_000, "a's player view");
    expect(gw.frames(roomId, null).some((f) => f.seq === r.seq)).toBe(true);
    expect(gw.last(roomId, 'a')!.view.mySecret).toEqual(expect.any(Number));
    // The spectator socket goes; the player's views go on.
    presence(gw, roomId, 'a', 'spectator', true);
    const second = first === 'a' ? 'b' : 'a';
    const r2 = await gw.act(roomId, second, 'm2', { type: 'add', n: 1 });
    await until(() => gw.frames(roomId, 'a').some((f) => f.seq === r2.seq), 10_000, "a's next player view");
    const viewers = (await stored(roomId)).viewers;
    expect(viewers.filter((v) => v.userId === 'a').map((v) => v.role)).toEqual(['player']);
  }, 60_000);
});
