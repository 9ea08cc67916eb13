/**
 * Quick-match as the waiting player sees it: queue-size announcements to each
 * waiting user's gateway, and bots taking the empty seats after the wait
 * (real room worker, in-process bus, memory stores).
 */
import { describe, expect, it } from 'vitest';
import { InProcessBus } from '@joke/bus';
import { MemoryMatchStore, MemorySnapshotStore } from '@joke/stores';
import { FakeClock, systemClock } from '@joke/bus/clock';
import { subjects, wireText } from '@joke/protocol';
import { startRoomWorker } from '@joke/room-worker';
import { startMatchmaker } from '../src/index.ts';
import { QueueWatch, statusGapMs } from '../src/queue-watch.ts';
import type { QueueBase } from '../src/queues.ts';
import { advanceUntil, cleanupAfterEach, games, log, until } from './helpers.ts';

const cleanup = cleanupAfterEach();

/** A worker and a matchmaker; with `clock`, they and the memory stores run on that fake time. */
async function cluster(queueBotFillMs: number, clock?: FakeClock, mmCfg = {}, workerCfg = {}) {
  const bus = new InProcessBus();
  const now = clock ? () => clock.now() : undefined;
  const snapshots = new MemorySnapshotStore(now);
  const match = new MemoryMatchStore(now);
  const worker = await startRoomWorker(
    { workerId: 'w0', heartbeatMs: 50, botDelayMs: 0, botJitterMs: 0, ...workerCfg },
    { bus, store: snapshots, games, log, clock },
  );
  const mm = await startMatchmaker(
    { matchmakerId: 'mm1', deadAfterMs: 2000, deadCheckMs: 20, queueBotFillMs, ...mmCfg },
    { bus, snapshots, match, games, log, clock },
  );
  cleanup.push(async () => {
    await mm.close();
    await worker.close();
    await bus.close();
  });
  const one = () => mm.liveWorkers().length === 1;
  if (clock) await advanceUntil(clock, one, 5_000, 'heartbeats');
  else await until(one, 20_000, 'heartbeats');
  const heard: any[] = [];
  for (const gw of ['gA', 'gB']) {
    bus.subscribe(subjects.gatewayMatched(gw), (m) => heard.push({ t: 'matched', ...JSON.parse(wireText(m.data)) }));
    bus.subscribe(subjects.gatewayQueueStatus(gw), (m) => heard.push({ t: 'status', ...JSON.parse(wireText(m.data)) }));
  }
  const queue = (userId: string, gatewayId: string, extra = {}) =>
    bus
      .request(
        subjects.queue,
        JSON.stringify({ v: 1, userId, name: userId, gatewayId, game: 'race', mode: 'classic', players: 3, ...extra }),
        5000,
      )
      .then((r) => JSON.parse(wireText(r)));
  return { worker, heard, queue, bus, snapshots, mm };
}

const statusOf = (heard: any[], userId: string) => heard.filter((h) => h.t === 'status' && h.userId === userId).at(-1);

describe('quick-match queue status', () => {
  it('tells every waiting user the queue size after each arrival and departure', async () => {
    const c = await cluster(0);
    expect(await c.queue('u1', 'gA')).toEqual({ ok: true });
    await until(() => statusOf(c.heard, 'u1')?.waiting === 1, 20_000, 'u1 alone');
    expect(statusOf(c.heard, 'u1')).toMatchObject({ game: 'race', mode: 'classic', players: 3, botsAt: null });
    expect(await c.queue('u2', 'gB')).toEqual({ ok: true });
    await until(() => statusOf(c.heard, 'u1')?.waiting === 2 && statusOf(c.heard, 'u2')?.waiting === 2);
    expect(await c.queue('u2', 'gB', { cancel: true })).toEqual({ ok: true });
    await until(() => statusOf(c.heard, 'u1')?.waiting === 1, 20_000, 'u2 gone');
    expect(c.heard.some((h) => h.t === 'matched')).toBe(false);
  });
});

describe('stale queue entries', () => {
  it('a waiting entry counts until QUEUE_STALE_MS has passed, and not 1 ms longer', async () => {
    const clock = new FakeClock();
    const c = await cluster(0, clock, { queueStaleMs: 1_000 });
    const t0 = clock.now();
    expect(await c.queue('u1', 'gA')).toEqual({ ok: true });
    await clock.advanceTo(t0 + 1_000);
    expect(await c.queue('u2', 'gB')).toEqual({ ok: true });
    await until(() => statusOf(c.heard, 'u2')?.waiting === 2, 20_000, 'u1 still counted');
    await clock.advanceTo(t0 + 1_001);
    // Had u1 still counted, this third player would have made a table of three.
    expect(await c.queue('u3', 'gA')).toEqual({ ok: true });
    await until(() => statusOf(c.heard, 'u3')?.waiting === 2, 20_000, 'u1 dropped');
    expect(statusOf(c.heard, 'u2').waiting).toBe(2);
    expect(c.heard.some((h) => h.t === 'matched')).toBe(false);
  });
});

