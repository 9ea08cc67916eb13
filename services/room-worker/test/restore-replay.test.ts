/**
 * Steps-only snapshot writes through a live worker (issue 9), on the memory store and the real Redis:
 * which writes carry the whole room, and that a room restored from its last whole snapshot plus the
 * steps written after it is the live room exactly — state (text and key order), seq and record — for
 * one-card, poker and hula. A stored step the game refuses is refused on restore, logged, never restored.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { pino } from 'pino';
import { games as engineGames, verifyRecord, type AnyGame } from '@joke/engine';
import { InProcessBus } from '@joke/bus';
import {
  connectRedis,
  MemorySnapshotStore,
  RedisSnapshotStore,
  type RedisClient,
  type SnapshotStore,
  type SnapshotWrite,
} from '@joke/stores';
import { FakeClock } from '@joke/bus/clock';
import { startRoomWorker } from '../src/index.ts';
import { advanceUntil, FakeGateway, openRoom, restoreRoom, seat, storedRoom, until, worker } from './harness.ts';
import { play, PLAYERS } from './fixtures/played.ts';
import { raceState } from './fixtures/race-game.ts';

const games = engineGames as unknown as Record<string, AnyGame>;
const ns = `t-replay-${randomUUID().slice(0, 8)}`;
let redis: RedisClient;
beforeAll(async () => {
  redis = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
});
afterAll(async () => {
  for (const k of await redis.keys(`${ns}:*`)) await redis.del(k);
  await redis.close();
});

const STORES: [string, () => SnapshotStore][] = [
  ['memory store', () => new MemorySnapshotStore()],
  ['real Redis', () => new RedisSnapshotStore(redis, `${ns}:${randomUUID().slice(0, 6)}`)],
];
const GAMES: [string, Record<string, unknown>][] = [
  ['one-card', { mode: 'classic' }],
  ['poker', {}],
  ['hula', {}],
];
const K = 8;

/** A bus and the store, closed with the test. */
function env({ onTestFinished }: TestContext, makeStore: () => SnapshotStore) {
  const bus = new InProcessBus({ onHandlerError: (e) => console.error(e) });
  onTestFinished(() => bus.close());
  return { bus, store: makeStore() };
}

