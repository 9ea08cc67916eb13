/**
 * Matchmaker behaviour with real room workers on the in-process bus and memory
 * stores, plus the quick-match queue shared by two replicas over real Redis.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InProcessBus, type Bus } from '@joke/bus';
import {
  connectRedis,
  MemoryMatchStore,
  MemorySnapshotStore,
  RedisMatchStore,
  RedisSnapshotStore,
  type MatchStore,
  type SnapshotStore,
} from '@joke/stores';
import { subjects, wireText } from '@joke/protocol';
import { startRoomWorker, type RoomWorker } from '@joke/room-worker';
import { startMatchmaker, type FailoverReport, type Matchmaker } from '../src/index.ts';
import { FakeClock } from '@joke/bus/clock';
import { advanceUntil, cleanupAfterEach, games, log, tickAfter, until } from './helpers.ts';

const cleanup = cleanupAfterEach();

interface Cluster {
  bus: Bus;
  snapshots: SnapshotStore;
  match: MatchStore;
  workers: RoomWorker[];
  mm: Matchmaker;
  /** The time the matchmaker set its intervals at (its ticks are mmStart + k·period on a FakeClock). */
  mmStart: number;
}

/**
 * `clock`: a FakeClock puts the workers, the matchmaker and the memory stores on one fake time, so heartbeats,
 * leases and the matchmaker's checks agree and move only when the test advances it.
 */
async function cluster(nWorkers: number, workerCfg = {}, mmCfg = {}, clock?: FakeClock): Promise<Cluster> {
  const bus = new InProcessBus();
  const now = clock ? () => clock.now() : undefined;
  const snapshots = new MemorySnapshotStore(now);
  const match = new MemoryMatchStore(now);
  const workers: RoomWorker[] = [];
  for (let i = 0; i < nWorkers; i++)
    workers.push(
      await startRoomWorker(
        { workerId: `w${i}`, shard: i, heartbeatMs: 50, botDelayMs: 0, botJitterMs: 0, ...workerCfg },
        { bus, store: snapshots, games, log, clock },
      ),
    );
  const mmStart = (clock ?? Date).now();
  const mm = await startMatchmaker(
    { matchmakerId: 'mm1', deadAfterMs: 200, deadCheckMs: 20, orphanSweepMs: 200, ...mmCfg },
    { bus, snapshots, match, games, log, clock },
  );
  cleanup.push(async () => {
    await mm.close();
    for (const w of workers) await w.close();
    await bus.close();
  });
  const all = () => mm.liveWorkers().length === nWorkers;
  if (clock) await advanceUntil(clock, all, 5_000, 'heartbeats');
  else await until(all, 20_000, 'heartbeats');
  return { bus, snapshots, match, workers, mm, mmStart };
}

const create = async (bus: Bus, roomId: string, players = [{ id: 'a', name: 'A', bot: false }], options = {}) =>
  JSON.parse(
    wireText(
      await bus.request(
        subjects.createRoom,
        JSON.stringify({ v: 1, room: { roomId, game: 'race', options, players } }),
        3000,
      ),
    ),
  );

