/**
 * Live migration of tables between workers, and rebalancing after a scale-up:
 * the plan itself, then real workers on the in-process bus, then a table whose
 * player keeps playing through a rebalance on the real NATS and Redis.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InProcessBus, NatsBus, BusTimeoutError, type Bus } from '@joke/bus';
import {
  connectRedis,
  MemoryMatchStore,
  MemorySnapshotStore,
  RedisMatchStore,
  RedisSnapshotStore,
  type MatchStore,
  type SnapshotStore,
} from '@joke/stores';
import { bus as wire, subjects, wireText } from '@joke/protocol';
import { roomFromStore, startRoomWorker, type RoomWorker } from '@joke/room-worker';
import { startMatchmaker, type Matchmaker } from '../src/index.ts';
import { planRebalance } from '../src/rebalance.ts';
import { raceState } from '../../room-worker/test/fixtures/race-game.ts';
import { cleanupAfterEach, games, log, sleep, until } from './helpers.ts';

const cleanup = cleanupAfterEach();

interface Cluster {
  bus: Bus;
  snapshots: SnapshotStore;
  workers: RoomWorker[];
  mm: Matchmaker;
  addWorker(id: string): Promise<RoomWorker>;
}

async function cluster(
  bus: Bus,
  snapshots: SnapshotStore,
  match: MatchStore = new MemoryMatchStore(),
): Promise<Cluster> {
  const workers: RoomWorker[] = [];
  const addWorker = async (id: string) => {
    const w = await startRoomWorker(
      { workerId: id, heartbeatMs: 50, botDelayMs: 0, botJitterMs: 0 },
      { bus, store: snapshots, games, log },
    );
    workers.push(w);
    return w;
  };
  await addWorker('w0');
  const mm = await startMatchmaker(
    { matchmakerId: 'mm1', deadAfterMs: 1000, deadCheckMs: 50 },
    { bus, snapshots, match, games, log },
  );
  cleanup.push(async () => {
    await mm.close();
    for (const w of workers) await w.close();
  });
  await until(() => mm.liveWorkers().length === 1, 20_000, 'heartbeats');
  return { bus, snapshots, workers, mm, addWorker };
}

const create = async (bus: Bus, roomId: string) =>
  JSON.parse(
    wireText(
      await bus.request(
        subjects.createRoom,
        JSON.stringify({
          v: 1,
          room: { roomId, game: 'race', options: { target: 1000 }, players: [{ id: 'a', name: 'A', bot: false }] },
        }),
        3000,
      ),
    ),
  ) as { ok: boolean; workerId: string };

/** Plays seat `a` like a gateway does: an unanswered command is retried under the same action id. */
async function act(bus: Bus, roomId: string, actionId: string, n: 1 | 2): Promise<number> {
  const cmd = JSON.stringify({ v: 1, userId: 'a', actionId, action: { type: 'add', n }, gatewayId: 'g', at: 0 });
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      const r = JSON.parse(wireText(await bus.request(subjects.roomCommand(roomId), cmd, 1000)));
      if (r.ok) return r.seq as number;
      throw new Error(`refused: ${r.reason}`);
    } catch (err) {
      if (!(err instanceof BusTimeoutError)) throw err;
      await sleep(20);
    }
  }
  throw new Error('no owner answered');
}

const migrate = async (bus: Bus, from: string, roomIds: string[], toWorkerId?: string) =>
  wire.MigrateReply.parse(
    JSON.parse(
      wireText(await bus.request(subjects.workerMigrate(from), JSON.stringify({ v: 1, roomIds, toWorkerId }), 10_000)),
    ),
  );
const rebalance = async (bus: Bus, body: object = {}) =>
  wire.RebalanceReply.parse(
    JSON.parse(wireText(await bus.request(subjects.rebalance, JSON.stringify({ v: 1, ...body }), 30_000))),
  );

describe('rebalance plan', () => {
  const load = (counts: Record<string, number>) =>
    Object.entries(counts).map(([workerId, n]) => ({
      workerId,
      roomIds: Array.from({ length: n }, (_, i) => `${workerId}-r${i}`),
    }));
  const outcome = (counts: Record<string, number>, max = 1e9) => {
    const after = { ...counts };
    const moves = planRebalance(load(counts), max);
    for (const m of moves) {
      after[m.from]--;
      after[m.to]++;
    }
    return { moves, after };
  };

  it('evens a scale-up with the fewest moves: no two workers differ by more than one', () => {
    const { moves, after } = outcome({ w0: 60, w1: 60, w2: 0 });
    expect(after).toEqual({ w0: 40, w1: 40, w2: 40 });
    expect(moves).toHaveLength(40);
    expect(new Set(moves.map((m) => m.roomId)).size).toBe(40);
    expect(outcome({ w0: 7, w1: 0, w2: 0, w3: 1 }).after).toEqual({ w0: 2, w1: 2, w2: 2, w3: 2 });
  });

  it('moves nothing when balanced, respects the cap, and every replica plans the same from any order', () => {
    expect(outcome({ w0: 5, w1: 4, w2: 5 }).moves).toEqual([]);
    expect(outcome({ w0: 100, w1: 0 }, 10).moves).toHaveLength(10);
    const a = planRebalance(load({ w0: 30, w1: 2, w2: 9 }), 1e9);
    const b = planRebalance(load({ w0: 30, w1: 2, w2: 9 }).reverse(), 1e9);
    expect(a).toEqual(b);
    expect(a.every((m) => m.from !== m.to && m.roomId.startsWith(m.from))).toBe(true);
  });
});

