/**
 * Issue 37, on fake time (request timeouts, back-offs and the retry deadline all on one FakeClock): when the
 * fleet is overloaded the gateway refuses a join or a quick match with a machine code clients treat as "try
 * later" — `capacity` for a join (the client joins again), `queueRejected` with refusal `capacity` for a
 * quick match — counted in joke_gateway_admission_refused_total, never `unavailable`. Joins spend a retry
 * budget of their own: a storm of them at a stalled worker leaves the retries of a playing table's command
 * untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { InProcessBus, type BusMessage } from '@joke/bus';
import { advanceUntil, FakeClock } from '@joke/bus/clock';
import { contract, subjects } from '@joke/protocol';
import { DEV_JWT_SECRET, signPlayerToken } from '@joke/protocol/auth';
import { startGateway, type Gateway, type GatewayConfigInput } from '../src/index.ts';
import { shedReason } from '../src/requests.ts';
import { TestClient } from '@joke/session/test-client';
import { until } from './wait.ts';

/** Real-time waits for socket I/O: generous, a loaded box is slow, never wrong. */
const IO_MS = 30_000;

interface Stack {
  bus: InProcessBus;
  clock: FakeClock;
  gw: Gateway;
  url: string;
}

async function stack(cfg: Partial<GatewayConfigInput>): Promise<Stack> {
  const clock = new FakeClock();
  const bus = new InProcessBus({ clock });
  const gw = await startGateway(
    { gatewayId: 'gw-adm', port: 0, jwtSecret: DEV_JWT_SECRET, commandTimeoutMs: 2_000, retryBudgetMs: 10_000, ...cfg },
    { bus, logger: pino({ level: 'silent' }), clock },
  );
  return { bus, clock, gw, url: `ws://127.0.0.1:${gw.port}/ws` };
}

async function client(s: Stack, userId: string): Promise<TestClient> {
  const c = await TestClient.open(s.url);
  expect((await c.hello(await signPlayerToken(DEV_JWT_SECRET, { sub: userId, name: userId }))).t).toBe('welcome');
  return c;
}

/** A worker that holds `roomId` and takes every request on `subject` without answering it (a stalled loop). */
function stalled(bus: InProcessBus, subject: string) {
  const got: BusMessage[] = [];
  const sub = bus.subscribe(subject, (m) => void got.push(m));
  return { got, close: () => sub.unsubscribe() };
}

async function counter(gw: Gateway, metric: 'admissionRefused' | 'retriesRefused', labels: Record<string, string>) {
  const values = (await gw.metrics[metric].get()).values;
  return values
    .filter((x) => Object.entries(labels).every(([k, val]) => (x.labels as Record<string, unknown>)[k] === val))
    .reduce((a, x) => a + x.value, 0);
}

const view = (roomId: string, seq: number, viewer: string) =>
  JSON.stringify({ v: 1, t: 'view', roomId, seq, role: 'player', view: { viewer }, events: [], presence: [] });

describe('a join at a worker too slow to answer', () => {
  let s: Stack;
  beforeAll(async () => {
    // A budget that does not bind: only the join's own time (GATEWAY_RETRY_BUDGET_MS) ends it.
    s = await stack({ retryFloor: 1_000 });
  });
  afterAll(async () => {
    await s?.gw.close();
    await s?.bus.close();
  });

  it('is retried until its time runs out, then refused `capacity` (counted), not `unavailable`', async () => {
    const worker = stalled(s.bus, subjects.roomJoin('slow1'));
    const c = await client(s, 'sue');
    c.send({ v: 1, t: 'join', roomId: 'slow1' });
    await until(() => worker.got.length === 1, IO_MS, 'the join at the worker');
    const t0 = s.clock.now();
    await advanceUntil(
      s.clock,
      async () => (await counter(s.gw, 'admissionRefused', { op: 'join', why: 'deadline' })) === 1,
      20_000,
      'the join refused',
      100,
    );
    const refusal = await c.next((m) => m.t === 'error' && m.roomId === 'slow1', IO_MS);
    expect(refusal).toMatchObject({ code: 'capacity', roomId: 'slow1' });
    expect(refusal.actionId).toBeUndefined();
    // Retried meanwhile (each attempt waited GATEWAY_COMMAND_TIMEOUT_MS), and given up once its time ran out
    // (the last attempt, started before then, waits its own timeout out).
    expect(worker.got.length).toBeGreaterThanOrEqual(3);
    expect(s.clock.now() - t0).toBeGreaterThanOrEqual(8_000);
    expect(s.clock.now() - t0).toBeLessThanOrEqual(10_000 + 2_000 + 100);
    expect(c.messages.some((m) => m.t === 'error' && m.code === 'unavailable')).toBe(false);
    worker.close();
    await c.close();
  });

  it('a join the room’s queue refused `busy` is refused `capacity` too', async () => {
    const sub = s.bus.subscribe(subjects.roomJoin('full1'), (m) =>
      m.respond!(JSON.stringify({ ok: false, code: 'busy', reason: '방이 바빠요. 잠시 후 다시 시도해 주세요' })),
    );
    const c = await client(s, 'bo');
    c.send({ v: 1, t: 'join', roomId: 'full1' });
    expect(await c.next((m) => m.t === 'error' && m.roomId === 'full1', IO_MS)).toMatchObject({ code: 'capacity' });
    expect(await counter(s.gw, 'admissionRefused', { op: 'join', why: 'busy' })).toBe(1);
    sub.unsubscribe();
    await c.close();
  });

  it('a quick match the matchmaker is too slow to answer is refused `queueRejected`/`capacity`, and cancelled', async () => {
    const matchmaker = stalled(s.bus, contract.queue.subject);
    const c = await client(s, 'quinn');
    c.send({ v: 1, t: 'queue', game: 'race', mode: 'classic', players: 2 });
    await until(() => matchmaker.got.length === 1, IO_MS, 'the quick match at the matchmaker');
    await advanceUntil(
      s.clock,
      async () => (await counter(s.gw, 'admissionRefused', { op: 'queue' })) === 1,
      20_000,
      'the quick match refused',
      100,
    );
    const refusal = await c.next((m) => m.t === 'error', IO_MS);
    expect(refusal).toMatchObject({ code: 'queueRejected', refusal: 'capacity' });
    expect(refusal.message).toMatch(/가득/);
    // It may still have been queued late: the gateway takes it back.
    await advanceUntil(
      s.clock,
      () => matchmaker.got.some((m) => JSON.parse(Buffer.from(m.data).toString()).cancel === true),
      20_000,
      'the cancel',
      100,
    );
    matchmaker.close();
    await c.close();
  });
});