describe('matchmaker', () => {
  // On fake time: a heartbeat that a loaded box delays past DEAD_AFTER_MS (200 ms here) must not take a
  // worker out of placement in the middle of a test about placement (a clean-clone run at load 40 did).
  it('places new rooms over the live workers and answers which one took each', async () => {
    const c = await cluster(3, {}, {}, new FakeClock());
    const where = new Map<string, number>();
    for (let i = 0; i < 60; i++) {
      const r = await create(c.bus, `room${i}`);
      expect(r.ok).toBe(true);
      expect(c.workers.find((w) => w.id === r.workerId)?.roomIds()).toContain(`room${i}`);
      where.set(r.workerId, (where.get(r.workerId) ?? 0) + 1);
    }
    expect(where.size).toBe(3);
    expect(await create(c.bus, 'x', [{ id: 'a', name: 'A', bot: false }], { target: 'bad' })).toMatchObject({
      ok: false,
    });
  });

  it('never places on a draining worker', async () => {
    const c = await cluster(2, {}, {}, new FakeClock());
    c.bus.publish(subjects.workerDraining, JSON.stringify({ v: 1, workerId: 'w0', rooms: 0 }));
    await until(() => c.mm.liveWorkers().find((w) => w.workerId === 'w0')?.draining === true);
    for (let i = 0; i < 20; i++) expect((await create(c.bus, `d${i}`)).workerId).toBe('w1');
  });

  it("fails a silent worker's rooms over at the first check after DEAD_AFTER_MS of silence, not one before; they carry on from the snapshot", async () => {
    const clock = new FakeClock();
    // Heartbeats only: the probe would notice the closed worker at its next ping, before DEAD_AFTER_MS.
    // Checks every 10 ms from the start, heartbeats every 50: a check falls exactly DEAD_AFTER_MS after a beat.
    // All at once (FAILOVER_STEP_SHARE 1): the paced failover has its own tests (busy-not-dead.test.ts).
    const c = await cluster(2, {}, { probeMs: 0, deadCheckMs: 10, failoverStepShare: 1 }, clock);
    const failedOver = new Promise<FailoverReport>((r) => c.mm.onFailover(r));
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const r = await create(c.bus, `f${i}`, [{ id: 'a', name: 'A', bot: false }], { target: 1000 });
      if (r.workerId === 'w0') ids.push(`f${i}`);
    }
    expect(ids.length).toBeGreaterThan(0);
    const epochs = await Promise.all(ids.map(async (id) => (await c.snapshots.lease(id))!.epoch));
    await c.workers[0].close(); // stops heartbeating, like a crash
    const live = () => c.mm.liveWorkers().map((w) => w.workerId);
    const lastBeat = c.mm.liveWorkers().find((w) => w.workerId === 'w0')!.seenAt;
    // Dead once its last heartbeat is more than 200 ms old at a check: the check when it is exactly 200 ms
    // old keeps it, the next one drops it.
    await clock.advanceTo(lastBeat + 200);
    expect(live()).toEqual(['w0', 'w1']);
    const due = tickAfter(c.mmStart, 10, lastBeat + 200);
    await clock.advanceTo(due - 1);
    expect(live()).toEqual(['w0', 'w1']);
    await clock.advanceTo(due);
    expect(live()).toEqual(['w1']);
    const report = await failedOver;
    expect(report).toMatchObject({ workerId: 'w0', rooms: ids.length, restored: ids.length, failed: 0 });
    for (const [i, id] of ids.entries()) {
      expect(c.workers[1].roomIds()).toContain(id);
      expect(await c.snapshots.lease(id)).toEqual({ owner: 'w1', epoch: epochs[i] + 1 });
    }
  });

  it('treats a worker back under the same id as a new incarnation: its old rooms are failed over', async () => {
    const c = await cluster(2);
    const reports: FailoverReport[] = [];
    c.mm.onFailover((r) => reports.push(r));
    let id = '';
    for (let i = 0; !id; i++) if ((await create(c.bus, `i${i}`)).workerId === 'w0') id = `i${i}`;
    await c.workers[0].close();
    // Same id, fresh process: it knows nothing of the room, and must not get it back by name.
    c.workers[0] = await startRoomWorker(
      { workerId: 'w0', heartbeatMs: 50, botDelayMs: 0, botJitterMs: 0 },
      { bus: c.bus, store: c.snapshots, games, log },
    );
    await until(() => reports.length >= 1, 20_000, 'failover');
    const lease = await c.snapshots.lease(id);
    expect(lease!.epoch).toBe(2);
    const holder = c.workers.find((w) => w.roomIds().includes(id))!;
    expect(holder.id).toBe(lease!.owner);
  });

  it('drain hands every room to another worker and loses nothing', async () => {
    // Fake time: with real time a stalled heartbeat failed w1's rooms over to w0 mid-test (12 handed over, not 10).
    const c = await cluster(2, {}, {}, new FakeClock());
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await create(c.bus, `g${i}`, [{ id: 'a', name: 'A', bot: false }], { target: 1000 });
      if (r.workerId === 'w0') ids.push(`g${i}`);
    }
    const seqs = await Promise.all(ids.map(async (id) => (await c.snapshots.load(id))!.seq));
    const report = await c.workers[0].drain();
    expect(report).toMatchObject({ handedOver: ids.length, released: 0 });
    for (const [i, id] of ids.entries()) {
      expect(c.workers[1].roomIds()).toContain(id);
      expect((await c.snapshots.load(id))!.seq).toBe(seqs[i]);
    }
  });

  it('the orphan sweep places a room at its first sweep after the lease lapsed with nobody running it', async () => {
    const clock = new FakeClock();
    const c = await cluster(1, {}, {}, clock);
    const template = renamed((await roomDataLike(c)).data, 'orphan');
    // What each sweep found (the sweep reads the store's orphans once per round).
    const found: string[][] = [];
    const orphans = c.snapshots.orphans.bind(c.snapshots);
    c.snapshots.orphans = async (limit) => {
      const ids = await orphans(limit);
      found.push(ids);
      return ids;
    };
    const first = tickAfter(c.mmStart, 200, clock.now());
    const second = first + 200;
    // A room left behind by a worker no matchmaker ever heard of (e.g. all were down when it died), its
    // lease running out exactly at the second sweep from now.
    await c.snapshots.createRoom('orphan', 'ghost', { seq: 0, data: template, steps: [] }, second - clock.now());
    await clock.advanceTo(first);
    await until(() => found.length === 1, 20_000, 'the first sweep');
    expect(found[0]).toEqual([]); // the lease still holds
    await clock.advanceTo(second - 1);
    expect(found).toHaveLength(1);
    expect(c.workers[0].roomIds()).not.toContain('orphan');
    await clock.advanceTo(second);
    await until(() => c.workers[0].roomIds().includes('orphan'), 20_000, 'sweep');
    expect(found).toEqual([[], ['orphan']]);
    expect(clock.now()).toBe(second);
  });

  it("between full scans the sweep reads only the store's lapsed leases, and places one at its first sweep after the lapse", async () => {
    const clock = new FakeClock();
    const c = await cluster(1, {}, { orphanScanMs: 60_000 }, clock);
    const template = renamed((await roomDataLike(c)).data, 'lapsed');
    const calls: ('scan' | 'lapsed')[] = [];
    const orphans = c.snapshots.orphans.bind(c.snapshots);
    c.snapshots.orphans = async (limit) => (calls.push('scan'), orphans(limit));
    c.snapshots.lapsed = async (limit) => (calls.push('lapsed'), orphans(limit));
    // The first sweep with the cheap form at hand walks every room (rooms indexed before this replica started).
    await advanceUntil(clock, () => calls.length === 1, 5_000, 'the first sweep');
    expect(calls).toEqual(['scan']);
    const next = tickAfter(c.mmStart, 200, clock.now());
    await c.snapshots.createRoom('lapsed', 'ghost', { seq: 0, data: template, steps: [] }, next + 200 - clock.now());
    await clock.advanceTo(next);
    await until(() => calls.length === 2, 20_000, 'the second sweep');
    expect(c.workers[0].roomIds()).not.toContain('lapsed');
    await clock.advanceTo(next + 200);
    await until(() => c.workers[0].roomIds().includes('lapsed'), 20_000, 'the lapsed room placed');
    expect(calls).toEqual(['scan', 'lapsed', 'lapsed']);
  });

  it('a room the lease-expiry index lost is placed by the next full scan, ORPHAN_SCAN_MS after the previous one', async () => {
    const clock = new FakeClock();
    const c = await cluster(1, {}, { orphanScanMs: 2_000 }, clock);
    const template = renamed((await roomDataLike(c)).data, 'lost');
    const scans: number[] = [];
    const orphans = c.snapshots.orphans.bind(c.snapshots);
    c.snapshots.orphans = async (limit) => (scans.push(clock.now()), orphans(limit));
    // The index lost this room (say, in a store failover): the cheap sweep never reports it.
    c.snapshots.lapsed = async (limit) => (await orphans(limit)).filter((id) => id !== 'lost');
    await advanceUntil(clock, () => scans.length === 1, 5_000, 'the first full scan');
    const t0 = scans[0];
    await c.snapshots.createRoom('lost', 'ghost', { seq: 0, data: template, steps: [] }, 1);
    const dueScan = tickAfter(c.mmStart, 200, t0 + 2_000 - 1);
    await clock.advanceTo(dueScan - 1);
    expect(scans).toEqual([t0]);
    expect(c.workers[0].roomIds()).not.toContain('lost');
    await clock.advanceTo(dueScan);
    await until(() => c.workers[0].roomIds().includes('lost'), 20_000, 'the lost room placed');
    expect(scans).toEqual([t0, dueScan]);
  });

  it('quick-match fills a table, starts it and tells each player through their gateway', async () => {
    const c = await cluster(1);
    const { matched, q } = quickMatch(c);
    expect(await q('u1', 'gA')).toEqual({ ok: true });
    expect(await q('u2', 'gB')).toEqual({ ok: true });
    expect(await q('u2', 'gB', { cancel: true })).toEqual({ ok: true });
    expect(await q('u3', 'gA')).toEqual({ ok: true });
    // No wait for "nothing matched yet": had the cancelled u2 still counted, u1+u2+u3 would have matched
    // here and u4 would wait, so the three matched users checked below would include u2.
    expect(await q('u4', 'gB')).toEqual({ ok: true });
    await until(() => matched.length === 3, 20_000, 'matched');
    const roomId = matched[0].roomId;
    expect(matched.map((x) => x.userId).sort()).toEqual(['u1', 'u3', 'u4']);
    expect(matched.every((x) => x.roomId === roomId && x.game === 'race' && x.mode === 'classic')).toBe(true);
    expect(
      c.workers[0]
        .room(roomId)
        ?.data.seats.map((s) => s.id)
        .sort(),
    ).toEqual(['u1', 'u3', 'u4']); // seats are shuffled
    expect(await q('u5', 'gA', { game: 'nope' })).toMatchObject({ ok: false, reason: '알 수 없는 게임이에요' });
  });
});