describe('live migration (in-process bus)', () => {
  it('moves chosen tables to the named worker at the next epoch, with their state and seq', async () => {
    const c = await cluster(new InProcessBus(), new MemorySnapshotStore());
    await c.addWorker('w1');
    await c.addWorker('w2');
    await until(() => c.mm.liveWorkers().length === 3, 20_000, 'heartbeats');
    const ids: string[] = [];
    for (let i = 0; ids.length < 6; i++) if ((await create(c.bus, `m${i}`)).workerId === 'w0') ids.push(`m${i}`);
    for (const id of ids) await act(c.bus, id, `${id}-1`, 2);
    const before = await Promise.all(ids.map(async (id) => (await c.snapshots.lease(id))!.epoch));
    const reply = await migrate(c.bus, 'w0', [...ids.slice(0, 4), 'nowhere'], 'w2');
    expect(reply.moved.map((m) => m.workerId)).toEqual(['w2', 'w2', 'w2', 'w2']);
    expect(reply.stayed).toEqual([{ roomId: 'nowhere', code: 'notHere', reason: '이 서버에 없는 방이에요' }]);
    for (const [i, id] of ids.entries()) {
      const moved = i < 4;
      expect(c.workers[moved ? 2 : 0].roomIds()).toContain(id);
      expect(await c.snapshots.lease(id)).toEqual({ owner: moved ? 'w2' : 'w0', epoch: before[i] + (moved ? 1 : 0) });
      // The next action continues the same game on whichever worker holds it now.
      expect(await act(c.bus, id, `${id}-2`, 1)).toBe(2);
      expect(raceState(c.workers[moved ? 2 : 0].room(id)!.data.state).total).toBe(3);
    }
    expect(await migrate(c.bus, 'w0', [ids[4]], 'w0')).toEqual({
      moved: [],
      stayed: [{ roomId: ids[4], code: 'sameWorker', reason: '이미 이 서버에 있어요' }],
    });
    // A retried command that was acknowledged before the move gets its original answer, not a second turn.
    expect(await act(c.bus, ids[0], `${ids[0]}-1`, 2)).toBe(1);
  });

  it('rebalance after a scale-up spreads the tables over the new workers; a dry run moves nothing', async () => {
    const c = await cluster(new InProcessBus(), new MemorySnapshotStore());
    for (let i = 0; i < 30; i++) expect((await create(c.bus, `s${i}`)).workerId).toBe('w0');
    await c.addWorker('w1');
    await c.addWorker('w2');
    // The plan works from heartbeats, so wait for one that lists all 30 tables.
    const beat = () => c.mm.liveWorkers().map((w) => w.rooms);
    await until(() => beat().length === 3 && beat().reduce((a, b) => a + b) === 30, 20_000, 'heartbeats');
    const dry = await rebalance(c.bus, { dryRun: true });
    expect(dry).toMatchObject({
      before: { w0: 30, w1: 0, w2: 0 },
      planned: 20,
      moved: 0,
      after: { w0: 10, w1: 10, w2: 10 },
    });
    expect(c.workers[0].roomIds()).toHaveLength(30);
    const done = await rebalance(c.bus);
    expect(done).toMatchObject({ planned: 20, moved: 20, stayed: 0 });
    expect(c.workers.map((w) => w.roomIds().length)).toEqual([10, 10, 10]);
    for (let i = 0; i < 30; i++) expect(await act(c.bus, `s${i}`, `s${i}-1`, 1)).toBe(1);
  });
});

describe('live migration on the real NATS and Redis', () => {
  it('a player keeps playing through a rebalance: every acknowledged action is applied exactly once', async () => {
    const ns = `mig${randomBytes(5).toString('hex')}`;
    const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
    const bus = await NatsBus.connect(url, { prefix: ns });
    const client = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const snapshots = new RedisSnapshotStore(client, `joke:${ns}`);
    cleanup.push(async () => {
      await bus.close();
      for await (const keys of client.scanIterator({ MATCH: `joke:${ns}:*`, COUNT: 500 }))
        if (keys.length) await client.del(keys);
      await client.close();
    });
    const c = await cluster(bus, snapshots, new RedisMatchStore(client, `joke:${ns}`));
    const ids = Array.from({ length: 12 }, (_, i) => `t${i}`);
    for (const id of ids) expect((await create(bus, id)).ok).toBe(true);
    await c.addWorker('w1');
    await until(() => c.mm.liveWorkers().reduce((n, w) => n + w.rooms, 0) === 12, 20_000, 'heartbeats');
    await until(() => c.mm.liveWorkers().length === 2, 20_000, 'scale-up');
    // Each table's player acts continuously while the rebalance moves half of the tables.
    const added = new Map(ids.map((id) => [id, 0]));
    let playing = true;
    const players = ids.map(async (id) => {
      for (let k = 1; playing || k <= 3; k++) {
        const n = ((k % 2) + 1) as 1 | 2;
        expect(await act(bus, id, `${id}-${k}`, n)).toBe(k);
        added.set(id, added.get(id)! + n);
      }
    });
    await until(() => [...added.values()].every((n) => n > 0), 10_000, 'every table playing');
    const done = await rebalance(bus);
    playing = false;
    await Promise.all(players);
    expect(done).toMatchObject({ before: { w0: 12, w1: 0 }, planned: 6, moved: 6, stayed: 0 });
    await until(() => c.workers[1].roomIds().length === 6, 20_000, 'moved tables on w1');
    for (const id of ids) {
      const holder = c.workers.find((w) => w.roomIds().includes(id))!;
      const state = raceState(holder.room(id)!.data.state);
      expect(state.total).toBe(added.get(id));
      // The stored room as a restore builds it: its last whole snapshot may be steps behind (steps-only writes).
      const stored = roomFromStore((await snapshots.load(id))!, games);
      expect(stored.ok && raceState(stored.data.state).total).toBe(added.get(id));
    }
  });
});
