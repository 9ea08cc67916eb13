/**
 * What the matchmaker costs while nothing happens: the real matchmaker process (`main.ts` of the given tree)
 * on the real NATS and Redis, with TABLES live rooms in the store (created with the tree's own store code),
 * two simulated workers that heartbeat, answer probes and renew their leases the way a worker does
 * (every room every LEASE_RENEW_MS, since none writes), and no actions at all. Prints the matchmaker's CPU
 * (µs per second), Redis's CPU and `INFO commandstats` deltas over the window, and the load average.
 *
 *   node --import tsx load-tests/scripts/measure-mm-idle.ts --tree DIR --tables 5000 [--seconds 30]
 *     [--warmup 20] [--prof DIR] [--env K=V,K=V]
 *
 * The warm-up should cover the matchmaker's start and its first sweep (which, from this change on, is a full
 * scan of every room: see ORPHAN_SCAN_MS).
 *
 * Why a separate tree: to compare the base commit and a change in one run, alternating (`--tree`), each
 * seeding the store its own way. Each run uses a fresh namespace and removes its keys at the end
 * (drop-namespace.ts), so one run's rooms never weigh on the next one's scans.
 */
import { spawn, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const arg = (name: string, dflt?: string): string => {
  const i = args.indexOf(`--${name}`);
  if (i >= 0 && i + 1 < args.length) return args[i + 1];
  if (dflt === undefined) throw new Error(`--${name} is required`);
  return dflt;
};
const tree = resolve(arg('tree'));
const tables = Number(arg('tables', '1000'));
const seconds = Number(arg('seconds', '30'));
const warmup = Number(arg('warmup', '20'));
const prof = arg('prof', '');
const extraEnv = Object.fromEntries(
  arg('env', '')
    .split(',')
    .filter(Boolean)
    .map((kv) => kv.split('=') as [string, string]),
);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const LEASE_TTL_MS = 15_000;
const LEASE_RENEW_MS = 5_000;
const ns = `mmidle${process.pid}${randomBytes(2).toString('hex')}`;

/**
 * The bus and protocol modules of the tree under test (`--tree`, e.g. the base commit): a declared
 * boundary, since their exports may differ from this tree's, so this tree's types cannot describe them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- modules of another tree (see above)
type Mod = Record<string, any>;
const bus: Mod = await import(pathToFileURL(join(tree, 'services/bus/src/index.ts')).href);
const protocol: Mod = await import(pathToFileURL(join(tree, 'services/protocol/src/index.ts')).href);

const redis = await bus.connectRedis(REDIS_URL);
const store = new bus.RedisSnapshotStore(redis, `joke:${ns}`);
const nats = await bus.NatsBus.connect(NATS_URL, { prefix: ns, name: 'mm-idle-bench' });

// The rooms: about the size of a real snapshot, half on each simulated worker.
const workers = ['w0', 'w1'];
const data = JSON.stringify({ pad: 'x'.repeat(1500) });
const rooms = Array.from({ length: tables }, (_, i) => ({
  roomId: `idle-${i}-${randomBytes(3).toString('hex')}`,
  owner: workers[i % 2],
  renewedAt: 0,
}));
for (let i = 0; i < rooms.length; i += 200)
  await Promise.all(
    rooms.slice(i, i + 200).map(async (r) => {
      await store.createRoom(r.roomId, r.owner, { seq: 1, data, steps: [] }, LEASE_TTL_MS);
      r.renewedAt = Date.now();
    }),
  );

// The simulated workers: probe answers, heartbeats every 500 ms, lease renewal as upkeep.ts does it.
const incarnation = randomBytes(4).toString('hex');
const subs = workers.map((w) =>
  protocol.serve(
    nats,
    protocol.contract.workerPing.at(w),
    (_q: unknown, respond: (r: unknown) => void) => respond({ v: 1, workerId: w, incarnation }),
    () => ({ v: 1, workerId: w, incarnation }),
  ),
);
const beat = () =>
  workers.forEach((w, shard) =>
    protocol.emit(nats, protocol.contract.workerHeartbeat, {
      v: protocol.PROTOCOL_VERSION,
      workerId: w,
      shard,
      rooms: tables / 2,
      actionsPerSec: 0,
      loopLagMs: 1,
      draining: false,
      at: Date.now(),
      incarnation,
    }),
  );
beat();
const beats = setInterval(beat, 500);
let renewCalls = 0;
const renew = async () => {
  const cutoff = Date.now() - LEASE_RENEW_MS;
  for (const w of workers) {
    const due = rooms.filter((r) => r.owner === w && r.renewedAt < cutoff);
    if (due.length === 0) continue;
    renewCalls += Math.ceil(due.length / 500);
    const lost: string[] = await store.renew(
      w,
      due.map((r) => ({ roomId: r.roomId, epoch: 1 })),
      LEASE_TTL_MS,
    );
    if (lost.length > 0) console.error(`lost ${lost.length} leases`);
    const now = Date.now();
    for (const r of due) r.renewedAt = now;
  }
};
const renewals = setInterval(() => void renew(), LEASE_RENEW_MS / 2);

// The matchmaker under test, as a process of its own tree.
const mmArgs = [...(prof ? ['--cpu-prof', `--cpu-prof-dir=${prof}`] : []), '--import', 'tsx'];
const mm = spawn(process.execPath, [...mmArgs, 'services/matchmaker/src/main.ts'], {
  cwd: tree,
  env: {
    ...process.env,
    ...extraEnv,
    JOKE_NAMESPACE: ns,
    NATS_URL,
    REDIS_URL,
    OPS_PORT: '0',
    LOG_LEVEL: 'warn',
    JOKE_READY_LINE: '1',
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise<void>((ok, fail) => {
  mm.stdout.on('data', (b: Buffer) => String(b).includes('READY') && ok());
  mm.once('exit', (code) => fail(new Error(`matchmaker exited ${code}`)));
});

const ticks = (pid: number) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]); // utime + stime, in clock ticks (1/100 s)
};
const redisPid = Number(/process_id:(\d+)/.exec(await redis.info('server'))?.[1]);
const commandstats = async () => {
  const out = new Map<string, { calls: number; usec: number }>();
  for (const m of (await redis.info('commandstats')).matchAll(/cmdstat_(\S+):calls=(\d+),usec=(\d+)/g))
    out.set(m[1], { calls: Number(m[2]), usec: Number(m[3]) });
  return out;
};
const sample = async () => ({
  t: performance.now(),
  mm: ticks(mm.pid!),
  redis: ticks(redisPid),
  stats: await commandstats(),
  renewCalls,
});

await new Promise((r) => setTimeout(r, warmup * 1000));
const a = await sample();
// The matchmaker's CPU second by second (ms), to see the sweeps and whether the window is steady.
const series: number[] = [];
for (let i = 0, last = a.mm; i < seconds; i++) {
  await new Promise((r) => setTimeout(r, 1000));
  const now = ticks(mm.pid!);
  series.push((now - last) * 10);
  last = now;
}
const b = await sample();
const secs = (b.t - a.t) / 1000;
const perSec = (ticksDelta: number) => Math.round((ticksDelta * 10_000) / secs); // µs of CPU per second
const commands: Record<string, { callsPerSec: number; usecPerSec: number }> = {};
let calls = 0;
let usec = 0;
for (const [name, after] of b.stats) {
  const before = a.stats.get(name) ?? { calls: 0, usec: 0 };
  const dc = after.calls - before.calls;
  if (dc <= 0) continue;
  calls += dc;
  usec += after.usec - before.usec;
  commands[name] = { callsPerSec: Math.round(dc / secs), usecPerSec: Math.round((after.usec - before.usec) / secs) };
}

mm.kill('SIGTERM');
await new Promise((r) => mm.once('exit', r));
clearInterval(beats);
clearInterval(renewals);
for (const s of subs) s.unsubscribe();
await nats.close();
await redis.close();
execFileSync(process.execPath, ['--import', 'tsx', 'load-tests/scripts/drop-namespace.ts', ns], {
  cwd: resolve(import.meta.dirname, '../..'),
  stdio: 'ignore',
});
console.log(
  JSON.stringify({
    tree,
    tables,
    seconds: Math.round(secs),
    mmCpuUsPerSec: perSec(b.mm - a.mm),
    mmCpuMsEachSecond: series.join(' '),
    redisCpuUsPerSec: perSec(b.redis - a.redis),
    redisCallsPerSec: Math.round(calls / secs),
    redisCmdUsecPerSec: Math.round(usec / secs),
    renewCallsPerSec: Math.round(((b.renewCalls - a.renewCalls) / secs) * 10) / 10,
    commands,
    loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
  }),
);
process.exit(0);