/** Quick-match requests for `race` (classic, 3 players) through gateways gA/gB, and what those gateways heard. */
function quickMatch(c: Cluster) {
  const matched: { userId: string; roomId: string; game?: string; mode?: string }[] = [];
  for (const g of ['gA', 'gB'])
    c.bus.subscribe(subjects.gatewayMatched(g), (m) => matched.push(JSON.parse(wireText(m.data))));
  /** `extra`: more request members (a gateway's `requestId`, say). */
  const q = async (userId: string, gatewayId: string, extra: Record<string, unknown> = {}) =>
    JSON.parse(
      wireText(
        await c.bus.request(
          subjects.queue,
          JSON.stringify({
            v: 1,
            userId,
            name: userId,
            gatewayId,
            game: 'race',
            mode: 'classic',
            players: 3,
            ...extra,
          }),
          2000,
        ),
      ),
    );
  return { matched, q };
}

describe('quick-match across gateways (QUEUE_GATEWAY_HOLD_MS)', () => {
  it('seats players of one gateway together, and a held full queue across gateways once its hold ends', async () => {
    const clock = new FakeClock();
    const hold = 500;
    const c = await cluster(1, {}, { queueGatewayHoldMs: hold, queueBotFillMs: 0 }, clock);
    const { matched, q } = quickMatch(c);
    const tables = () => {
      const t = new Map<string, string[]>();
      for (const x of matched) t.set(x.roomId, [...(t.get(x.roomId) ?? []), x.userId]);
      return [...t.values()].map((users) => users.sort());
    };
    const t0 = clock.now();
    for (const [u, g] of [
      ['a1', 'gA'],
      ['b1', 'gB'],
      ['a2', 'gA'],
      ['b2', 'gB'],
      ['b3', 'gB'],
    ])
      expect(await q(u, g)).toEqual({ ok: true });
    // gB's three met at once, though a1 and a2 came first.
    await until(() => matched.length === 3, 20_000, "gB's table");
    expect(tables()).toEqual([['b1', 'b2', 'b3']]);
    expect(await q('c1', 'gB')).toEqual({ ok: true });
    // a1, a2 and c1 are a full table of two gateways: held while a1's hold runs.
    await clock.advanceTo(t0 + hold - 1);
    expect(matched).toHaveLength(3);
    expect((await c.match.waiting('race:classic:3', 60_000)).map((e) => e.userId)).toEqual(['a1', 'a2', 'c1']);
    await clock.advanceTo(t0 + hold);
    await until(() => matched.length === 6, 20_000, 'the held table');
    expect(tables()).toEqual([
      ['b1', 'b2', 'b3'],
      ['a1', 'a2', 'c1'],
    ]);
    const roomId = matched[5].roomId;
    expect(
      c.workers[0]
        .room(roomId)
        ?.data.seats.map((s) => s.id)
        .sort(),
    ).toEqual(['a1', 'a2', 'c1']); // seats are shuffled
    expect(await c.match.waiting('race:classic:3', 60_000)).toEqual([]);
  });
});

