/**
 * How many live tables one room worker process carries, on the real NATS and
 * Redis, with every action snapshotted before its ack and every view routed
 * through a gateway subject.
 *
 *   npm run bench -w services/room-worker -- --tables 1000,2000,4000 --seconds 20
 *
 * The worker runs as its own process (as in production). This process plays
 * the gateway and the players: 4 human seats per one-card table, all four
 * joined as viewers, one action per table every --interval ms (default 2000,
 * the target's pace), chosen with the engine bot on the acting player's own
 * view. Finished tables are replaced so the count stays constant. Per step it
 * prints actions/s, command→ack and command→view latencies (p50/p99), and the
 * CPU of the worker, nats-server, redis-server and this driver. With --gc the
 * worker runs under `--trace-gc-nvp` and each step also prints the bytes its
 * scavenges promoted to the old generation per action and its mark-compacts:
 * what a room keeps from one action to its next (≈ 2 s, longer than two
 * scavenges) is promoted and dies old, and the old generation's marking is
 * what stalled the workers at 5,000 tables (docs/measurements/boxes.md).
 * Figures, not assertions: the box is shared, so compare rows of one run.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { NatsBus } from '@joke/bus';
import { games, Rng } from '@joke/engine';
import { call, contract, emit, FixedViewMembers, listen, wireText } from '@joke/protocol';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
};
const STEPS = arg('tables', '500,1000,2000').split(',').map(Number);
const SECONDS = Number(arg('seconds', '20'));
const WARMUP = Number(arg('warmup', '5'));
const INTERVAL = Number(arg('interval', '2000'));
/** Directory for a V8 CPU profile of the worker (written when it exits after the last step). */
const PROFILE = arg('profile', '');
const GC = process.argv.includes('--gc');
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const ns = `bench${randomBytes(4).toString('hex')}`;
const GW = 'bench-gw';
const game = games['one-card'];
const root = fileURLToPath(new URL('../../..', import.meta.url));

// ---- CPU accounting from /proc ----------------------------------------------------------------
const TICK = 100; // USER_HZ on Linux
const cpuTicks = (pid: number): number => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
};
const pidOf = (name: string): number | null => {
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      if (readFileSync(`/proc/${d}/comm`, 'utf8').trim() === name) return Number(d);
    } catch {
      /* gone */
    }
  }
  return null;
};

