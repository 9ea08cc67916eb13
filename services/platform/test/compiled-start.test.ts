/**
 * The production layout, without Docker: the services compiled by
 * scripts/build-services.mjs, next to a node_modules holding only what
 * scripts/prune-production.mjs ships (linked, run with --preserve-symlinks so
 * a package missing from that tree fails here as it would in the image), in a
 * folder outside the repository. Every service starts with `node` alone — no
 * tsx, no TypeScript — on the real NATS, Redis and PostgreSQL, turns ready,
 * and stops cleanly on SIGTERM.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { ROOT } from './support/helm.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const ns = `c${randomBytes(4).toString('hex')}`;
let app: string;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function waitReady(url: string, child: ChildProcess, out: string[]): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${out.join('')}`);
    const ok = await fetch(url).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-services.mjs')], { cwd: ROOT, stdio: 'pipe' });
  app = mkdtempSync(join(tmpdir(), 'joke-image-'));
  cpSync(join(ROOT, 'dist'), join(app, 'dist'), { recursive: true });
  execFileSync(
    process.execPath,
    [join(ROOT, 'scripts/prune-production.mjs'), join(ROOT, 'node_modules'), join(app, 'node_modules'), '--link'],
    { cwd: ROOT, stdio: 'pipe' },
  );
}, 120_000);

afterAll(async () => {
  if (app) rmSync(app, { recursive: true, force: true });
  const db = new pg.Client({ connectionString: PG_URL });
  await db.connect();
  await db.query(`DROP SCHEMA IF EXISTS "${ns}" CASCADE`);
  await db.end();
});

describe('compiled services in the production layout', () => {
  it('the bundles contain no TypeScript import and no tsx', () => {
    const main = readFileSync(join(app, 'dist/services/gateway/main.js'), 'utf8');
    expect(main).not.toMatch(/from\s+["'][^"']+\.ts["']/);
    expect(main).not.toMatch(/["']tsx["']/);
  });

  it('the Dockerfile copies every workspace manifest before `npm ci`, and runs as non-root', () => {
    const docker = readFileSync(join(ROOT, 'infra/docker/Dockerfile'), 'utf8');
    const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces: string[] };
    const copied = [...docker.matchAll(/^COPY (\S+)\/package\.json /gm)].map((m) => m[1]).sort();
    const workspaces = root.workspaces.flatMap((w) =>
      w.endsWith('/*')
        ? readdirSync(join(ROOT, w.slice(0, -2)), { withFileTypes: true })
            .filter((d) => d.isDirectory() && existsSync(join(ROOT, w.slice(0, -2), d.name, 'package.json')))
            .map((d) => `${w.slice(0, -2)}/${d.name}`)
        : [w],
    );
    expect(copied).toEqual(workspaces.sort());
    expect(docker.indexOf('RUN npm ci')).toBeLessThan(docker.indexOf('COPY . .'));
    expect(docker).toMatch(/^USER node$/m);
  });

  // Tracing on where the services trace, so the OpenTelemetry SDK (loaded only then) must be in the pruned
  // tree; nothing listens at the endpoint and no action is played, so no span is ever sent.
  const OTEL_EXPORTER_OTLP_ENDPOINT = 'http://127.0.0.1:9';
  const services: [string, (port: number) => Record<string, string>][] = [
    [
      'room-worker',
      (port) => ({ OPS_PORT: String(port), WORKER_ID: `${ns}-w0`, REDIS_URL, OTEL_EXPORTER_OTLP_ENDPOINT }),
    ],
    ['matchmaker', (port) => ({ OPS_PORT: String(port), REDIS_URL })],
    [
      'gateway',
      (port) => ({ PORT: String(port), OPS_PORT: '0', JWT_SECRET: 'k'.repeat(40), OTEL_EXPORTER_OTLP_ENDPOINT }),
    ],
    [
      'lobby',
      (port) => ({
        PORT: String(port),
        OPS_PORT: '0',
        HOST: '127.0.0.1',
        JWT_SECRET: 'k'.repeat(40),
        DATABASE_URL: `${PG_URL}?schema=${ns}`,
        SERVE_CLIENT: 'true',
      }),
    ],
  ];
  for (const [service, env] of services) {
    it(`${service}: \`node dist/services/${service}/main.js\` starts, is ready, and exits 0 on SIGTERM`, async () => {
      const port = await freePort();
      const out: string[] = [];
      const child = spawn(process.execPath, ['--preserve-symlinks', `dist/services/${service}/main.js`], {
        cwd: app,
        env: {
          PATH: process.env.PATH,
          NODE_ENV: 'production',
          NATS_URL,
          JOKE_NAMESPACE: ns,
          LOG_LEVEL: 'warn',
          ...env(port),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout!.on('data', (b) => out.push(String(b)));
      child.stderr!.on('data', (b) => out.push(String(b)));
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      try {
        await waitReady(`http://127.0.0.1:${port}/readyz`, child, out);
        child.kill('SIGTERM');
        expect(await exited, out.join('')).toBe(0);
      } finally {
        if (child.exitCode === null) child.kill('SIGKILL');
      }
    }, 60_000);
  }
});
