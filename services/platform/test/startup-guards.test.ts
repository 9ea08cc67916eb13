/**
 * Start-up refusals and production hygiene of the real service entry points
 * (issue 10), each run as its own process like an operator starts it:
 * a port already in use stops the lobby, the gateway and `npm start`; the
 * published development secret is refused in production; `npm start`
 * without JWT_SECRET signs with a random secret; and with NODE_ENV unset the
 * lobby answers errors without stack traces or internal messages.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';
import { platformConfig } from '../src/config.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const PG_BASE = process.env.LOBBY_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const schemas: string[] = [];
// Each test starts a service process (tsx compiles it; the lobby migrates a fresh schema) and waits for
// its exit or its "listening" line: a bound, not a sleep. Under two busy loops inside npm test a lobby
// start took over the default 30 s (2026-12-03), so the bound is 120 s here and 110 s per exit.
vi.setConfig({ testTimeout: 120_000 });
const children: ChildProcess[] = [];

function schemaUrl(): string {
  const schema = `guards_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  schemas.push(schema);
  return `${PG_BASE}?schema=${schema}`;
}

async function dropSchema(url: string): Promise<void> {
  const c = new pg.Client({ connectionString: PG_BASE });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS "${new URL(url).searchParams.get('schema')}" CASCADE`);
  } finally {
    await c.end();
  }
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  const c = new pg.Client({ connectionString: PG_BASE });
  await c.connect();
  for (const s of schemas) await c.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await c.end();
});

/** Runs a service's main.ts to its exit (they must exit: a refusal that hangs is a failure too). */
function runToExit(service: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', `services/${service}/src/main.ts`],
      { cwd: root, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 110_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, out: `${stdout}\n${stderr}` }),
    );
  });
}

/** A plain TCP listener holding a port (what the lobby's and the platform's node:http servers meet). */
async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { port: (server.address() as { port: number }).port, server };
}

describe('a port already in use is a start-up error', () => {
  it('lobby', async () => {
    const { port, server } = await occupiedPort();
    const r = await runToExit('lobby', {
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: schemaUrl(),
      JWT_SECRET: 's'.repeat(32),
    });
    server.close();
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/EADDRINUSE|in use/);
  });

  it('gateway, even when the holder allows port sharing (uWS SO_REUSEPORT)', async () => {
    // The holder is a uWS listener with its default options, like another gateway: before issue 10
    // a second gateway bound the same port next to it and started without a word.
    const uws = createRequire(import.meta.url)('uWebSockets.js');
    const holder = uws.App();
    // An explicit port (a free one found first): Linux shares a port between SO_REUSEPORT
    // sockets only when each bound it by number, not when the kernel picked it for port 0.
    const free = await occupiedPort();
    await new Promise((r) => free.server.close(r));
    const ls = await new Promise<unknown>((r) => holder.listen('127.0.0.1', free.port, r));
    expect(ls).toBeTruthy();
    const port = free.port;
    const r = await runToExit('gateway', {
      HOST: '127.0.0.1',
      PORT: String(port),
      JWT_SECRET: 'x'.repeat(32),
      NATS_URL,
      JOKE_NAMESPACE: `guard${randomBytes(3).toString('hex')}`,
      LOG_LEVEL: 'warn',
    });
    uws.us_listen_socket_close(ls);
    expect(r.code).not.toBe(0);
    expect(r.out).toContain(`cannot listen on 127.0.0.1:${port}`);
  });

  it('platform (npm start)', async () => {
    const { port, server } = await occupiedPort();
    const r = await runToExit('platform', {
      HOST: '127.0.0.1',
      PORT: String(port),
      GATEWAY_PORT: '0',
      OPS_PORT: '0',
      DATABASE_URL: schemaUrl(),
      LOG_LEVEL: 'warn',
    });
    server.close();
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/EADDRINUSE|in use/);
  });
});