describe.each(STORES)('steps-only writes (%s)', (_, makeStore) => {
  it('a room writes whole at its first write, after each metadata change and once K steps followed; else steps only', async (ctx) => {
    const { bus, store } = env(ctx, makeStore);
    const writes: SnapshotWrite[] = [];
    const logged: SnapshotStore = Object.create(store);
    logged.write = async (roomId, epoch, owner, w, ttl) => {
      const r = await store.write(roomId, epoch, owner, w, ttl);
      if (r === 'ok') writes.push(w);
      return r;
    };
    const w = await worker(bus, logged, { snapshotBaseSteps: 4 });
    ctx.onTestFinished(() => w.close());
    await openRoom(bus, w.id, 'r', [seat('a'), seat('b')], { target: 1000, turnMs: 600_000 });
    const gw = new FakeGateway(bus, 'gw');
    ctx.onTestFinished(() => gw.close());
    const first: string = (await gw.join('r', 'a')).view.view.current;
    await gw.join('r', 'b');
    const kinds = () => writes.map((x) => (x.data === null ? 'steps' : 'whole'));
    expect(kinds()).toEqual(['whole', 'whole']); // the joins: viewers are metadata
    let turn = first;
    for (let i = 0; i < 10; i++) {
      expect((await gw.act('r', turn, `x${i}`, { type: 'add', n: 1 })).ok).toBe(true);
      turn = turn === 'a' ? 'b' : 'a';
    }
    gw.presence('r', 'a', false); // metadata again
    await until(() => writes.length === 13, 5_000, 'the presence write');
    expect(kinds().slice(2)).toEqual([
      ...['steps', 'steps', 'steps', 'steps', 'whole'],
      ...['steps', 'steps', 'steps', 'steps', 'whole'],
      'whole',
    ]);
    // Each steps-only write continues the write before it.
    writes.forEach((x, i) => x.data === null && expect(x.after).toBe(writes[i - 1].seq));
    const stored = (await storedRoom(store, 'r'))!;
    expect(stored.seq).toBe(w.room('r')!.seq);
    expect(stored.data.state).toEqual(w.room('r')!.data.state);
  });

  it('with K = 0 every write is whole in the v2 layout, and a worker with K > 0 restores it and goes on', async (ctx) => {
    const { bus, store } = env(ctx, makeStore);
    const texts: (string | null)[] = [];
    const logged: SnapshotStore = Object.create(store);
    logged.write = async (roomId, epoch, owner, w, ttl) => (
      texts.push(w.data),
      store.write(roomId, epoch, owner, w, ttl)
    );
    const w1 = await worker(bus, logged, { snapshotBaseSteps: 0 });
    ctx.onTestFinished(() => w1.close());
    await openRoom(bus, w1.id, 'r0', [seat('a'), seat('b')], { target: 1000, turnMs: 600_000 });
    const gw = new FakeGateway(bus, 'gw0');
    ctx.onTestFinished(() => gw.close());
    let turn: string = (await gw.join('r0', 'a')).view.view.current;
    for (let i = 0; i < 5; i++) {
      expect((await gw.act('r0', turn, `y${i}`, { type: 'add', n: 2 })).ok).toBe(true);
      turn = turn === 'a' ? 'b' : 'a';
    }
    expect(texts.map((t) => t && JSON.parse(t).v)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(JSON.parse((await store.load('r0'))!.data).v).toBe(2);
    await w1.close();
    const w2 = await worker(bus, store, { snapshotBaseSteps: K });
    ctx.onTestFinished(() => w2.close());
    expect(await restoreRoom(bus, w2.id, 'r0')).toMatchObject({ ok: true, epoch: 2 });
    expect(raceState(w2.room('r0')!.data.state).total).toBe(10);
    expect((await gw.act('r0', turn, 'z', { type: 'add', n: 1 })).ok).toBe(true);
    expect(raceState((await storedRoom(store, 'r0'))!.data.state).total).toBe(11);
  });

  it.for(GAMES)(
    '%s restored from a whole snapshot and the steps after it is the live room exactly',
    { timeout: 120_000 },
    async ([name, options], ctx) => {
      const { bus, store } = env(ctx, makeStore);
      const clock = new FakeClock();
      const cfg = { snapshotBaseSteps: K };
      const w1 = await worker(bus, store, { ...cfg, workerId: 'w1' }, games, clock);
      ctx.onTestFinished(() => w1.close());
      const roomId = `live-${name}`;
      const bots = PLAYERS.map((p) => seat(p, true));
      expect((await openRoom(bus, w1.id, roomId, bots, options, name)).ok).toBe(true);
      // The bots play on fake time, a move or so per millisecond, until the stored whole snapshot (past its
      // first K-step renewal) is a few steps behind the room.
      await advanceUntil(
        clock,
        async () => {
          const s = await storedRoom(store, roomId, games);
          if (!s || s.data.finishedAt !== null) throw new Error(`${name}: the game ended first`);
          return s.seq > K + 3 && s.replayed >= 3;
        },
        60_000,
        'steps written after a whole snapshot',
        1,
      );
      const live = w1.room(roomId)!;
      await live.pause();
      const want = { seq: live.seq, state: JSON.stringify(live.data.state), data: structuredClone(live.data) };
      const record = live.record();
      const { replayed } = (await storedRoom(store, roomId, games))!;
      expect(replayed).toBeGreaterThanOrEqual(3);
      expect(replayed).toBeLessThanOrEqual(K);
      await w1.close();

      const w2 = await worker(bus, store, { ...cfg, workerId: 'w2' }, games, clock);
      ctx.onTestFinished(() => w2.close());
      expect(await restoreRoom(bus, w2.id, roomId)).toEqual({ ok: true, epoch: 2, seq: want.seq });
      const restored = w2.room(roomId)!;
      expect(restored.seq).toBe(want.seq);
      expect(JSON.stringify(restored.data.state)).toBe(want.state);
      expect(restored.data).toEqual(want.data);
      expect(restored.record()).toEqual(record);
      expect(verifyRecord(games[name], restored.record()).ok).toBe(true);
    },
  );

  it('a stored step the game refuses, or a missing one, is refused on restore and logged; the room is released', async (ctx) => {
    const { bus, store } = env(ctx, makeStore);
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
    const w = await startRoomWorker({ workerId: 'w-corrupt', heartbeatMs: 100 }, { bus, store, games, log });
    ctx.onTestFinished(() => w.close());
    const played = play(games.poker, {}, 'bad-step', 30);
    const steps = played.steps.map((s) => JSON.stringify(s));
    const at = played.steps.find((s) => s.s > 20 && !s.t)!.s;
    steps[at - 1] = JSON.stringify({ ...played.steps[at - 1], x: { type: 'nonsense' } });
    const first = { seq: 30, data: played.snapshotAt(18), steps };
    expect((await store.createRoom('bad-step', 'gone', first, 60_000)).ok).toBe(true);
    const gap = play(games.poker, {}, 'gap', 30);
    const holed = gap.steps.filter((s) => s.s !== 25).map((s) => JSON.stringify(s));
    expect(
      (await store.createRoom('gap', 'gone', { seq: 30, data: gap.snapshotAt(18), steps: holed }, 60_000)).ok,
    ).toBe(true);

    expect(await restoreRoom(bus, w.id, 'bad-step')).toMatchObject({ ok: false, code: 'badSnapshot' });
    expect(await restoreRoom(bus, w.id, 'gap')).toMatchObject({ ok: false, code: 'badSnapshot' });
    expect(w.roomIds()).toEqual([]);
    // Released for another worker at once, not left leased to this one.
    expect(await store.lease('bad-step')).toBeNull();
    expect(await store.lease('gap')).toBeNull();
    const refused = lines.filter((l) => l.msg === 'stored room refused: not restored');
    expect(refused).toMatchObject([
      {
        level: 50,
        roomId: 'bad-step',
        seq: 30,
        code: 'badSnapshot',
        problem: expect.stringMatching(new RegExp(`^step ${at} refused on replay: `)),
      },
      { level: 50, roomId: 'gap', seq: 30, code: 'badSnapshot', problem: 'step 25 missing (next stored step is 26)' },
    ]);
  });
});
