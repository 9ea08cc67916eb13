/**
 * The lobby behind proxies, as the chart deploys it: two lobby processes (started from source with the
 * trusted hops the chart renders for an Ingress, and the shared Redis the chart gives them) behind a tiny
 * forwarding proxy on loopback that round-robins requests and appends the peer address to X-Forwarded-For,
 * as ingress-nginx does. Clients are told apart by the loopback address they connect from (127.0.0.2,
 * 127.0.0.3, …). Shows: the guest sign-in limit counts each client, not the proxy; the counters are shared
 * by the replicas through Redis (the limit holds although each replica saw only part of the calls); a
 * forged X-Forwarded-For does not move a client to another counter. Failure modes: a lobby that does not
 * start fails the test with its output; everything started here is stopped by pid in afterAll.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { render, ROOT } from './support/helm.ts';
import { freePort, startService, until, type ServiceProc } from './support/procs.ts';

const CHART = join(ROOT, 'helm/joke-app');
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const GUESTS_PER_IP = 4;

/** The lobby container's literal env for a values file. */
function lobbyEnv(values: object): Record<string, any> {
  const f = join(mkdtempSync(join(tmpdir(), 'helm-values-')), 'values.yaml');
  writeFileSync(f, JSON.stringify(values));
  const lobby = render(CHART, [f]).find(
    (d) => d.kind === 'Deployment' && d.metadata.labels?.['app.kubernetes.io/component'] === 'lobby',
  )!;
  return Object.fromEntries(
    lobby.spec.template.spec.containers[0].env.map((e: any) => [e.name, e.value ?? e.valueFrom]),
  );
}

describe('the chart sets the lobby up for its proxies', () => {
  it('one trusted hop behind the Ingress or a Gateway API route, none without; always the shared Redis', () => {
    expect(lobbyEnv({}).LOBBY_TRUST_PROXY_HOPS).toBe('1');
    expect(lobbyEnv({ ingress: { enabled: false } }).LOBBY_TRUST_PROXY_HOPS).toBe('0');
    const route = { ingress: { enabled: false }, httpRoute: { enabled: true, parentRefs: [{ name: 'public' }] } };
    expect(lobbyEnv(route).LOBBY_TRUST_PROXY_HOPS).toBe('1');
    expect(lobbyEnv({ trustedProxyHops: 2 }).LOBBY_TRUST_PROXY_HOPS).toBe('2');
    expect(lobbyEnv({}).REDIS_URL.secretKeyRef.key).toBe('REDIS_URL');
  });
});

describe('two lobbies behind a forwarding proxy', () => {
  const ns = `px_${randomUUID().slice(0, 8)}`;
  const lobbies: ServiceProc[] = [];
  const hits = [0, 0];
  let proxy: Server;
  let proxyPort = 0;

  beforeAll(async () => {
    const rendered = lobbyEnv({});
    const ports = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    // Both replicas start at once, as the chart's do (their schema migration takes a lock): one after the
    // other, the second start was a third of this file's time.
    const started = [0, 1].map(async (i) => {
      const lobby = startService('lobby', {
        JOKE_READY_LINE: '1',
        HOST: '127.0.0.1',
        PORT: String(ports[i]),
        OPS_HOST: '127.0.0.1',
        OPS_PORT: String(ports[2 + i]),
        JWT_SECRET: 'proxy-test-secret-0123456789abcdef0123',
        DATABASE_URL: `${PG_URL}?schema=${ns}`,
        REDIS_URL,
        JOKE_NAMESPACE: ns,
        LOBBY_TRUST_PROXY_HOPS: rendered.LOBBY_TRUST_PROXY_HOPS,
        LOBBY_RATE_GUEST_PER_IP: String(GUESTS_PER_IP),
      });
      lobbies.push(lobby);
      await until(
        () => {
          if (lobby.child.exitCode !== null) throw new Error(`lobby exited: ${lobby.out.join('')}`);
          return lobby.out.join('').includes('READY lobby');
        },
        // Two processes compiling and migrating at once on a loaded box: the bound is for a hang.
        140_000,
        `lobby ${i}`,
      );
    });
    await Promise.all(started);
    let next = 0;
    proxy = createServer((req, res) => {
      const i = next++ % 2;
      hits[i]++;
      const seen = req.headers['x-forwarded-for'];
      const up = request(
        {
          host: '127.0.0.1',
          port: ports[i],
          method: req.method,
          path: req.url,
          headers: { ...req.headers, 'x-forwarded-for': `${seen ? `${seen}, ` : ''}${req.socket.remoteAddress}` },
        },
        (r) => {
          res.writeHead(r.statusCode ?? 502, r.headers);
          r.pipe(res);
        },
      );
      up.on('error', () => res.writeHead(502).end());
      req.pipe(up);
    });
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    proxyPort = (proxy.address() as { port: number }).port;
  }, 180_000);

  afterAll(async () => {
    proxy?.close();
    await Promise.all(lobbies.map((l) => l.stop()));
    const db = new pg.Client({ connectionString: PG_URL });
    await db.connect();
    await db.query(`DROP SCHEMA IF EXISTS "${ns}" CASCADE`);
    await db.end();
  });

  /** A guest sign-in through the proxy from one loopback address; the HTTP status. */
  const signIn = (from: string, headers: Record<string, string> = {}) =>
    new Promise<number>((resolve, reject) => {
      const body = JSON.stringify({ nickname: '손님' });
      const req = request(
        {
          host: '127.0.0.1',
          port: proxyPort,
          localAddress: from,
          method: 'POST',
          path: '/trpc/auth.guest',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });

  it('limits each client, not the proxy, with counters shared by both replicas', async () => {
    const first: number[] = [];
    for (let i = 0; i < GUESTS_PER_IP; i++) first.push(await signIn('127.0.0.2'));
    expect(first).toEqual(Array(GUESTS_PER_IP).fill(200));
    // Both replicas served this client, neither alone up to the limit: only a shared counter refuses now.
    expect(hits[0]).toBeGreaterThan(0);
    expect(hits[1]).toBeGreaterThan(0);
    expect(Math.max(...hits)).toBeLessThan(GUESTS_PER_IP + 1);
    expect(await signIn('127.0.0.2')).toBe(429);
    expect(await signIn('127.0.0.2')).toBe(429); // on the other replica too
    // Another player behind the same proxy is untouched.
    expect(await signIn('127.0.0.3')).toBe(200);
    // A client cannot borrow another's counter (or dodge its own) by writing the header itself.
    expect(await signIn('127.0.0.4', { 'x-forwarded-for': '127.0.0.2' })).toBe(200);
    for (let i = 1; i < GUESTS_PER_IP; i++)
      expect(await signIn('127.0.0.3', { 'x-forwarded-for': `10.0.0.${i}` })).toBe(200);
    expect(await signIn('127.0.0.3', { 'x-forwarded-for': '10.9.9.9' })).toBe(429);
  });
});