// ---- the worker process -----------------------------------------------------------------------
const profileArgs = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', PROFILE] : [];
if (GC) profileArgs.push('--trace-gc-nvp');
const worker = spawn(process.execPath, [...profileArgs, '--import', 'tsx', 'services/room-worker/src/main.ts'], {
  cwd: root,
  env: {
    ...process.env,
    NATS_URL,
    REDIS_URL,
    JOKE_NAMESPACE: ns,
    WORKER_ID: 'bench-w',
    OPS_PORT: '0',
    LOG_LEVEL: 'warn',
    JOKE_READY_LINE: '1',
    MAX_ROOMS: '1000000',
    FINISHED_LINGER_MS: '1000',
    // No other worker to hand rooms to: on SIGTERM (profiling) release them and exit at once.
    DRAIN_TIMEOUT_MS: '0',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
// Never leave the worker behind, whatever happens to this process.
process.on('exit', () => worker.kill('SIGKILL'));
/**
 * From the worker's `--trace-gc-nvp` lines (--gc): bytes promoted by scavenges, mark-compacts, and the
 * heap the last mark-compact left (its size after less its holes: what was live, fixed part included).
 * tsx's loader thread is an isolate of its own with its own lines (`[pid:isolate]`); the main one is
 * the isolate with the larger heap.
 */
const gc = { promoted: 0, markCompacts: 0 };
const liveAfter = new Map<string, number>();
const mainLiveAfter = (): number => Math.max(0, ...liveAfter.values());
let gcLine = '';
const readGc = (text: string): void => {
  const lines = (gcLine + text).split('\n');
  gcLine = lines.pop()!;
  for (const line of lines) {
    const promoted = /\bpromoted=(\d+)/.exec(line);
    if (promoted && / gc=s /.test(line)) gc.promoted += Number(promoted[1]);
    if (!/ gc=mc /.test(line)) continue;
    gc.markCompacts++;
    const isolate = /^\[[^\]]*\]/.exec(line)?.[0] ?? '';
    const after = /\btotal_size_after=(\d+)/.exec(line);
    const holes = /\bholes_size_after=(\d+)/.exec(line);
    if (after && holes) liveAfter.set(isolate, Number(after[1]) - Number(holes[1]));
  }
};
await new Promise<void>((resolve, reject) => {
  worker.stdout!.on('data', (b: Buffer) => {
    const text = b.toString();
    if (GC) readGc(text);
    if (text.includes('READY')) resolve();
  });
  worker.once('exit', (c) => reject(new Error(`worker exited ${c}`)));
});
const bus = await NatsBus.connect(NATS_URL, { prefix: ns });
let loopLag = 0;
listen(bus, contract.workerHeartbeat, (hb) => (loopLag = hb.loopLagMs));
const gwBeat = setInterval(
  () => emit(bus, contract.gatewayHeartbeat, { v: 1, gatewayId: GW, sockets: 0, at: Date.now() }),
  1000,
);

// ---- tables -----------------------------------------------------------------------------------
interface Table {
  id: string;
  frames: Map<string, string>;
  seq: number;
  pending: { sentAt: number; afterSeq: number; acked: boolean } | null;
  finished: boolean;
  timer: NodeJS.Timeout | null;
}
const tables = new Map<string, Table>();
const fixedMembers = new FixedViewMembers();
const rng = Rng.fromSeed('bench');
let measuring = false;
const ackLat: number[] = [];
const viewLat: number[] = [];
let actions = 0;
let rejected = 0;
let failures = 0;
let nextId = 0;
const failureKinds = new Map<string, number>();
const fail = (err: unknown): void => {
  failures++;
  const k = String((err as Error)?.message ?? err)
    .replace(/room\.[^.]+\./, 'room.<id>.')
    .slice(0, 80);
  failureKinds.set(k, (failureKinds.get(k) ?? 0) + 1);
};

listen(bus, contract.gatewayDeliver.at(GW), (d) => {
  const t = tables.get(d.roomId);
  if (!t) return;
  for (const f of d.frames) if (f.kind === 'view' && f.viewer !== null) keepFrame(t, f.viewer, wireText(f.bytes));
  t.seq = Math.max(t.seq, d.seq);
  if (t.pending && d.seq > t.pending.afterSeq) {
    if (measuring) viewLat.push(performance.now() - t.pending.sentAt);
    if (t.pending.acked) t.pending = null;
    else t.pending.afterSeq = Number.MAX_SAFE_INTEGER; // view seen; the ack clears it
  }
});

async function createTable(): Promise<void> {
  const id = `b${nextId++}`;
  const players = ['p1', 'p2', 'p3', 'p4'].map((p) => ({ id: p, name: p, bot: false }));
  const r = await call(
    bus,
    contract.workerOpen.at('bench-w'),
    { v: 1, roomId: id, create: { roomId: id, game: 'one-card', options: { mode: 'classic' }, players } },
    10_000,
  );
  if (!r.ok) throw new Error(`open refused: ${JSON.stringify(r)}`);
  const t: Table = { id, frames: new Map(), seq: 0, pending: null, finished: false, timer: null };
  tables.set(id, t);
  for (const p of players) {
    const j = await call(bus, contract.roomJoin.at(id), { v: 1, userId: p.id, spectate: false, gatewayId: GW }, 10_000);
    if (j.ok) keepFrame(t, p.id, j.frame);
  }
  schedule(t, Math.random() * INTERVAL);
}

/**
 * The seat's latest frame, parsed only when the player acts; a frame carrying the game's fixed
 * view members (join replies, protocol `fixed`) is read at once so later frames can be made whole.
 */
function keepFrame(t: Table, userId: string, text: string): void {
  t.frames.set(userId, text);
  if (text.includes(',"fixed":')) fixedMembers.complete(JSON.parse(text));
}

function schedule(t: Table, delay: number): void {
  t.timer = setTimeout(() => void act(t), delay);
}

async function act(t: Table): Promise<void> {
  if (t.finished) return;
  schedule(t, INTERVAL * (0.8 + Math.random() * 0.4));
  if (t.pending) return;
  for (const [userId, text] of t.frames) {
    const frame = JSON.parse(text);
    if (!fixedMembers.complete(frame)) throw new Error(`${t.id}: a view before the game's fixed members`);
    if (frame.result) {
      t.finished = true;
      if (t.timer) clearTimeout(t.timer);
      tables.delete(t.id);
      fixedMembers.forget(t.id);
      void createTable().catch(fail);
      return;
    }
    const action = game.bot(frame.view, rng);
    if (!action) continue;
    const pending = { sentAt: performance.now(), afterSeq: t.seq, acked: false };
    t.pending = pending;
    try {
      const reply = await call(
        bus,
        contract.roomCommand.at(t.id),
        { v: 1, userId, actionId: `a${t.seq}-${userId}`, action, gatewayId: GW, at: Date.now() },
        5000,
      );
      if (measuring) {
        ackLat.push(performance.now() - pending.sentAt);
        actions++;
        if (!reply.ok) rejected++;
      }
      if (!reply.ok || pending.afterSeq === Number.MAX_SAFE_INTEGER) t.pending = null;
      else pending.acked = true;
    } catch (err) {
      fail(err);
      t.pending = null;
    }
    return;
  }
}

const pct = (xs: number[], p: number): string => {
  if (xs.length === 0) return '-';
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)].toFixed(1);
};

