/**
 * Quick-match budgets (issue 36): one address with many guests opened 663
 * live tables in 67 s. Here one address gets at most QUEUE_TABLES_PER_ADDRESS
 * tables a minute (checked when it asks, charged when a table forms), its
 * requests are rated together, one user waits in one queue only, and two
 * replicas on one Redis share the counts. The minute is moved with a fake
 * Date (rate-limiter-flexible's memory windows read Date.now); the queue's own
 * times run on the bus FakeClock.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { InProcessBus } from '@joke/bus';
import { connectRedis, MemoryMatchStore, MemorySnapshotStore } from '@joke/stores';
import { FakeClock } from '@joke/bus/clock';
import { REFUSALS, subjects, wireText } from '@joke/protocol';
import { startRoomWorker } from '@joke/room-worker';
import { startMatchmaker } from '../src/index.ts';
import { createQueueBudgets } from '../src/budgets.ts';
import { advanceUntil, cleanupAfterEach, games, log, until } from './helpers.ts';

const cleanup = cleanupAfterEach();
afterEach(() => {
  vi.useRealTimers();
});

const ADDR = '203.0.113.7';

async function cluster(mmCfg: Record<string, number>) {
  // Only Date is faked, and it keeps moving (`until` bounds its waits with it); setSystemTime jumps it.
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  const clock = new FakeClock();
  const bus = new InProcessBus();
  const now = () => clock.now();
  const snapshots = new MemorySnapshotStore(now);
  const worker = await startRoomWorker(
    { workerId: 'w0', heartbeatMs: 50, botDelayMs: 0, botJitterMs: 0 },
    { bus, store: snapshots, games, log, clock },
  );
  const mm = await startMatchmaker(
    {
      matchmakerId: 'mm-budget',
      deadAfterMs: 2000,
      deadCheckMs: 20,
      queueBotFillMs: 0,
      queueGatewayHoldMs: 0,
      ...mmCfg,
    },
    { bus, snapshots, match: new MemoryMatchStore(now), games, log, clock },
  );
  cleanup.push(async () => {
    await mm.close();
    await worker.close();
    await bus.close();
  });
  await advanceUntil(clock, () => mm.liveWorkers().length === 1, 5_000, 'heartbeats');
  const heard: any[] = [];
  for (const gw of ['gA', 'gB']) {
    bus.subscribe(subjects.gatewayMatched(gw), (m) => heard.push({ t: 'matched', ...JSON.parse(wireText(m.data)) }));
    bus.subscribe(subjects.gatewayQueueStatus(gw), (m) => heard.push({ t: 'status', ...JSON.parse(wireText(m.data)) }));
  }
  const queue = (userId: string, addr: string | undefined, extra: Record<string, unknown> = {}) =>
    bus
      .request(
        subjects.queue,
        JSON.stringify({
          v: 1,
          userId,
          name: userId,
          gatewayId: 'gA',
          game: 'race',
          mode: 'classic',
          players: 2,
          requestId: randomBytes(6).toString('hex'),
          ...(addr === undefined ? {} : { addr }),
          ...extra,
        }),
        5000,
      )
      .then((r) => JSON.parse(wireText(r)));
  const matched = () => heard.filter((h) => h.t === 'matched');
  const tables = () => new Set(matched().map((m) => m.roomId)).size;
  return { mm, worker, heard, queue, matched, tables };
}

describe('tables per address', () => {
  it('one address with many guests opens at most N tables a minute; other addresses are not held back; the next minute opens again', async () => {
    const c = await cluster({ queueTablesPerAddress: 5, queueRatePerAddress: 0, queueRatePerUser: 0 });
    const refused: any[] = [];
    let tables = 0;
    // 40 guests of one address, two by two: every pair is a table until the address has started 5.
    // Each pair waits for its table, so the next request finds the budget as that table left it.
    for (let i = 0; i < 40; i += 2) {
      const first = await c.queue(`g${i}`, ADDR);
      const second = await c.queue(`g${i + 1}`, ADDR);
      for (const r of [first, second]) if (!r.ok) refused.push(r);
      if (!second.ok) continue;
      const want = ++tables;
      await until(() => c.tables() === want, 20_000, `table ${want}`);
    }
    expect(c.tables()).toBe(5);
    expect(refused).toHaveLength(30);
    expect(refused[0]).toEqual({ ok: false, code: 'addressTables', reason: REFUSALS.addressTables });
    for (const m of c.matched()) expect(c.worker.room(m.roomId)).toBeDefined();
    // Another address is not held back by the first one's budget.
    expect(await c.queue('o1', '198.51.100.1')).toEqual({ ok: true });
    expect(await c.queue('o2', '198.51.100.2')).toEqual({ ok: true });
    await until(() => c.tables() === 6, 20_000, 'the other addresses’ table');
    expect(await c.queue('late', ADDR)).toMatchObject({ code: 'addressTables' });
    // A new window: the address may start tables again.
    vi.setSystemTime(Date.now() + 61_000);
    expect(await c.queue('late', ADDR)).toEqual({ ok: true });
    expect(await c.queue('later', ADDR)).toEqual({ ok: true });
    await until(() => c.tables() === 7, 20_000, 'a table in the next minute');
    const metrics = await c.mm.registry.metrics();
    expect(metrics).toContain('joke_matchmaker_queue_refused_total{code="addressTables"} 31');
  });

  it('a table that forms after the address spent its budget seats nobody of it: they are told, the others wait on', async () => {
    const c = await cluster({ queueTablesPerAddress: 1, queueRatePerAddress: 0, queueRatePerUser: 0 });
    // a2 waits in the 3-player queue while the address still has its one table.
    expect(await c.queue('a2', ADDR, { players: 3 })).toEqual({ ok: true });
    expect(await c.queue('a1', ADDR)).toEqual({ ok: true });
    expect(await c.queue('b1', '198.51.100.9')).toEqual({ ok: true });
    await until(() => c.tables() === 1, 20_000, 'the address’s one table');
    // Now a 3-player table forms around a2: the address has nothing left, so a2 is turned away.
    expect(await c.queue('b2', '198.51.100.10', { players: 3 })).toEqual({ ok: true });
    expect(await c.queue('b3', '198.51.100.11', { players: 3 })).toEqual({ ok: true });
    await until(() => c.heard.some((h) => h.t === 'status' && h.userId === 'a2' && h.refused), 20_000, 'a2 told');
    const told = c.heard.find((h) => h.t === 'status' && h.userId === 'a2' && h.refused);
    expect(told.refused).toEqual({ ok: false, code: 'addressTables', reason: REFUSALS.addressTables });
    expect(c.tables()).toBe(1);
    expect(c.matched().map((m) => m.userId)).not.toContain('a2');
    // b2 and b3 went back to their places: one more player seats them.
    expect(await c.queue('b4', '198.51.100.12', { players: 3 })).toEqual({ ok: true });
    await until(() => c.tables() === 2, 20_000, 'b2, b3 and b4 seated');
    const last = c.matched().filter((m) => m.userId.startsWith('b') && m.userId !== 'b1');
    expect(last.map((m) => m.userId).sort()).toEqual(['b2', 'b3', 'b4']);
  });

  it('rates requests per address across all its users; a cancel is never refused', async () => {
    const c = await cluster({ queueTablesPerAddress: 0, queueRatePerAddress: 4, queueRatePerUser: 0 });
    for (let i = 0; i < 4; i++) expect(await c.queue(`r${i}`, ADDR, { players: 6 })).toEqual({ ok: true });
    expect(await c.queue('r4', ADDR, { players: 6 })).toEqual({
      ok: false,
      code: 'addressQueueRate',
      reason: REFUSALS.addressQueueRate,
    });
    expect(await c.queue('r0', ADDR, { players: 6, cancel: true })).toEqual({ ok: true });
    expect(await c.queue('elsewhere', '198.51.100.3', { players: 6 })).toEqual({ ok: true });
  });
});

describe('one queue entry per user', () => {
  it('a user who asks again (another socket, another gateway, another queue) still waits once and is never seated twice', async () => {
    const c = await cluster({ queueTablesPerAddress: 0, queueRatePerAddress: 0, queueRatePerUser: 0 });
    expect(await c.queue('twice', ADDR)).toEqual({ ok: true });
    expect(await c.queue('twice', ADDR, { gatewayId: 'gB' })).toEqual({ ok: true });
    // Two requests of one user in a 2-player queue are not a table of two.
    await until(() => c.heard.some((h) => h.t === 'status' && h.userId === 'twice' && h.waiting === 1));
    expect(c.matched()).toEqual([]);
    // Moving to another queue leaves the first: a newcomer there waits alone.
    expect(await c.queue('twice', ADDR, { players: 3 })).toEqual({ ok: true });
    expect(await c.queue('other', '198.51.100.4')).toEqual({ ok: true });
    await until(() => c.heard.some((h) => h.t === 'status' && h.userId === 'other' && h.waiting === 1));
    expect(c.matched()).toEqual([]);
    expect(await c.queue('third', '198.51.100.5', { players: 3 })).toEqual({ ok: true });
    expect(await c.queue('fourth', '198.51.100.6', { players: 3 })).toEqual({ ok: true });
    await until(() => c.tables() === 1, 20_000, 'the 3-player table');
    expect(
      c
        .matched()
        .map((m) => m.userId)
        .sort(),
    ).toEqual(['fourth', 'third', 'twice']);
  });
});

describe('budgets shared by replicas on one Redis', () => {
  it('counts one address across two matchmaker replicas, and a refused table takes nothing from anyone', async () => {
    const redisA = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const redisB = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    const namespace = `mmb${randomBytes(4).toString('hex')}`;
    cleanup.push(async () => {
      for (const key of await redisA.keys(`${namespace}:*`)) await redisA.del(key);
      await redisA.close();
      await redisB.close();
    });
    const cfg = { queueRatePerUser: 0, queueRatePerAddress: 3, queueTablesPerAddress: 2, namespace };
    const a = createQueueBudgets(cfg, redisA);
    const b = createQueueBudgets(cfg, redisB);
    expect(a.kind).toBe('redis');
    expect(await a.admit('u1', ADDR)).toBeNull();
    expect(await b.admit('u2', ADDR)).toBeNull();
    expect(await a.admit('u3', ADDR)).toBeNull();
    expect(await b.admit('u4', ADDR)).toBe('addressQueueRate');
    expect(await a.chargeTable([ADDR, 'x'])).toEqual({ ok: true });
    expect(await b.chargeTable([ADDR])).toEqual({ ok: true });
    // ADDR is spent: the table is refused whole, and 'y' keeps its two tables.
    expect(await a.chargeTable(['y', ADDR])).toEqual({ ok: false, spent: [ADDR] });
    expect(await b.chargeTable(['y'])).toEqual({ ok: true });
    expect(await a.chargeTable(['y'])).toEqual({ ok: true });
    expect(await b.chargeTable(['y'])).toEqual({ ok: false, spent: ['y'] });
    // A table that could not be placed gives its charge back.
    await a.refund(['y']);
    expect(await b.chargeTable(['y'])).toEqual({ ok: true });
  });
});
