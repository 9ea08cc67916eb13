/**
 * Issue 38, the release artifact, run: scripts/build-release.mjs — the very command the image's build
 * stage runs — builds the release folder (compiled services, built client, pruned production
 * node_modules as copies) outside the repository. From that folder alone, with plain `node` (no tsx,
 * no NODE_OPTIONS, nothing resolving back into this checkout), a whole cluster starts on the real
 * NATS, Redis and PostgreSQL under a namespace of its own: 2 room workers, a matchmaker, a gateway
 * and a lobby serving the built client. A swarm of guests signed in through that lobby plays 20
 * one-card tables to the end with no error, and every service exits 0 on SIGTERM. afterAll stops
 * whatever still runs (by pid) and drops the namespace's PostgreSQL schema, Redis keys, JetStream
 * streams and the folder.
 *
 * Bounded for a loaded 2-core box: build 120 s, the stack's start-up, play and stop 240 s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { NatsBus } from '@joke/bus';
import { connectRedis } from '@joke/stores';
import { runSwarm, type SwarmRun } from '@joke/load-tests';
import { ROOT } from './support/helm.ts';
import { NATS_URL, REDIS_URL, until } from './cluster-harness.ts';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const ns = `c${randomBytes(4).toString('hex')}`;
const TABLES = 20;
/** The build stage's command line, read from the Dockerfile (checked below to be its only build). */
const DOCKERFILE = readFileSync(join(ROOT, 'infra/docker/Dockerfile'), 'utf8');
const BUILD_RUN = /^RUN node (scripts\/build-release\.mjs) (\/\S+)$/m;
let app: string;

interface Service {
  name: string;
  child: ChildProcess;
  out: string[];
  exited: Promise<number | null>;
}
const started: Service[] = [];

/**
 * A port free now, below Linux's ephemeral range (32768–60999): a port the kernel handed out for a `listen(0)`
 * comes from that range, where every outgoing socket of the suite's other lanes (to NATS, Redis, the
 * gateways) takes its local port too, and one took a worker's port between this check and its start
 * (EADDRINUSE, a loaded suite run). Random in 20000–32767, tried until one binds.
 */
async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    const ok = await new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (ok) return port;
  }
}

