/**
 * Runs the realtime services as separate processes — exactly what
 * `npm start -w services/<name>` runs — against the real NATS and Redis, in a
 * namespace of their own, and stops them all afterwards.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createClient } from 'redis';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface Proc {
  name: string;
  child: ChildProcess;
  /** The port printed on its READY line (gateway: WebSocket port; others: ops port). */
  port: number;
  output: string[];
  /** The process's latest warning and error log lines (pino level ≥ 40), to print when a run goes wrong. */
  warnings: string[];
}

export interface ClusterOptions {
  workers: number;
  matchmakers: number;
  gateways: number;
  /** Also run the lobby (guest sign-in over tRPC; PGlite in memory) as its own process. */
  lobby?: boolean;
  env?: Record<string, string>;
}

export interface Cluster {
  namespace: string;
  natsUrl: string;
  redisUrl: string;
  procs: Proc[];
  workers: Proc[];
  gatewayUrls: string[];
  /** The lobby's tRPC endpoint, when started. */
  lobbyUrl: string;
  stop(): Promise<void>;
}

/** The READY line of the realtime services; the lobby has none, so its "listening" log line stands in. */
const READY = /^READY (\S+) (\d+)$/m;
const LOBBY_LISTENING = /"url":"http:\/\/[^"]*:(\d+)"[^\n]*"msg":"lobby listening"/;

function start(name: string, workspace: string, env: Record<string, string>): Promise<Proc> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: `${root}services/${workspace}`,
    env: {
      ...process.env,
      ...env,
      JOKE_READY_LINE: '1',
      LOG_LEVEL: env.LOG_LEVEL ?? process.env.CLUSTER_LOG_LEVEL ?? 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // To read what the services said (e.g. CLUSTER_LOG_LEVEL=info): every line, appended per process name.
  const logDir = process.env.CLUSTER_LOG_DIR;
  if (logDir) {
    const file = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
    child.stdout!.pipe(file, { end: false });
    child.stderr!.pipe(file, { end: false });
    child.once('close', () => file.end());
  }
  const proc: Proc = { name, child, port: 0, output: [], warnings: [] };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${proc.output.join('')}`)), 120_000);
    const onData = (d: Buffer) => {
      const text = String(d);
      if (proc.output.length < 200) proc.output.push(text);
      for (const line of text.split('\n'))
        if (/"level":[4-6]0/.test(line)) {
          proc.warnings.push(line.slice(0, 400));
          if (proc.warnings.length > 50) proc.warnings.shift();
        }
      const m = READY.exec(text);
      const lobby = LOBBY_LISTENING.exec(text);
      if ((m || lobby) && proc.port === 0) {
        proc.port = Number(m ? m[2] : lobby![1]);
        clearTimeout(timer);
        resolve(proc);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (proc.port === 0) reject(new Error(`${name} exited with ${code}:\n${proc.output.join('')}`));
    });
  });
}

const PG_BASE = process.env.LOBBY_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

export async function startCluster(opts: ClusterOptions): Promise<Cluster> {
  const namespace = `cl${randomBytes(4).toString('hex')}`;
  const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const common = { NATS_URL: natsUrl, REDIS_URL: redisUrl, JOKE_NAMESPACE: namespace, OPS_PORT: '0', ...opts.env };
  const starting: Promise<Proc>[] = [];
  for (let i = 0; i < opts.workers; i++)
    starting.push(
      start(`worker-${i}`, 'room-worker', { ...common, WORKER_ID: `${namespace}-w${i}`, SHARD: String(i) }),
    );
  for (let i = 0; i < opts.matchmakers; i++)
    starting.push(
      start(`matchmaker-${i}`, 'matchmaker', {
        ...common,
        MATCHMAKER_ID: `${namespace}-mm${i}`,
        // The swarm quick-matches from one address: the per-address budgets are for browsers (0 = off).
        QUEUE_RATE_PER_ADDRESS: '0',
        QUEUE_TABLES_PER_ADDRESS: '0',
      }),
    );
  for (let i = 0; i < opts.gateways; i++)
    starting.push(
      start(`gateway-${i}`, 'gateway', {
        ...common,
        GATEWAY_ID: `${namespace}-g${i}`,
        PORT: '0',
        JWT_SECRET: DEV_JWT_SECRET,
        // The swarm connects from one address.
        GATEWAY_MAX_SOCKETS_PER_IP: '0',
        // Without a lobby there is nobody to ask about private rooms.
        GATEWAY_ROOM_ACCESS: opts.lobby ? 'lobby' : 'open',
      }),
    );
  if (opts.lobby)
    starting.push(
      start('lobby', 'lobby', {
        ...common,
        HOST: '127.0.0.1',
        PORT: '0',
        JWT_SECRET: DEV_JWT_SECRET,
        // The real PostgreSQL, on a schema of this run's own (migrated by the lobby at start, dropped by
        // stop): an in-process PGlite answered 200 bots' sign-ins and the gateways' room-access checks too
        // slowly on a loaded box (joins refused as unavailable after the 10 s retry budget).
        DATABASE_URL: `${PG_BASE}?schema=${namespace}`,
        LOG_LEVEL: 'info',
        // 200 bots sign in from one address within seconds: the per-address sign-in limit
        // (60 a minute by default) is for browsers, so this test stack turns it off (0 = off).
        LOBBY_RATE_GUEST_PER_IP: '0',
      }),
    );
  const settled = await Promise.allSettled(starting);
  const procs = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stop = async () => {
    await Promise.all(
      procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
            const hard = setTimeout(() => p.child.kill('SIGKILL'), 3000);
            p.child.once('exit', () => {
              clearTimeout(hard);
              resolve();
            });
            p.child.kill('SIGTERM');
          }),
      ),
    );
    if (opts.lobby) {
      const db = new pg.Client({ connectionString: PG_BASE });
      await db.connect();
      await db.query(`DROP SCHEMA IF EXISTS "${namespace}" CASCADE`).finally(() => db.end());
    }
    // Leave nothing of this run in Redis.
    const redis = createClient({ url: redisUrl });
    await redis.connect();
    for await (const keys of redis.scanIterator({ MATCH: `joke:${namespace}:*`, COUNT: 500 }))
      if (keys.length > 0) await redis.del(keys);
    await redis.close();
  };
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) {
    await stop();
    throw (failed as PromiseRejectedResult).reason;
  }
  return {
    namespace,
    natsUrl,
    redisUrl,
    procs,
    workers: procs.filter((p) => p.name.startsWith('worker-')),
    gatewayUrls: procs.filter((p) => p.name.startsWith('gateway-')).map((p) => `ws://127.0.0.1:${p.port}/ws`),
    lobbyUrl: opts.lobby ? `http://127.0.0.1:${procs.find((p) => p.name === 'lobby')!.port}/trpc` : '',
    stop,
  };
}