describe('bots after the wait', () => {
  it('seats the waiting humans who accept bots with bots in the empty seats at the announced moment; the others keep waiting', async () => {
    const clock = new FakeClock();
    const c = await cluster(300, clock);
    const queuedAt = clock.now();
    expect(await c.queue('u1', 'gA')).toEqual({ ok: true });
    expect(await c.queue('u2', 'gB', { bots: false })).toEqual({ ok: true });
    await until(() => statusOf(c.heard, 'u2')?.waiting === 2, 20_000, 'both waiting');
    const first = statusOf(c.heard, 'u1');
    // u1's place in line is the matchmaker's time of the request; bots come the wait after it.
    expect(first.botsAt).toBe(queuedAt + 300);
    expect(statusOf(c.heard, 'u2').botsAt).toBeNull();
    const matched = () => c.heard.filter((h) => h.t === 'matched');
    await clock.advanceTo(first.botsAt - 1);
    expect(matched()).toEqual([]);
    await clock.advanceTo(first.botsAt);
    await until(() => matched().length > 0, 20_000, 'bot-filled table');
    expect(clock.now()).toBe(first.botsAt);
    expect(matched().map((m) => m.userId)).toEqual(['u1']);
    const roomId = matched()[0].roomId;
    const seats = c.worker.room(roomId)?.data.seats ?? [];
    // Seats are shuffled (random seating): who sits is fixed, not where.
    const byId = [...seats].sort((x, y) => x.id.localeCompare(y.id));
    expect(byId.map((s) => s.id)).toEqual([`${roomId}-bot1`, `${roomId}-bot2`, 'u1'].sort());
    expect(byId.map((s) => [s.id, s.bot])).toEqual(byId.map((s) => [s.id, s.id !== 'u1']));
    await until(() => statusOf(c.heard, 'u2')?.waiting === 1, 20_000, 'u2 told it waits alone');
  });

  it('never fills when the wait is 0 (off)', async () => {
    const c = await cluster(0);
    expect(await c.queue('u1', 'gA')).toEqual({ ok: true });
    await until(() => statusOf(c.heard, 'u1')?.waiting === 1);
    expect(statusOf(c.heard, 'u1').botsAt).toBeNull();
  });

  it('says `full` to players whose table found no worker with headroom, and they stay queued', async () => {
    // One room fits; bots are off and the held-queue retry would seat the second table once room frees.
    const c = await cluster(0, undefined, {}, { maxRooms: 1 });
    for (const u of ['a1', 'a2', 'a3']) expect(await c.queue(u, 'gA')).toEqual({ ok: true });
    await until(() => c.heard.filter((h) => h.t === 'matched').length === 3, 20_000, 'the first table');
    expect(c.heard.some((h) => h.t === 'status' && h.full)).toBe(false);
    for (const u of ['b1', 'b2', 'b3']) expect(await c.queue(u, 'gB')).toEqual({ ok: true });
    await until(() => ['b1', 'b2', 'b3'].every((u) => statusOf(c.heard, u)?.full === true), 20_000, 'full statuses');
    expect(statusOf(c.heard, 'b1').waiting).toBe(3);
    expect(c.heard.filter((h) => h.t === 'matched')).toHaveLength(3);
  });

  it('while no worker has room, takes nobody out of the line to be refused; a worker with room then seats every waiting table', async () => {
    const c = await cluster(0, undefined, {}, { maxRooms: 1 });
    const opens: string[] = [];
    c.bus.subscribe(subjects.workerOpen('w0'), (m) => opens.push(JSON.parse(wireText(m.data)).roomId));
    for (const u of ['a1', 'a2', 'a3']) expect(await c.queue(u, 'gA')).toEqual({ ok: true });
    await until(() => c.heard.filter((h) => h.t === 'matched').length === 3, 20_000, 'the first table');
    // w0 is full and says so in its heartbeats: two more tables' worth join the line, and no open is tried.
    await until(() => c.mm.liveWorkers()[0]?.headroom === 0, 20_000, 'a heartbeat without headroom');
    const tried = opens.length;
    const later = ['b1', 'b2', 'b3', 'c1', 'c2', 'c3'];
    for (const u of later) expect(await c.queue(u, 'gB')).toEqual({ ok: true });
    await until(() => later.every((u) => statusOf(c.heard, u)?.full === true), 20_000, 'full statuses');
    expect(statusOf(c.heard, 'c3').waiting).toBe(6);
    expect(opens.length).toBe(tried);
    const refused = await c.mm.registry.getSingleMetricAsString('joke_matchmaker_refused_capacity_total');
    expect(refused).toMatch(/ 0$/m);
    // A second worker with room: both waiting tables are seated, with nobody new arriving to set them off.
    const w1 = await startRoomWorker(
      { workerId: 'w1', heartbeatMs: 50, botDelayMs: 0, botJitterMs: 0 },
      { bus: c.bus, store: c.snapshots, games, log },
    );
    cleanup.push(() => w1.close());
    await until(() => later.every((u) => c.heard.some((h) => h.t === 'matched' && h.userId === u)), 20_000, 'seated');
    const rooms = new Set(c.heard.filter((h) => h.t === 'matched' && later.includes(h.userId)).map((h) => h.roomId));
    expect(rooms.size).toBe(2);
    for (const r of rooms) expect(w1.room(r)).toBeDefined();
  });
});

