/**
 * Quick-match as the waiting player sees it: queue-size announcements to each
 * waiting user's gateway, and bots taking the empty seats after the wait
 * (real room worker, in-process bus, memory stores).
 */
import { describe, expect, it } from 'vitest';
import { InProcessBus, MemoryMatchStore, MemorySnapshotStore } from '@joke/bus';
import { systemClock } from '@joke/bus/clock';
import { subjects, wireText } from '@joke/protocol';
import { startRoomWorker } from '@joke/room-worker';
import { startMatchmaker } from '../src/index.ts';
import { QueueWatch } from '../src/queue-watch.ts';
import type { QueueBase } from '../src/queues.ts';
import { cleanupAfterEach, games, log, until } from './helpers.ts';

const cleanup = cleanupAfterEach();

async function cluster(queueBotFillMs: number) {
  const bus = new InProcessBus();
  const snapshots = new MemorySnapshotStore();
  const match = new MemoryMatchStore();
  const worker = await startRoomWorker(
    { workerId: 'w0', heartbeatMs: 50, botDelayMs: 0, botJitterMs: 0 },
    { bus, store: snapshots, games, log },
  );
  const mm = await startMatchmaker(
    { matchmakerId: 'mm1', deadAfterMs: 2000, deadCheckMs: 20, queueBotFillMs },
    { bus, snapshots, match, games, log },
  );
  cleanup.push(async () => {
    await mm.close();
    await worker.close();
    await bus.close();
  });
  await until(() => mm.liveWorkers().length === 1, 20_000, 'heartbeats');
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
  return { worker, heard, queue };
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

describe('bots after the wait', () => {
  it('seats the waiting humans who accept bots with bots in the empty seats; the others keep waiting', async () => {
    const c = await cluster(300);
    expect(await c.queue('u1', 'gA')).toEqual({ ok: true });
    expect(await c.queue('u2', 'gB', { bots: false })).toEqual({ ok: true });
    await until(() => statusOf(c.heard, 'u2')?.waiting === 2, 20_000, 'both waiting');
    const first = statusOf(c.heard, 'u1');
    expect(typeof first.botsAt).toBe('number');
    expect(statusOf(c.heard, 'u2').botsAt).toBeNull();
    await until(() => c.heard.some((h) => h.t === 'matched'), 20_000, 'bot-filled table');
    const matched = c.heard.filter((h) => h.t === 'matched');
    expect(matched.map((m) => m.userId)).toEqual(['u1']);
    // Not before its time: the table formed no earlier than the announced moment.
    expect(Date.now()).toBeGreaterThanOrEqual(first.botsAt);
    const seats = c.worker.room(matched[0].roomId)?.data.seats ?? [];
    expect(seats.map((s) => s.id)).toEqual(['u1', `${matched[0].roomId}-bot1`, `${matched[0].roomId}-bot2`]);
    expect(seats.map((s) => s.bot)).toEqual([false, true, true]);
    await until(() => statusOf(c.heard, 'u2')?.waiting === 1, 20_000, 'u2 told it waits alone');
  });

  it('never fills when the wait is 0 (off)', async () => {
    const c = await cluster(0);
    expect(await c.queue('u1', 'gA')).toEqual({ ok: true });
    await until(() => statusOf(c.heard, 'u1')?.waiting === 1);
    expect(statusOf(c.heard, 'u1').botsAt).toBeNull();
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
    const watch = new QueueWatch(h, async () => true);
    const q = { game: 'race', mode: 'classic', players: 3 };
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
