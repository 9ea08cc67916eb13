import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { InProcessBus } from '@joke/bus';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';
import { lobbyConfigFromEnv, lobbyEnv } from '../src/config.ts';
import { startLobbyServer, type LobbyServer } from '../src/server.ts';
import { clientFor, uniqueSchema } from './helpers/harness.ts';

describe('configuration from the environment', () => {
  it('has a documented default for every option and runs with none set', () => {
    const c = lobbyConfigFromEnv({ NODE_ENV: 'development' });
    expect(c).toMatchObject({
      port: 8082,
      databaseUrl: '',
      dataDir: '',
      natsUrl: '',
      jwtSecret: DEV_JWT_SECRET,
      startTimeoutMs: 5000,
    });
    const table = lobbyEnv.describe();
    for (const v of ['PORT', 'DATABASE_URL', 'LOBBY_DATA_DIR', 'NATS_URL', 'JWT_SECRET', 'CORS_ORIGIN', 'LOG_LEVEL'])
      expect(table).toContain(`\`${v}\``);
  });

  it('rejects bad values naming the variable, and the public dev secret in production', () => {
    expect(() => lobbyConfigFromEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => lobbyConfigFromEnv({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => lobbyConfigFromEnv({ JWT_SECRET: 'short' })).toThrow(/JWT_SECRET/);
    expect(() => lobbyConfigFromEnv({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET must be set/);
    // Unset NODE_ENV is not development: no published secret by default.
    expect(() => lobbyConfigFromEnv({})).toThrow(/JWT_SECRET must be set/);
    expect(() => lobbyConfigFromEnv({ NODE_ENV: 'production', JWT_SECRET: DEV_JWT_SECRET })).toThrow(/JWT_SECRET/);
    expect(lobbyConfigFromEnv({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }).jwtSecret).toBe('x'.repeat(32));
  });
});

describe('standalone server', () => {
  const schema = uniqueSchema();
  const bus = new InProcessBus();
  let server: LobbyServer;
  beforeAll(async () => {
    const config = lobbyConfigFromEnv({
      HOST: '127.0.0.1',
      PORT: '0',
      OPS_PORT: '0',
      DATABASE_URL: schema.url,
      CORS_ORIGIN: '*',
      JWT_SECRET: 's'.repeat(32),
    });
    server = await startLobbyServer(config, { bus, logger: pino({ level: 'silent' }), defaultMetrics: true });
  });
  afterAll(async () => {
    await server?.close();
    await bus.close();
    await schema.drop();
  });

  it('serves /healthz, /readyz on both ports and Prometheus /metrics only on the ops port', async () => {
    expect(server.opsPort).not.toBe(server.port);
    for (const base of [server.url, server.opsUrl]) {
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      const ready = await fetch(`${base}/readyz`);
      expect([ready.status, await ready.text()]).toEqual([200, 'ready\n']);
    }
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    await clientFor(server.url).games.list.query();
    const metrics = await (await fetch(`${server.opsUrl}/metrics`)).text();
    expect(metrics).toContain('joke_lobby_trpc_request_seconds_count{path="games.list",type="query",code="OK"} 1');
    expect(metrics).toContain('joke_lobby_ready 1');
    expect(metrics).toContain('process_cpu_user_seconds_total');
  });

  it('serves the API under /trpc with CORS for browsers on another origin', async () => {
    const me = await clientFor(server.url).auth.guest.mutate({ nickname: '서버' });
    expect(await clientFor(server.url, () => me.token).auth.me.query()).toEqual({
      userId: me.userId,
      nickname: '서버',
    });
    const pre = await fetch(`${server.url}/trpc/auth.me`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:5173', 'access-control-request-headers': 'authorization' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toContain('authorization');
    expect((await fetch(`${server.url}/nowhere`)).status).toBe(404);
  });
});

describe('serving the client in the cluster layout (SERVE_CLIENT)', () => {
  const schema = uniqueSchema();
  const bus = new InProcessBus();
  let server: LobbyServer;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'client-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>joke-app</title>');
    const config = lobbyConfigFromEnv({
      HOST: '127.0.0.1',
      PORT: '0',
      OPS_PORT: '0',
      DATABASE_URL: schema.url,
      SERVE_CLIENT: 'true',
      CLIENT_DIR: dir,
      JWT_SECRET: 's'.repeat(32),
      PUBLIC_GATEWAY_URL: 'wss://play.example.com/ws',
    });
    server = await startLobbyServer(config, { bus, logger: pino({ level: 'silent' }) });
  });
  afterAll(async () => {
    await server?.close();
    await bus.close();
    await schema.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the page at / and tells browsers the public gateway URL, with the API still under /trpc', async () => {
    const page = await fetch(`${server.url}/tables/abc`);
    expect([page.status, await page.text()]).toEqual([200, '<!doctype html><title>joke-app</title>']);
    expect(await (await fetch(`${server.url}/config.json`)).json()).toEqual({
      gatewayUrl: 'wss://play.example.com/ws',
    });
    expect((await clientFor(server.url).games.list.query()).length).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    expect(() => lobbyConfigFromEnv({ NODE_ENV: 'development', PUBLIC_GATEWAY_URL: 'http://x' })).toThrow(
      /PUBLIC_GATEWAY_URL/,
    );
  });
});
