/**
 * Probes on real processes: the four services run against a nats-server and a
 * redis-server this test started on ports of its own. Stopping NATS (by pid)
 * turns every service not-ready, naming `nats`; starting it again on the same
 * port brings them back. Stopping Redis turns the two services that need it
 * (matchmaker, room worker) not-ready; the gateway has no Redis and the lobby's
 * rate limits fall back to per-process counters, so they stay ready. A room
 * worker frozen past LIVENESS_MAX_LAG_MS (SIGSTOP: its event loop cannot run)
 * fails /healthz once it runs again, and passes after the hold window.
 */
import { randomBytes } from 'node:crypto';
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';
import {
  freePort,
  ownNats,
  ownRedis,
  sleep,
  startService,
  statusOf,
  until,
  type OwnedServer,
  type ServiceProc,
} from './support/procs.ts';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const ns = `r${randomBytes(4).toString('hex')}`;
const LAG_MS = 1000;
let nats: OwnedServer;
let redis: OwnedServer;
const services: { proc: ServiceProc; ops: string; redis: boolean }[] = [];

async function readyz(ops: string): Promise<[number, string]> {
  const r = await fetch(`${ops}/readyz`, { signal: AbortSignal.timeout(5000) }).catch(() => null);
  return r ? [r.status, await r.text()] : [0, ''];
}
const all = (pick: (s: (typeof services)[number]) => boolean = () => true) => services.filter(pick);
async function untilAll(list: typeof services, status: number, what: string): Promise<void> {
  await until(
    async () => (await Promise.all(list.map((s) => readyz(s.ops)))).every(([st]) => st === status),
    // Four processes starting at once on a busy box took over 60 s; the bound is for a hang.
    180_000,
    `${what}: ${list.map((s) => s.proc.name).join(', ')}`,
  ).catch((err: Error) => {
    throw new Error(`${err.message}\n${list.map((s) => `[${s.proc.name}] ${s.proc.out.join('')}`).join('\n')}`);
  });
}

beforeAll(async () => {
  nats = await ownNats();
  redis = await ownRedis();
  const common = { NATS_URL: nats.url, JOKE_NAMESPACE: ns, LIVENESS_MAX_LAG_MS: String(LAG_MS) };
  const defs: [string, Record<string, string>, boolean][] = [
    ['room-worker', { REDIS_URL: redis.url, WORKER_ID: `${ns}-w0` }, true],
    ['matchmaker', { REDIS_URL: redis.url, MATCHMAKER_ID: `${ns}-mm` }, true],
    ['gateway', { PORT: '0', JWT_SECRET: DEV_JWT_SECRET, GATEWAY_ID: `${ns}-gw` }, false],
    [
      'lobby',
      {
        PORT: '0',
        HOST: '127.0.0.1',
        REDIS_URL: redis.url,
        DATABASE_URL: `${PG_URL}?schema=${ns}`,
        JWT_SECRET: DEV_JWT_SECRET,
      },
      false,
    ],
  ];
  for (const [service, env, usesRedis] of defs) {
    const port = await freePort();
    const proc = startService(service, { ...common, ...env, OPS_PORT: String(port) });
    services.push({ proc, ops: `http://127.0.0.1:${port}`, redis: usesRedis });
  }
  await untilAll(all(), 200, 'every service ready');
}, 240_000);

afterAll(async () => {
  for (const s of services) await s.proc.stop();
  await nats?.close();
  await redis?.close();
  const db = new pg.Client({ connectionString: PG_URL });
  await db.connect();
  await db.query(`DROP SCHEMA IF EXISTS "${ns}" CASCADE`);
  await db.end();
});

describe('readiness follows the connections', () => {
  it('NATS gone: every service is not ready and says nats; NATS back: ready again', async () => {
    await nats.stop();
    await untilAll(all(), 503, 'not ready without NATS');
    for (const s of all()) expect((await readyz(s.ops))[1], s.proc.name).toMatch(/^not ready: .*\bnats\b/);
    await nats.start();
    await untilAll(all(), 200, 'ready after NATS returned');
  }, 150_000);

  it('Redis gone: matchmaker and room worker are not ready (redis), gateway and lobby stay ready', async () => {
    await redis.stop();
    await untilAll(
      all((s) => s.redis),
      503,
      'not ready without Redis',
    );
    for (const s of all((s) => s.redis))
      expect((await readyz(s.ops))[1], s.proc.name).toMatch(/^not ready: .*\bredis\b/);
    for (const s of all((s) => !s.redis)) expect((await readyz(s.ops))[0], s.proc.name).toBe(200);
    await redis.start();
    await untilAll(all(), 200, 'ready after Redis returned');
  }, 150_000);
});

/**
 * A GET on a connection of its own. fetch reuses a kept-alive connection, and a server that wakes from a
 * freeze runs its overdue keep-alive timer before it reads the request queued on that connection: it
 * closes it, and the probe fails with ECONNRESET (a clean-clone run under two busy loops, 2026-12-05).
 */
function probeFresh(url: string, timeoutMs: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = get(url, { agent: false, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} in ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

describe('liveness follows the event loop', () => {
  it('a room worker frozen past LIVENESS_MAX_LAG_MS fails /healthz when it runs again, then recovers', async () => {
    const worker = services[0];
    expect(worker.proc.name).toBe('room-worker');
    await until(async () => (await statusOf(`${worker.ops}/healthz`)) === 200, 30_000, 'a healthy worker');
    const pid = worker.proc.child.pid!;
    process.kill(pid, 'SIGSTOP');
    const frozenAt = Date.now();
    // The probe is sent while the process is frozen, on a new connection, which the kernel queues.
    const probe = probeFresh(`${worker.ops}/healthz`, 60_000);
    try {
      // Frozen for at least three times the threshold before it may run again.
      while (Date.now() - frozenAt < 3 * LAG_MS) await sleep(100);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const r = await probe;
    expect([r.status, r.body]).toEqual([503, expect.stringMatching(/^event loop stuck: lag \d+ ms > 1000 ms/)]);
    await until(async () => (await statusOf(`${worker.ops}/healthz`)) === 200, 60_000, 'liveness to recover');
  }, 120_000);
});