describe('no development secret outside development', () => {
  for (const service of ['lobby', 'gateway', 'platform'])
    it(`${service} refuses the published secret when NODE_ENV=production (exit 78, one line)`, async () => {
      const r = await runToExit(service, { NODE_ENV: 'production', JWT_SECRET: DEV_JWT_SECRET, NATS_URL });
      expect(r.code).toBe(78);
      expect(r.out).toContain(`${service}: configuration error`);
      expect(r.out).toContain('JWT_SECRET');
      expect(r.out).not.toMatch(/\n\s+at /);
    });

  for (const service of ['lobby', 'gateway'])
    it(`${service} without JWT_SECRET starts only when NODE_ENV=development (else exit 78, one line)`, async () => {
      // NODE_ENV unset, as a service run by hand from source: it used to sign with the published secret.
      const r = await runToExit(service, { NATS_URL, PORT: '0', OPS_PORT: '0' });
      expect(r.code).toBe(78);
      expect(r.out).toContain(`${service}: configuration error`);
      expect(r.out).toMatch(/JWT_SECRET.*NODE_ENV=development/);
    });

  it('npm start without JWT_SECRET signs with a fresh random secret each run, never the published one', () => {
    const a = platformConfig.fromEnv({}).jwtSecret;
    const b = platformConfig.fromEnv({}).jwtSecret;
    expect(a).not.toBe(DEV_JWT_SECRET);
    expect(a).not.toBe(b);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(platformConfig.fromEnv({ JWT_SECRET: 'y'.repeat(40) }).jwtSecret).toBe('y'.repeat(40));
    expect(platformConfig.resolve({ jwtSecret: 'z'.repeat(40) }).jwtSecret).toBe('z'.repeat(40));
  });
});

/** Starts the standalone lobby and resolves with its URL from the "lobby listening" log line. */
function startLobby(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/lobby/src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', OPS_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (d: string) => {
      buf += d;
      const m = /"url":"(http:\/\/[^"]+)"[^\n]*"msg":"lobby listening"/.exec(buf);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`lobby exited with ${code} before listening:\n${buf}`)));
  });
}

async function call(url: string, path: string, token?: string): Promise<{ message: string; data: any }> {
  const res = await fetch(`${url}/trpc/${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return ((await res.json()) as { error: { message: string; data: any } }).error;
}

describe('errors without stack traces unless development is explicit', () => {
  it('NODE_ENV unset: no stack, and an internal failure says only the fixed Korean message', async () => {
    const databaseUrl = schemaUrl();
    const url = await startLobby({ DATABASE_URL: databaseUrl, JWT_SECRET: 's'.repeat(32) });
    const missing = await call(url, 'nope.nothing');
    expect(missing.data.code).toBe('NOT_FOUND');
    expect(missing.data).not.toHaveProperty('stack');
    const signIn = await fetch(`${url}/trpc/auth.guest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ nickname: '운영' }),
    });
    const { token } = ((await signIn.json()) as { result: { data: { token: string } } }).result.data;
    // The database loses its tables under the running lobby: a genuine internal error.
    await dropSchema(databaseUrl);
    const broken = await call(url, 'rooms.list', token);
    expect(broken.data.code).toBe('INTERNAL_SERVER_ERROR');
    expect(broken.message).toBe('서버에 문제가 생겼어요. 잠시 후 다시 시도해 주세요');
    // Only the procedure path names anything; no table, driver, file or stack.
    expect(JSON.stringify({ ...broken, data: { ...broken.data, path: null } })).not.toMatch(
      /rooms|prisma|relation|guards_|\.ts:\d+|stack/i,
    );
  });

  it('NODE_ENV=development: stacks are shown (the check above can fail)', async () => {
    const url = await startLobby({ DATABASE_URL: schemaUrl(), NODE_ENV: 'development' });
    const missing = await call(url, 'nope.nothing');
    expect(missing.data.stack).toMatch(/\.(ts|js|mjs):\d+/);
  });
});
