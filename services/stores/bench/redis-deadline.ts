/**
 * CPU per store script call (EVAL with a 4 KB argument, awaited one at a time, as a room's
 * snapshot write), through this tree's RedisConn against another tree's (the untouched base tree),
 * on the real Redis. Each tree runs --rounds rounds of --calls calls and then sits idle for 5.5 s
 * inside its measurement, so the per-command timers node-redis arms (they fire 5 s later) are
 * counted where they were armed. CPU = user + system of this process; trees alternate, base first.
 *
 *   node --import tsx services/stores/bench/redis-deadline.ts --tree /work/wt/base [--rounds 3] [--calls 3000]
 *
 * Figures, not assertions.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
};
const OTHER = resolve(arg('tree', '/work/wt/base'));
const ROUNDS = Number(arg('rounds', '3'));
const CALLS = Number(arg('calls', '3000'));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const here = fileURLToPath(new URL('../../..', import.meta.url));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

type Conn = typeof import('../src/redis-conn.ts');
// The stores were part of services/bus before they became their own package: a base tree may have either.
const connOf = (tree: string): Promise<Conn> => {
  const now = resolve(tree, 'services/stores/src/redis-conn.ts');
  return import(existsSync(now) ? now : resolve(tree, 'services/bus/src/store/redis-conn.ts'));
};
const trees: [string, Conn][] = [
  ['base', await connOf(OTHER)],
  ['this', await connOf(here)],
];
const SCRIPT = "return redis.call('SET', KEYS[1], ARGV[1])";
const data = 'x'.repeat(4096);
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

console.log(`load average at start: ${load()}`);
const result: Record<string, number[]> = { base: [], this: [] };
for (let round = 0; round < ROUNDS; round++)
  for (const [name, mod] of trees) {
    const conn = await mod.connectRedisConn({ url: REDIS_URL });
    const key = `i9bench:${name}`;
    await conn.eval(SCRIPT, [key], [data]);
    const c0 = cpu();
    for (let i = 0; i < CALLS; i++) await conn.eval(SCRIPT, [key], [data]);
    await new Promise((r) => setTimeout(r, 5500));
    result[name].push((cpu() - c0) / CALLS);
    await conn.close();
  }
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const [b, t] = [median(result.base), median(result.this)];
console.log(
  `µs CPU per script call incl. its timers: base ${result.base.map((x) => x.toFixed(1)).join(' ')}, this ${result.this.map((x) => x.toFixed(1)).join(' ')}; median this/base ${(t / b).toFixed(3)}; load average at end: ${load()}`,
);
process.exit(0);