describe('a quick-match request tried again (issue 9)', () => {
  it('with the same requestId is answered ok without queueing the player again; a new one queues them', async () => {
    const c = await cluster(1, {}, { queueGatewayHoldMs: 0, queueBotFillMs: 0 });
    const { matched, q: queue } = quickMatch(c);
    const q = (userId: string, requestId: string) => queue(userId, 'gA', { requestId });
    const waiting = async () => (await c.match.waiting('race:classic:3', 60_000)).map((e) => e.userId);
    for (const u of ['u1', 'u2', 'u3']) expect(await q(u, `${u}-first`)).toEqual({ ok: true });
    await until(() => matched.length === 3, 20_000, 'the table');
    // u1's gateway did not see the first reply in time and tries again: u1 sits at one table only.
    expect(await q('u1', 'u1-first')).toEqual({ ok: true });
    expect(await waiting()).toEqual([]);
    for (const u of ['u4', 'u5']) expect(await q(u, `${u}-first`)).toEqual({ ok: true });
    expect(await waiting()).toEqual(['u4', 'u5']);
    expect(matched).toHaveLength(3);
    // A new request of u1's (after its game, say) queues it as usual.
    expect(await q('u1', 'u1-second')).toEqual({ ok: true });
    await until(() => matched.length === 6, 20_000, 'the second table');
    expect(new Set(matched.slice(3).map((m) => m.userId))).toEqual(new Set(['u4', 'u5', 'u1']));
  });

  it('whose first try failed in the store is carried out: the player is queued, not answered ok and forgotten', async () => {
    const c = await cluster(1, {}, { queueGatewayHoldMs: 0, queueBotFillMs: 0 });
    const { q: queue } = quickMatch(c);
    const q = (userId: string, requestId: string) => queue(userId, 'gA', { requestId });
    const real = c.match.enqueueRequest.bind(c.match);
    let failures = 1;
    c.match.enqueueRequest = (...args) => (failures-- > 0 ? Promise.reject(new Error('store down')) : real(...args));
    expect(await q('u1', 'u1-only')).toMatchObject({ ok: false, code: 'noWorkers' });
    expect(await c.match.waiting('race:classic:3', 60_000)).toEqual([]);
    // The gateway tries the same request again, and this time the store takes it.
    expect(await q('u1', 'u1-only')).toEqual({ ok: true });
    expect((await c.match.waiting('race:classic:3', 60_000)).map((e) => e.userId)).toEqual(['u1']);
  });
});