describe('status rounds under a burst of arrivals', () => {
  it('changes during a round share one next round that reads the queue as it is then', async () => {
    const bus = new InProcessBus();
    cleanup.push(() => bus.close());
    const waiting: { userId: string; name: string; gatewayId: string; at: number }[] = [];
    let reads = 0;
    const h = {
      bus,
      cfg: { queueStaleMs: 60_000, queueBotFillMs: 0 },
      clock: systemClock,
      match: {
        waiting: async () => {
          reads++;
          const now = [...waiting];
          await new Promise((r) => setTimeout(r, 5));
          return now;
        },
      },
    } as unknown as QueueBase;
    const heard: any[] = [];
    bus.subscribe(subjects.gatewayQueueStatus('gA'), (m) => heard.push(JSON.parse(wireText(m.data))));
    const watch = new QueueWatch(h, async () => 'started');
    // Fewer wait than a table seats: the rounds tell, nothing is due to be seated (a line holding a table's
    // worth is seated by the watch's timer, which is not what this test is about).
    const q = { game: 'race', mode: 'classic', players: 60 };
    const calls: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) {
      waiting.push({ userId: `u${i}`, name: `u${i}`, gatewayId: 'gA', at: i });
      calls.push(watch.changed(q));
    }
    await Promise.all(calls);
    // One round per change would have read the queue 50 times and sent 1 + 2 + … + 50 = 1,275 statuses.
    expect(reads).toBe(2);
    await until(() => heard.length === 1 + 50);
    expect(heard.slice(1).every((s) => s.waiting === 50)).toBe(true);
    expect(new Set(heard.slice(1).map((s) => s.userId)).size).toBe(50);
    // A change after the rounds ended starts a fresh one.
    waiting.pop();
    await watch.changed(q);
    expect(reads).toBe(3);
    watch.close();
  });
});

describe('status rounds of a long line', () => {
  it('space out in proportion to the line (1 ms a person from 500 on, at most 15 s), on the matchmaker clock', async () => {
    expect([0, 499, 500, 5_000, 10_000, 50_000].map(statusGapMs)).toEqual([0, 0, 500, 5_000, 10_000, 15_000]);
    const clock = new FakeClock();
    const bus = new InProcessBus();
    cleanup.push(() => bus.close());
    const waiting = Array.from({ length: 5_000 }, (_, i) => ({
      userId: `u${i}`,
      name: `u${i}`,
      gatewayId: 'gA',
      at: i,
    }));
    const readAt: number[] = [];
    let release: () => void = () => {};
    const h = {
      bus,
      cfg: { queueStaleMs: 60_000, queueBotFillMs: 0, queueGatewayHoldMs: 0 },
      clock,
      match: {
        waiting: async () => {
          readAt.push(clock.now());
          // The first round is still reading when the next change comes.
          if (readAt.length === 1) await new Promise<void>((r) => (release = r));
          return waiting;
        },
      },
    } as unknown as QueueBase;
    const watch = new QueueWatch(h, async () => 'started');
    cleanup.push(() => watch.close());
    const q = { game: 'race', mode: 'classic', players: 6_000 };
    const first = watch.changed(q);
    const second = watch.changed(q);
    release();
    await advanceUntil(clock, () => readAt.length === 2, 20_000, 'the second round');
    await Promise.all([first, second]);
    expect(readAt[1] - readAt[0]).toBe(statusGapMs(5_000));
  });
});