describe('joins and commands spend retry budgets of their own', () => {
  let s: Stack;
  beforeAll(async () => {
    // One retry each, and first tries earn none: whatever the joins spend, the command's retry is its own.
    s = await stack({ retryRatio: 0, retryFloor: 1, ownerSilentMs: 600_000 });
  });
  afterAll(async () => {
    await s?.gw.close();
    await s?.bus.close();
  });

  it('a storm of joins at a stalled worker is refused `capacity` on the budget; a playing table’s command still retries', async () => {
    // The playing table: its worker answers joins, and swallows the command's first attempt (a slow moment).
    const joins = s.bus.subscribe(subjects.roomJoin('play1'), (m) =>
      m.respond!(JSON.stringify({ ok: true, role: 'player', seq: 0, owner: 'w-a/1', frame: view('play1', 0, 'pia') })),
    );
    const commands = stalled(s.bus, subjects.roomCommand('play1'));
    const pia = await client(s, 'pia');
    pia.send({ v: 1, t: 'join', roomId: 'play1' });
    await pia.next((m) => m.t === 'view' && m.roomId === 'play1', IO_MS);

    // Three joins at tables of a stalled worker: one retry between them, then every one is refused.
    const jams = ['jam1', 'jam2', 'jam3'];
    const stalledJoins = jams.map((r) => stalled(s.bus, subjects.roomJoin(r)));
    const jo = await client(s, 'jo');
    for (const r of jams) jo.send({ v: 1, t: 'join', roomId: r });
    await until(() => stalledJoins.every((w) => w.got.length === 1), IO_MS, 'the joins at the worker');
    await advanceUntil(
      s.clock,
      async () => (await counter(s.gw, 'admissionRefused', { op: 'join', why: 'budget' })) === jams.length,
      20_000,
      'every join refused on the budget',
      100,
    );
    for (const r of jams)
      expect(await jo.next((m) => m.t === 'error' && m.roomId === r, IO_MS)).toMatchObject({ code: 'capacity' });
    // One retry went (the floor), and no more: the budget bound the storm.
    expect(stalledJoins.reduce((a, w) => a + w.got.length, 0)).toBe(jams.length + 1);
    expect(await counter(s.gw, 'retriesRefused', { op: 'join' })).toBe(jams.length);

    // The command's first attempt times out; its retry comes from the commands' budget, which the joins
    // could not touch, and is answered.
    pia.send({ v: 1, t: 'action', roomId: 'play1', actionId: 'p-1', action: { type: 'draw' } });
    await until(() => commands.got.length === 1, IO_MS, 'the command at the worker');
    await advanceUntil(s.clock, () => commands.got.length === 2, 5_000, 'the command retried', 100);
    expect(Buffer.from(commands.got[1].data).equals(Buffer.from(commands.got[0].data))).toBe(true);
    commands.got[1].respond!(JSON.stringify({ ok: true, seq: 1 }));
    expect(await pia.next((m) => m.t === 'ack' && m.actionId === 'p-1', IO_MS)).toMatchObject({ seq: 1 });
    expect(pia.messages.some((m) => m.t === 'error')).toBe(false);
    expect(await counter(s.gw, 'retriesRefused', { op: 'command' })).toBe(0);

    joins.unsubscribe();
    commands.close();
    for (const w of stalledJoins) w.close();
    await pia.close();
    await jo.close();
  });
});

