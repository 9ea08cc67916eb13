/**
 * CPU per store script call on a Redis Cluster (EVAL with a 4 KB argument, awaited one at a time, as a
 * room's snapshot write), in one run: the plain cluster client (node-redis's own 5 s timer per command,
 * what ClusterRedis sent before) against ClusterRedis (the shared deadline, src/store/redis-deadline.ts).
 * The cluster counterpart of bench/redis-deadline.ts, which compares two trees on a single Redis.
 * Each side runs --calls calls on its own connection and then sits idle for 5.5 s inside its
 * measurement, so the timers node-redis arms (they fire 5 s later) are counted where they were armed.
 * CPU = user + system of this process; the order alternates per round (plain first on even rounds) so
 * neither side always runs warmer.
 *
 *   nice -n 19 node --import tsx services/stores/bench/redis-deadline-cluster.ts [--rounds 5] [--calls 8000]
 *
 * About 90 s with the defaults. Uses REDIS_CLUSTER_URLS (comma-separated seeds) when set, else starts
 * scripts/cluster.sh's cluster for the run (≈ 8 s) and stops it. Figures, not assertions.
 */
import { loadavg } from 'node:os';
import { startLocalCluster, type LocalCluster } from '@joke/bus/local-cluster';
import { connectRedisConn, type ClusterRedis } from '../src/index.ts';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
};
const ROUNDS = Number(arg('rounds', '5'));
const CALLS = Number(arg('calls', '8000'));
const WARMUP = 3000;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const SCRIPT = "return redis.call('SET', KEYS[1], ARGV[1])";
const data = 'x'.repeat(4096);
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
type Call = (conn: ClusterRedis, key: string) => Promise<unknown>;
// One key for both sides: the same primary serves every call.
const key = 'i9bench:{deadline}';
const sides: Record<'plain' | 'shared', Call> = {
  plain: (conn, key) => conn.client.eval(SCRIPT, { keys: [key], arguments: [data] }),
  shared: (conn, key) => conn.eval(SCRIPT, [key], [data]),
};

let local: LocalCluster | undefined;
const seeds = process.env.REDIS_CLUSTER_URLS?.split(',').filter(Boolean);
const clusterUrls = seeds?.length ? seeds : (local = await startLocalCluster()).redisClusterUrls;
console.log(`load average at start: ${load()}`);
const result: Record<keyof typeof sides, number[]> = { plain: [], shared: [] };
const idle = () => new Promise((r) => setTimeout(r, 5500));
try {
  // Unmeasured warm-up of both paths (JIT), then idle until its timers have fired: the first measured
  // side otherwise paid for compiling the code both share (≈ +50 % in a first run).
  const warm = (await connectRedisConn({ clusterUrls })) as ClusterRedis;
  for (let i = 0; i < WARMUP; i++) await Promise.all([sides.plain(warm, key), sides.shared(warm, key)]);
  await warm.close();
  await idle();
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['plain', 'shared'] as const) : (['shared', 'plain'] as const);
    for (const name of order) {
      const conn = (await connectRedisConn({ clusterUrls })) as ClusterRedis;
      await sides[name](conn, key);
      const c0 = cpu();
      for (let i = 0; i < CALLS; i++) await sides[name](conn, key);
      await idle();
      result[name].push((cpu() - c0) / CALLS);
      await conn.close();
    }
  }
} finally {
  await local?.stop();
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const [p, s] = [median(result.plain), median(result.shared)];
const fmt = (xs: number[]) => xs.map((x) => x.toFixed(1)).join(' ');
// Per round too: the two sides of one round ran seconds apart, under the same load.
const paired = result.plain.map((x, i) => (result.shared[i] / x).toFixed(2)).join(' ');
console.log(
  `cluster, µs CPU per script call incl. its timers: plain client ${fmt(result.plain)}, shared deadline ${fmt(result.shared)}; median shared/plain ${(s / p).toFixed(3)} (${(p - s).toFixed(1)} µs less), per round ${paired}; load average at end: ${load()}`,
);
process.exit(0);