describe('a held quick-match table that could not start', () => {
  it('is tried again after the retry period, without a newcomer, once a worker can take it', async () => {
    const clock = new FakeClock();
    const hold = 500;
    const c = await cluster(1, {}, { queueGatewayHoldMs: hold, queueBotFillMs: 0 }, clock);
    const { matched, q } = quickMatch(c);
    // The only worker drains: nothing can be placed until another comes.
    c.bus.publish(subjects.workerDraining, JSON.stringify({ v: 1, workerId: 'w0', rooms: 0 }));
    await until(() => c.mm.liveWorkers().find((w) => w.workerId === 'w0')?.draining === true);
    const t0 = clock.now();
    for (const [u, g] of [
      ['a1', 'gA'],
      ['b1', 'gB'],
      ['a2', 'gA'],
    ])
      expect(await q(u, g)).toEqual({ ok: true });
    const waiting = async () => (await c.match.waiting('race:classic:3', 60_000)).map((e) => e.userId);
    // The hold ends, the table is tried, no worker takes it: back in line, in the same order.
    await clock.advanceTo(t0 + hold);
    await until(async () => (await waiting()).length === 3 && c.mm.liveWorkers().length === 1, 20_000, 'requeued');
    expect(matched).toEqual([]);
    const w1 = await startRoomWorker(
      { workerId: 'w1', shard: 1, heartbeatMs: 50, botDelayMs: 0, botJitterMs: 0 },
      { bus: c.bus, store: c.snapshots, games, log, clock },
    );
    cleanup.push(() => w1.close());
    await advanceUntil(clock, () => c.mm.liveWorkers().some((w) => w.workerId === 'w1'), 5_000, 'w1 heartbeats');
    // Nobody else queues: the retry (at most max(hold, 1 s) after the failed try) seats them.
    await advanceUntil(clock, () => matched.length === 3, 2_000, 'the retried table');
    expect(matched.map((m) => m.userId).sort()).toEqual(['a1', 'a2', 'b1']);
    expect(
      w1
        .room(matched[0].roomId)
        ?.data.seats.map((s) => s.id)
        .sort(),
    ).toEqual(['a1', 'a2', 'b1']); // one enqueue time: by id; seats shuffled
    expect(await waiting()).toEqual([]);
  });
});

