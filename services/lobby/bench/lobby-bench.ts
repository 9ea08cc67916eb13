/**
 * Lobby API throughput on the real PostgreSQL (issue 15, item 7).
 *
 *   node --import tsx services/lobby/bench/lobby-bench.ts --clients 50 --seconds 20 [--pool 10] [--cpu-prof]
 *     [--rate 1000]   (open loop: that many calls/s offered over the --clients guests, see openLoop)
 *     [--lobby-dir <another checkout of services/lobby, to compare>]
 *
 * The lobby runs as its own process (`src/main.ts`, as in production) on a
 * fresh schema of the `test` database. Each of --clients guests signs in, then
 * loops without pause over: create, list, list, join, create, list, list,
 * history (a room every fourth call, lists otherwise, plus join and history),
 * one call in flight per client, over keep-alive HTTP without batching; every
 * --signin-every calls (default 16; 0 = never) a client signs in again with
 * its token (a returning guest), so sign-in is measured too.
 * It prints calls/s, p50/p99 per procedure, and the CPU per call of the lobby
 * process and of the PostgreSQL backends serving its connections, each read
 * from /proc/<pid>/stat (backends found by matching the lobby's TCP ports in
 * pg_stat_activity). Figures, not assertions: the box is shared, so compare
 * runs made back to back. --cpu-prof writes the lobby's profile to bench/profiles/.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { z } from 'zod';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
};
const CLIENTS = Number(arg('clients', '50'));
const SECONDS = Number(arg('seconds', '20'));
const WARMUP_S = Number(arg('warmup', '3'));
const POOL = arg('pool', '');
const PROFILE = process.argv.includes('--cpu-prof');
const STALLS = process.argv.includes('--loop-stalls');
const SIGNIN_EVERY = Number(arg('signin-every', '16'));
const RATE = Number(arg('rate', '0')); // calls/s offered, open loop; 0 = closed loop (one call in flight per client)
const PG_BASE = process.env.LOBBY_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const HZ = 100; // USER_HZ on Linux: /proc/<pid>/stat counts CPU in 1/100 s

// --lobby-dir: another checkout of services/lobby (e.g. the code before a change) to compare with.
const lobbyDir = arg('lobby-dir', fileURLToPath(new URL('..', import.meta.url)));

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** utime + stime of a process, in seconds (0 once it is gone). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / HZ;
  } catch {
    return 0;
  }
}

/** Local TCP ports of `pid`'s sockets connected to port 5432 (its database connections). */
function pgClientPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      // closed meanwhile
    }
  }
  const ports: number[] = [];
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || !inodes.has(f[9])) continue;
      const remotePort = parseInt(f[2].split(':')[1], 16);
      if (remotePort === 5432) ports.push(parseInt(f[1].split(':')[1], 16));
    }
  }
  return ports;
}

async function backendPids(admin: pg.Client, lobbyPid: number): Promise<number[]> {
  const ports = pgClientPorts(lobbyPid);
  if (ports.length === 0) return [];
  const r = await admin.query('SELECT pid FROM pg_stat_activity WHERE client_port = ANY($1::int[])', [ports]);
  return r.rows.map((row) => row.pid as number);
}

// Open loop: enough sockets that calls do not queue in the bench's own agent.
const agent = new Agent({ keepAlive: true, maxSockets: RATE > 0 ? 1024 : CLIENTS + 4 });
let base = '';