describe('quick match while the playing tables wait on their moves (GATEWAY_ADMIT_MAX_COMMAND_MS)', () => {
  let s: Stack;
  beforeAll(async () => {
    // 1 ms: every move the worker below answers (a few real ms later) is late.
    s = await stack({ admitMaxCommandMs: 1 });
  });
  afterAll(async () => {
    await s?.gw.close();
    await s?.bus.close();
  });

  it('is refused `queueRejected`/`capacity` at once, without asking the matchmaker, once a window of moves came back late', async () => {
    const rooms = ['late1', 'late2', 'late3', 'late4', 'late5'];
    const subs = rooms.flatMap((r) => [
      s.bus.subscribe(subjects.roomJoin(r), (m) =>
        m.respond!(JSON.stringify({ ok: true, role: 'player', seq: 0, owner: 'w-a/1', frame: view(r, 0, r) })),
      ),
      // Real time, not the fake clock: the round trip is measured as the box lives it.
      s.bus.subscribe(
        subjects.roomCommand(r),
        (m) => void setTimeout(() => m.respond!(JSON.stringify({ ok: true, seq: 1 })), 5),
      ),
    ]);
    const asked: string[] = [];
    const matchmaker = s.bus.subscribe(contract.queue.subject, (m) => {
      const q = JSON.parse(Buffer.from(m.data).toString());
      if (!q.cancel) asked.push(q.userId);
      m.respond!(JSON.stringify({ ok: true }));
    });
    const players = await Promise.all(rooms.map((r) => client(s, r)));
    for (const [i, p] of players.entries()) {
      p.send({ v: 1, t: 'join', roomId: rooms[i] });
      await p.next((m) => m.t === 'view' && m.roomId === rooms[i], IO_MS);
    }
    const newcomer = await client(s, 'nina');
    let refused: any = null;
    // Moves keep coming (five a player, acked each), and the newcomer asks for a table after each round,
    // until a window of late moves has closed.
    for (let round = 0; refused === null && round < 200; round++) {
      for (const [i, p] of players.entries()) {
        const actionId = `m${round}-${i}`;
        p.send({ v: 1, t: 'action', roomId: rooms[i], actionId, action: { type: 'draw' } });
        await p.next((m) => m.t === 'ack' && m.actionId === actionId, IO_MS);
      }
      // The sockets' rate buckets refill on the gateway's (fake) clock: a player's pace, not a flood.
      await s.clock.advance(100);
      if (round < 4) continue;
      const from = newcomer.messages.length;
      newcomer.send({ v: 1, t: 'queue', game: 'race', mode: 'classic', players: 2 });
      const answer = await newcomer.next((m) => m.t === 'queued' || m.t === 'error', IO_MS, from);
      if (answer.t === 'error') refused = answer;
      else newcomer.send({ v: 1, t: 'unqueue' });
    }
    expect(refused).toMatchObject({ code: 'queueRejected', refusal: 'capacity' });
    expect(await counter(s.gw, 'admissionRefused', { op: 'queue', why: 'commandsLate' })).toBeGreaterThanOrEqual(1);
    // The refused request never reached the matchmaker: each one it heard was answered `queued`.
    const queuedAnswers = newcomer.messages.filter((m) => m.t === 'queued').length;
    expect(asked.filter((u) => u === 'nina')).toHaveLength(queuedAnswers);
    for (const sub of subs) sub.unsubscribe();
    matchmaker.unsubscribe();
    for (const p of players) await p.close();
    await newcomer.close();
  });
});

describe('shedReason: which unanswered or refused requests are shed load', () => {
  it('a worker refusal for load, or a last attempt that timed out at a slow worker; not a dead or missing one', () => {
    expect(shedReason({ ok: false, code: 'capacity' }, {})).toBe('capacity');
    expect(shedReason({ ok: false, code: 'busy' }, {})).toBe('busy');
    expect(shedReason({ ok: false, code: 'notHere' }, {})).toBeNull();
    expect(shedReason({ ok: true }, {})).toBeNull();
    expect(shedReason(null, { gaveUp: 'budget', slow: true })).toBe('budget');
    expect(shedReason(null, { gaveUp: 'deadline', slow: true })).toBe('deadline');
    // Its worker died (the attempt abandoned on its silence) or nobody serves the room: not load.
    expect(shedReason(null, { gaveUp: 'deadline', slow: false })).toBeNull();
    // The socket went, or the gateway is closing.
    expect(shedReason(null, { gaveUp: 'unwanted', slow: true })).toBeNull();
    expect(shedReason(null, { gaveUp: 'closing', slow: true })).toBeNull();
  });
});