/** `node dist/services/<service>/main.js` in the release folder, with only the environment given (like the image's). */
function start(name: string, service: string, env: Record<string, string>): Service {
  const child = spawn(process.execPath, [`dist/services/${service}/main.js`], {
    cwd: app,
    env: {
      PATH: process.env.PATH,
      // As the image's ENV: production mode and the built client where the runtime stage puts it.
      NODE_ENV: 'production',
      CLIENT_DIR: join(app, 'client/dist'),
      NATS_URL,
      REDIS_URL,
      JOKE_NAMESPACE: ns,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  const keep = (b: Buffer) => {
    out.push(String(b));
    if (out.length > 400) out.splice(0, 100);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const s = { name, child, out, exited };
  started.push(s);
  return s;
}

const said = (s: Service) => `${s.name}:\n${s.out.join('').slice(-4000)}`;

async function httpOk(url: string): Promise<boolean> {
  return fetch(url).then(
    (r) => r.ok,
    () => false,
  );
}

/** Ready by its own /readyz; a process that exits meanwhile fails at once with what it printed. */
async function ready(s: Service, url: string): Promise<void> {
  await until(
    async () => {
      if (s.child.exitCode !== null) throw new Error(`${s.name} exited ${s.child.exitCode}\n${said(s)}`);
      return httpOk(url);
    },
    90_000,
    () => `${s.name} ready at ${url}\n${said(s)}`,
  );
}

beforeAll(() => {
  app = mkdtempSync(join(tmpdir(), 'joke-release-'));
  const [, script] = BUILD_RUN.exec(DOCKERFILE) ?? [];
  execFileSync(process.execPath, [join(ROOT, script ?? 'scripts/build-release.mjs'), app], {
    cwd: ROOT,
    stdio: 'pipe',
  });
}, 120_000);

afterAll(async () => {
  for (const s of started) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  await Promise.all(started.map((s) => s.exited));
  if (app) rmSync(app, { recursive: true, force: true });
  const db = new pg.Client({ connectionString: PG_URL });
  await db.connect();
  await db.query(`DROP SCHEMA IF EXISTS "${ns}" CASCADE`).finally(() => db.end());
  const redis = await connectRedis(REDIS_URL);
  for await (const keys of redis.scanIterator({ MATCH: `joke:${ns}:*`, COUNT: 1000 }))
    if (keys.length) await redis.del(keys);
  await redis.close();
  const bus = await NatsBus.connect(NATS_URL, { prefix: ns, createStreams: false });
  await bus.removeDurableStreams().finally(() => bus.close());
}, 60_000);

describe('the release folder', () => {
  it('is what the Dockerfile builds: one script, and the runtime stage copies exactly its parts', async () => {
    const { RELEASE_PARTS } = (await import(join(ROOT, 'scripts/build-release.mjs'))) as { RELEASE_PARTS: string[] };
    const build = BUILD_RUN.exec(DOCKERFILE);
    expect(build, 'the build stage runs `node scripts/build-release.mjs /<out>`').not.toBeNull();
    const out = build![2];
    // Nothing else in the Dockerfile builds or prunes on its own (that would be a second, untested build).
    expect(DOCKERFILE).not.toMatch(/build-services|prune-production|vite build|npm run build/);
    const copied = [...DOCKERFILE.matchAll(/^COPY --from=build (\S+) \.\/(\S+)$/gm)].map(([, from, to]) => [from, to]);
    expect(copied.sort()).toEqual(RELEASE_PARTS.map((p) => [`${out}/${p}`, p]).sort());
    // The folder this test built has those parts and nothing else.
    for (const p of RELEASE_PARTS) expect(existsSync(join(app, p)), p).toBe(true);
    expect(readdirSync(app).sort()).toEqual([...new Set(RELEASE_PARTS.map((p) => p.split('/')[0]))].sort());
  });

  it("stands alone: compiled JavaScript, copied packages, only this platform's uWebSockets.js binary", () => {
    const main = readFileSync(join(app, 'dist/services/gateway/main.js'), 'utf8');
    expect(main).not.toMatch(/from\s+["'][^"']+\.ts["']/);
    expect(main).not.toMatch(/["']tsx["']/);
    const links = readdirSync(join(app, 'node_modules'), { recursive: true, encoding: 'utf8' }).filter(
      (f) => !f.includes('/node_modules/.bin/') && lstatSync(join(app, 'node_modules', f)).isSymbolicLink(),
    );
    expect(links).toEqual([]);
    // The package ships 30 binaries (92 MB); the release keeps this platform's and ABI's (in its two folders).
    const uws = readdirSync(join(app, 'node_modules/uWebSockets.js'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.node'))
      .map((f) => basename(f));
    expect(uws.length).toBeGreaterThan(0);
    expect(new Set(uws)).toEqual(new Set([`uws_${process.platform}_${process.arch}_${process.versions.modules}.node`]));
    expect(readdirSync(join(app, 'node_modules'))).not.toContain('tsx');
  });

  it('the Dockerfile copies every workspace manifest before `npm ci`, and runs as non-root', () => {
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
    const copied = [...DOCKERFILE.matchAll(/^COPY (\S+)\/package\.json /gm)].map((m) => m[1]).sort();
    const workspaces = root.workspaces.flatMap((w) =>
      w.endsWith('/*')
        ? readdirSync(join(ROOT, w.slice(0, -2)), { withFileTypes: true })
            .filter((d) => d.isDirectory() && existsSync(join(ROOT, w.slice(0, -2), d.name, 'package.json')))
            .map((d) => `${w.slice(0, -2)}/${d.name}`)
        : [w],
    );
    expect(copied).toEqual(workspaces.sort());
    expect(DOCKERFILE.indexOf('RUN npm ci')).toBeLessThan(DOCKERFILE.indexOf('COPY . .'));
    expect(DOCKERFILE).toMatch(/^USER node$/m);
  });

  it(`runs a cluster with plain node: ${TABLES} swarm tables play to the end with no error, every service exits 0 on SIGTERM`, async () => {
    const t0 = Date.now();
    const phase = (what: string) => process.stderr.write(`  ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    const secret = randomBytes(32).toString('hex');
    const [w0, w1, mm, gw, lb] = await Promise.all([1, 2, 3, 4, 5].map(() => freePort()));
    // Tracing on where the services trace, so the OpenTelemetry SDK (loaded only then) must be in the pruned
    // tree; no action is sampled, so nothing is sent to the endpoint where nothing listens.
    const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9', OTEL_TRACES_SAMPLER_ARG: '0' };
    const workers = [w0, w1].map((port, i) =>
      start(`worker-${i}`, 'room-worker', {
        WORKER_ID: `${ns}-w${i}`,
        SHARD: String(i),
        OPS_PORT: String(port),
        ...tracing,
      }),
    );
    const matchmaker = start('matchmaker', 'matchmaker', {
      MATCHMAKER_ID: `${ns}-mm`,
      OPS_PORT: String(mm),
      // Every bot quick-matches from one address: the per-address budgets are for browsers (0 = off).
      QUEUE_RATE_PER_ADDRESS: '0',
      QUEUE_TABLES_PER_ADDRESS: '0',
    });
    // info: its start-up line says whether the pruned uWebSockets.js loaded its native binary.
    const gateway = start('gateway', 'gateway', {
      PORT: String(gw),
      OPS_PORT: '0',
      JWT_SECRET: secret,
      LOG_LEVEL: 'info',
      ...tracing,
    });
    const lobby = start('lobby', 'lobby', {
      HOST: '127.0.0.1',
      PORT: String(lb),
      OPS_PORT: '0',
      JWT_SECRET: secret,
      DATABASE_URL: `${PG_URL}?schema=${ns}`,
      SERVE_CLIENT: 'true',
      // 80 guests sign in from one address within seconds: the per-address limit is for browsers (0 = off).
      LOBBY_RATE_GUEST_PER_IP: '0',
    });
    await Promise.all([
      ...workers.map((w, i) => ready(w, `http://127.0.0.1:${[w0, w1][i]}/readyz`)),
      ready(matchmaker, `http://127.0.0.1:${mm}/readyz`),
      ready(gateway, `http://127.0.0.1:${gw}/readyz`),
      ready(lobby, `http://127.0.0.1:${lb}/readyz`),
    ]);
    // Placement needs both workers' heartbeats at the matchmaker.
    const liveWorkers = async () =>
      Number(
        /^joke_matchmaker_live_workers (\d+)$/m.exec(
          await fetch(`http://127.0.0.1:${mm}/metrics`).then((r) => r.text()),
        )?.[1] ?? 0,
      );
    await until(
      async () => (await liveWorkers()) === 2,
      60_000,
      () => `2 live workers\n${said(matchmaker)}`,
    );
    phase('cluster ready');
    expect(gateway.out.join('')).toMatch(/uWebSockets\.js native binary loaded/);
    // The lobby serves the client the release built.
    const page = await fetch(`http://127.0.0.1:${lb}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<script type="module"[^>]*src="\.\/assets\//);

    const run: SwarmRun = await runSwarm(
      {
        url: `ws://127.0.0.1:${gw}/ws`,
        // Guests signed in through the compiled lobby, like browsers.
        lobby: `http://127.0.0.1:${lb}/trpc`,
        auth: 'guest',
        game: 'one-card',
        mode: 'classic',
        players: 4,
        tables: TABLES,
        rampMs: 1000,
        think: { meanMs: 40 },
        // One game per table, to its end; the duration only bounds a stuck run.
        untilFinished: true,
        duration: 150,
        liveMs: 0,
      },
      { log: (line) => process.stderr.write(`  swarm ${line}\n`) },
    );
    const r = run.report;
    const logs = () => started.map(said).join('\n');
    phase(`swarm done: ${JSON.stringify(r)}`);
    expect(r.seated, logs()).toBeGreaterThanOrEqual(TABLES);
    expect(r.finished, logs()).toBeGreaterThanOrEqual(TABLES);
    expect(r.actions).toBeGreaterThan(0);
    expect({ errors: r.errors, warmupErrors: r.warmupErrors, kinds: r.errorKinds }, logs()).toEqual({
      errors: 0,
      warmupErrors: 0,
      kinds: {},
    });
    // The lobby stored every game (its durable consumer, Prisma on the pruned packages).
    const db = new pg.Client({ connectionString: PG_URL });
    await db.connect();
    try {
      const games = async () => Number((await db.query(`SELECT count(*) AS n FROM "${ns}".games`)).rows[0].n);
      await until(
        async () => (await games()) >= TABLES,
        30_000,
        () => `${TABLES} games stored\n${said(lobby)}`,
      );
    } finally {
      await db.end();
    }

    // Front to back, as a rollout would: nothing new arrives at a service while it stops.
    for (const s of [gateway, lobby, matchmaker, ...workers]) {
      s.child.kill('SIGTERM');
      const code = await Promise.race([s.exited, new Promise((r) => setTimeout(() => r('still running'), 30_000))]);
      expect(code, said(s)).toBe(0);
    }
    phase('all stopped');
  }, 240_000);
});