/** One tRPC call without batching; resolves with `result.data` or rejects with the error's message. */
function trpc(path: string, input: unknown, token: string | null, query: boolean): Promise<unknown> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const body = query ? undefined : JSON.stringify(input ?? {});
  const url = query
    ? `${base}/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input ?? {}))}`
    : `${base}/trpc/${path}`;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: query ? 'GET' : 'POST', headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (res.statusCode === 200) resolve(parsed.result.data);
          else reject(new Error(`${res.statusCode} ${parsed.error?.message ?? ''}`));
        } catch (e) {
          reject(e as Error);
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

type Proc = 'auth.guest' | 'rooms.create' | 'rooms.list' | 'rooms.join' | 'history.mine';
const PROCS: Proc[] = ['auth.guest', 'rooms.create', 'rooms.list', 'rooms.join', 'history.mine'];
const samples = new Map<Proc, number[]>(PROCS.map((p) => [p, []]));
const errors = new Map<string, number>();
let measuring = false;
let stopping = false;

async function timed<T>(proc: Proc, fn: () => Promise<T>, due?: number): Promise<T | null> {
  const t0 = due ?? performance.now();
  try {
    const r = await fn();
    if (measuring) samples.get(proc)!.push(performance.now() - t0);
    return r;
  } catch (e) {
    if (measuring) {
      const key = `${proc}: ${(e as Error).message.slice(0, 80)}`;
      errors.set(key, (errors.get(key) ?? 0) + 1);
    }
    return null;
  }
}

let openRooms: string[] = [];

/**
 * The reply fields the mix reads, parsed rather than trusted (`--lobby-dir` runs another checkout, whose
 * router types this file cannot name); parsed after `timed`, so the figures stay the lobby's.
 */
const SignedIn = z.object({ token: z.string() });
const RoomRows = z.array(z.object({ roomId: z.string(), openSeats: z.number(), status: z.string() }));

/** One guest's place in the mix: its token and how many calls it has made. */
interface Guest {
  i: number;
  token: string;
  n: number;
}

async function signIn(i: number): Promise<Guest> {
  const me = await timed('auth.guest', () => trpc('auth.guest', { nickname: `벤치${i}` }, null, false));
  if (!me) throw new Error('sign-in failed');
  return { i, token: SignedIn.parse(me).token, n: 0 };
}

const cycle: Proc[] = ['rooms.create', 'rooms.list', 'rooms.list', 'rooms.join'];
const cycle2: Proc[] = ['rooms.create', 'rooms.list', 'rooms.list', 'history.mine'];

/** The guest's next call of the mix (a sign-in again every SIGNIN_EVERY calls); `t0` = when it was due. */
async function step(g: Guest, t0?: number): Promise<void> {
  const n = g.n++;
  const { i } = g;
  if (SIGNIN_EVERY > 0 && n % SIGNIN_EVERY === SIGNIN_EVERY - 1) {
    const again = await timed(
      'auth.guest',
      () => trpc('auth.guest', { nickname: `벤치${i}`, resumeToken: g.token }, null, false),
      t0,
    );
    if (again) g.token = SignedIn.parse(again).token;
    return;
  }
  const proc = (Math.floor(n / 4) % 2 === 0 ? cycle : cycle2)[n % 4];
  const token = g.token;
  if (proc === 'rooms.create')
    await timed(proc, () => trpc(proc, { game: 'one-card', options: { mode: 'classic' } }, token, false), t0);
  else if (proc === 'rooms.list') {
    const rooms = await timed(proc, () => trpc(proc, { limit: 30 }, token, true), t0);
    if (rooms)
      openRooms = RoomRows.parse(rooms)
        .filter((r) => r.openSeats > 0 && r.status === 'waiting')
        .map((r) => r.roomId);
  } else if (proc === 'rooms.join') {
    const roomId = openRooms[(n * 7 + i) % Math.max(1, openRooms.length)];
    if (roomId) await timed(proc, () => trpc(proc, { roomId }, token, false), t0);
  } else await timed(proc, () => trpc(proc, { limit: 20 }, token, true), t0);
}

/** Closed loop: one call in flight per client, the next sent when the last one is answered. */
async function client(i: number): Promise<void> {
  const g = await signIn(i);
  while (!stopping) await step(g);
}

/**
 * Open loop (--rate): calls are due at RATE per second whatever the answers, taken in turn from
 * the guests' mixes; a call's latency counts from when it was due, so a lobby that falls behind
 * shows its queue in the percentiles instead of slowing the offered load down.
 */
async function openLoop(guests: Guest[]): Promise<void> {
  const start = performance.now();
  let sent = 0;
  const inFlight = new Set<Promise<void>>();
  while (!stopping) {
    const due = Math.floor(((performance.now() - start) / 1000) * RATE);
    for (; sent < due; sent++) {
      const p = step(guests[sent % guests.length], start + (sent / RATE) * 1000);
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    }
    await new Promise((r) => setTimeout(r, 1));
  }
  await Promise.allSettled([...inFlight]);
}

const pct = (xs: number[], p: number): number => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function main(): Promise<void> {
  const schema = `bench_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: `${PG_BASE}?schema=${schema}`,
    PORT: String(port),
    HOST: '127.0.0.1',
    NATS_URL: '',
    REDIS_URL: '',
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
    LOBBY_RATE_GUEST_PER_IP: '0',
    LOBBY_RATE_GUEST_PER_USER: '0',
    LOBBY_RATE_CREATE_PER_IP: '0',
    LOBBY_RATE_CREATE_PER_USER: '0',
    LOBBY_RATE_JOIN_PER_IP: '0',
    LOBBY_RATE_JOIN_PER_USER: '0',
    LOBBY_MAX_ROOMS_PER_USER: '1000',
    ...(POOL ? { LOBBY_DB_POOL: POOL } : {}),
  };
  const nodeArgs = [
    '--import',
    'tsx',
    ...(PROFILE ? ['--cpu-prof', '--cpu-prof-dir', 'bench/profiles'] : []),
    ...(STALLS ? ['--import', fileURLToPath(new URL('./loop-stalls.ts', import.meta.url))] : []),
  ];
  const lobby = spawn(process.execPath, [...nodeArgs, 'src/main.ts'], { cwd: lobbyDir, env, stdio: 'inherit' });
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  try {
    for (let t = Date.now(); ;) {
      const up = await fetch(`${base}/readyz`)
        .then((r) => r.ok)
        .catch(() => false);
      if (up) break;
      if (Date.now() - t > 60_000) throw new Error('lobby did not start');
      await new Promise((r) => setTimeout(r, 200));
    }
    const loops =
      RATE > 0
        ? [Promise.all(Array.from({ length: CLIENTS }, (_, i) => signIn(i))).then(openLoop)]
        : Array.from({ length: CLIENTS }, (_, i) => client(i));
    await new Promise((r) => setTimeout(r, WARMUP_S * 1000));
    const pgPids = await backendPids(admin, lobby.pid!);
    const pg0 = pgPids.map(cpuSeconds);
    const lobby0 = cpuSeconds(lobby.pid!);
    const self0 = process.cpuUsage();
    if (STALLS) lobby.kill('SIGUSR2');
    measuring = true;
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    measuring = false;
    const secs = (performance.now() - t0) / 1000;
    const lobbyCpu = cpuSeconds(lobby.pid!) - lobby0;
    // Connections the pool opened during the run count whole (from their start); closed ones are lost.
    const pgEnd = await backendPids(admin, lobby.pid!);
    const pgGone = pgPids.filter((p) => !pgEnd.includes(p)).length;
    const pgCpu = pgEnd.reduce((s, p) => {
      const k = pgPids.indexOf(p);
      return s + cpuSeconds(p) - (k >= 0 ? pg0[k] : 0);
    }, 0);
    const self = process.cpuUsage(self0);
    stopping = true;
    await Promise.allSettled(loops);
    const rooms = await admin.query(`SELECT count(*)::int AS n FROM "${schema}".rooms`);

    const calls = PROCS.reduce((s, p) => s + samples.get(p)!.length, 0);
    const ms = (us: number) => `${(us * 1000).toFixed(2)} ms`;
    console.log(
      `\nlobby bench: ${RATE > 0 ? `open loop at ${RATE} calls/s over ${CLIENTS} guests` : `${CLIENTS} clients`}, ${secs.toFixed(1)} s, pool ${POOL || 'default'}, sign-in every ${SIGNIN_EVERY || 'never'}, ` +
        `${rooms.rows[0].n} rooms at the end, load average ${loadavg()
          .map((l) => l.toFixed(1))
          .join(' ')}`,
    );
    if (RATE > 0) console.log(`offered ${RATE} calls/s, answered within the window:`);
    console.log(
      `calls/s ${(calls / secs).toFixed(0)} (${calls} calls, ${[...errors.values()].reduce((a, b) => a + b, 0)} errors)`,
    );
    console.log('| procedure | calls | p50 ms | p99 ms |');
    console.log('|---|---|---|---|');
    for (const p of PROCS) {
      const xs = samples.get(p)!;
      if (xs.length) console.log(`| ${p} | ${xs.length} | ${pct(xs, 50).toFixed(1)} | ${pct(xs, 99).toFixed(1)} |`);
    }
    const all = PROCS.flatMap((p) => samples.get(p)!);
    console.log(`| all | ${all.length} | ${pct(all, 50).toFixed(1)} | ${pct(all, 99).toFixed(1)} |`);
    console.log(
      `CPU per call: lobby ${ms(lobbyCpu / calls)} (${((lobbyCpu / secs) * 100).toFixed(0)} % of a core), ` +
        `PostgreSQL ${ms(pgCpu / calls)} over ${pgEnd.length} backends${pgGone ? ` (${pgGone} closed during the run, not counted)` : ''} (${((pgCpu / secs) * 100).toFixed(0)} %), ` +
        `bench client ${ms((self.user + self.system) / 1e6 / calls)}`,
    );
    console.log(`calls/s per lobby core: ${(calls / lobbyCpu).toFixed(0)}`);
    for (const [k, n] of errors) console.log(`  error ×${n}: ${k}`);
  } finally {
    lobby.kill('SIGTERM');
    await new Promise((r) => lobby.once('exit', r));
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await admin.end();
    agent.destroy();
  }
}

await main();