/** The same snapshot under another room id (the worker's v2 layout keeps the id in `meta`). */
function renamed(data: string, roomId: string): string {
  const snap = JSON.parse(data);
  return JSON.stringify({ ...snap, meta: { ...snap.meta, roomId } });
}

async function roomDataLike(c: Cluster) {
  await create(c.bus, 'template');
  return (await c.snapshots.load('template'))!;
}

describe('quick-match with two replicas on real Redis', () => {
  it('does not split the queue: players spread over both replicas still meet at one table', async () => {
    const ns = `joke:t${randomBytes(6).toString('hex')}`;
    const client = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const bus = new InProcessBus();
    const snapshots = new RedisSnapshotStore(client, ns);
    const match = new RedisMatchStore(client, ns);
    const w = await startRoomWorker(
      { workerId: 'rw', heartbeatMs: 50, botDelayMs: 0 },
      { bus, store: snapshots, games, log },
    );
    const mms = await Promise.all(
      ['mmA', 'mmB'].map((id) =>
        startMatchmaker({ matchmakerId: id, deadAfterMs: 500 }, { bus, snapshots, match, games, log }),
      ),
    );
    cleanup.push(async () => {
      for (const m of mms) await m.close();
      await w.close();
      await bus.close();
      for await (const keys of client.scanIterator({ MATCH: `${ns}:*`, COUNT: 500 }))
        if (keys.length) await client.del(keys);
      await client.close();
    });
    await until(() => mms.every((m) => m.liveWorkers().length === 1));
    const matched: any[] = [];
    bus.subscribe(subjects.gatewayMatched('g'), (m) => matched.push(JSON.parse(wireText(m.data))));
    // The in-process bus round-robins the `mm` queue group, so consecutive requests alternate replicas.
    // The bound only ends a hang: at the suite's load (≈ 30) one answer over real Redis took longer than 2 s.
    for (let i = 0; i < 8; i++)
      await bus.request(
        subjects.queue,
        JSON.stringify({
          v: 1,
          userId: `u${i}`,
          name: `u${i}`,
          gatewayId: 'g',
          game: 'race',
          mode: 'classic',
          players: 4,
        }),
        15_000,
      );
    await until(() => matched.length === 8, 20_000, 'two tables');
    const tables = new Map<string, string[]>();
    for (const x of matched) tables.set(x.roomId, [...(tables.get(x.roomId) ?? []), x.userId]);
    expect([...tables.values()].map((t) => t.sort())).toEqual([
      ['u0', 'u1', 'u2', 'u3'],
      ['u4', 'u5', 'u6', 'u7'],
    ]);
  });
});
