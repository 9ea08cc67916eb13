/**
 * The local cluster of scripts/cluster.sh (3 nats-server in a JetStream
 * cluster, a Redis Cluster of 3 primaries + 3 replicas), started from a test:
 * once per test file (≈ 8 s), stopped by pid in afterAll. Tools and tests only:
 * production never starts servers.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = fileURLToPath(new URL('../../../scripts/cluster.sh', import.meta.url));

export interface LocalCluster {
  dir: string;
  /** Seeds of the Redis Cluster, e.g. for REDIS_CLUSTER_URLS. */
  redisClusterUrls: string[];
  /** The three NATS servers' client URLs, e.g. joined by commas for NATS_URL. */
  natsUrls: string[];
  redisPorts: number[];
  natsPorts: number[];
  /** SIGKILLs NATS server i (0..2); returns once it is gone. */
  killNats(i: number): Promise<void>;
  /** SIGKILLs the Redis node on `port`; returns once it is gone. */
  killRedis(port: number): Promise<void>;
  /** Puts an empty node on a dead node's port as a replica of the primary on `primaryPort` (returns once synced). */
  replaceRedis(port: number, primaryPort: number): Promise<void>;
  /** SIGSTOPs / SIGCONTs the Redis node on `port` (a replica that stops confirming, then comes back). */
  pauseRedis(port: number): Promise<void>;
  resumeRedis(port: number): Promise<void>;
  /** The port of a replica of the primary on `primaryPort` (from CLUSTER NODES). */
  replicaOf(primaryPort: number): Promise<number>;
  stop(): Promise<void>;
}

async function signalPidFile(file: string, signal: NodeJS.Signals): Promise<void> {
  process.kill(Number((await readFile(file, 'utf8')).trim()), signal);
}

async function killPidFile(file: string): Promise<void> {
  const pid = Number((await readFile(file, 'utf8')).trim());
  process.kill(pid, 'SIGKILL');
  for (let i = 0; i < 200; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`pid ${pid} did not exit`);
}

export async function startLocalCluster(): Promise<LocalCluster> {
  const dir = await mkdtemp(join(tmpdir(), 'joke-cluster-'));
  try {
    // Under the test hooks' 120 s (vitest.shared.ts): on a box with a load average of 35 (a clean-clone
    // suite beside two busy loops) one start took past the 90 s it had.
    await run('bash', [SCRIPT, 'start', dir], { timeout: 110_000 });
  } catch (err) {
    await run('bash', [SCRIPT, 'stop', dir]).catch(() => {});
    // The script's steps (stderr) say where a start that ran out of time was.
    const e = err as { killed?: boolean; stderr?: string; message: string };
    throw new Error(`${e.message.split('\n')[0]}${e.killed ? ' (killed: out of time)' : ''}\n${e.stderr ?? ''}`, {
      cause: err,
    });
  }
  const env = Object.fromEntries(
    (await readFile(join(dir, 'env'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  const list = (v: string) => v.split(',').filter(Boolean);
  const redisPorts = list(env.REDIS_PORTS).map(Number);
  return {
    dir,
    redisClusterUrls: list(env.REDIS_CLUSTER_URLS),
    natsUrls: list(env.NATS_URL),
    redisPorts,
    natsPorts: list(env.NATS_PORTS).map(Number),
    killNats: (i) => killPidFile(join(dir, `nats-${i}`, 'nats.pid')),
    killRedis: (port) => killPidFile(join(dir, `redis-${port}`, 'redis.pid')),
    replaceRedis: async (port, primaryPort) => {
      await run('bash', [SCRIPT, 'replace-redis', dir, String(port), String(primaryPort)], { timeout: 60_000 });
    },
    pauseRedis: (port) => signalPidFile(join(dir, `redis-${port}`, 'redis.pid'), 'SIGSTOP'),
    resumeRedis: (port) => signalPidFile(join(dir, `redis-${port}`, 'redis.pid'), 'SIGCONT'),
    replicaOf: async (primaryPort) => {
      const { stdout } = await run('redis-cli', ['-p', String(primaryPort), 'cluster', 'nodes']);
      const lines = stdout.split('\n').map((l) => l.split(' '));
      const primary = lines.find((f) => f[1]?.startsWith(`127.0.0.1:${primaryPort}@`));
      const replica = lines.find((f) => f[3] === primary?.[0]);
      if (!replica) throw new Error(`no replica of ${primaryPort}`);
      return Number(replica[1].split('@')[0].split(':')[1]);
    },
    stop: async () => {
      // A paused node would not die of SIGTERM.
      for (const port of redisPorts)
        await signalPidFile(join(dir, `redis-${port}`, 'redis.pid'), 'SIGCONT').catch(() => {});
      await run('bash', [SCRIPT, 'stop', dir], { timeout: 30_000 });
    },
  };
}