async function ramp(n: number): Promise<void> {
  const todo = n - tables.size;
  let i = 0;
  const run = async () => {
    while (i++ < todo) await createTable().catch(fail);
  };
  await Promise.all(Array.from({ length: 32 }, run));
}

const natsPid = pidOf('nats-server');
const redisPid = pidOf('redis-server');
console.log(`capacity bench: one-card classic, 4 seats + 4 viewers per table, 1 action / ${INTERVAL} ms / table`);
console.log(
  'tables | actions/s | ack p50 | ack p99 | view p50 | view p99 | worker CPU | nats CPU | redis CPU | driver CPU | worker µs/action | loop lag p99 | rejected | failures' +
    (GC ? ' | promoted B/action | mark-compacts | live MB after the last' : ''),
);
for (const n of STEPS) {
  await ramp(n);
  await new Promise((r) => setTimeout(r, WARMUP * 1000));
  ackLat.length = 0;
  viewLat.length = 0;
  actions = rejected = failures = 0;
  const c0 = [cpuTicks(worker.pid!), natsPid ? cpuTicks(natsPid) : 0, redisPid ? cpuTicks(redisPid) : 0];
  const d0 = process.cpuUsage();
  const g0 = { ...gc };
  const t0 = performance.now();
  measuring = true;
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  measuring = false;
  const secs = (performance.now() - t0) / 1000;
  const c1 = [cpuTicks(worker.pid!), natsPid ? cpuTicks(natsPid) : 0, redisPid ? cpuTicks(redisPid) : 0];
  const du = process.cpuUsage(d0);
  const cpu = (i: number) => `${(((c1[i] - c0[i]) / TICK / secs) * 100).toFixed(0)}%`;
  // CPU time per action is the figure that survives a shared, oversubscribed box; % does not.
  const perAction = actions > 0 ? `${(((c1[0] - c0[0]) / TICK / actions) * 1e6).toFixed(0)}` : '-';
  const driver = `${(((du.user + du.system) / 1e6 / secs) * 100).toFixed(0)}%`;
  console.log(
    [
      String(n).padStart(6),
      (actions / secs).toFixed(0).padStart(9),
      pct(ackLat, 50).padStart(7),
      pct(ackLat, 99).padStart(7),
      pct(viewLat, 50).padStart(8),
      pct(viewLat, 99).padStart(8),
      cpu(0).padStart(10),
      cpu(1).padStart(8),
      cpu(2).padStart(9),
      driver.padStart(10),
      perAction.padStart(16),
      `${loopLag} ms`.padStart(12),
      String(rejected).padStart(8),
      String(failures).padStart(8),
      ...(GC
        ? [
            (actions > 0 ? ((gc.promoted - g0.promoted) / actions).toFixed(0) : '-').padStart(17),
            String(gc.markCompacts - g0.markCompacts).padStart(13),
            (gc.markCompacts > g0.markCompacts ? (mainLiveAfter() / 1e6).toFixed(1) : '-').padStart(23),
          ]
        : []),
    ].join(' | '),
  );
  if (failureKinds.size) console.log('  failures:', Object.fromEntries(failureKinds));
  failureKinds.clear();
}

clearInterval(gwBeat);
for (const t of tables.values()) if (t.timer) clearTimeout(t.timer);
if (PROFILE) {
  const exited = new Promise((r) => worker.once('exit', r));
  worker.kill('SIGTERM');
  await exited;
  console.log(`worker CPU profile written to ${PROFILE}`);
} else worker.kill('SIGKILL');
await bus.close();
// Leave nothing behind in the shared Redis.
const { connectRedis } = await import('@joke/stores');
const redis = await connectRedis(REDIS_URL);
for await (const keys of redis.scanIterator({ MATCH: `joke:${ns}:*`, COUNT: 1000 }))
  if (keys.length) await redis.del(keys);
await redis.close();
process.exit(0);
