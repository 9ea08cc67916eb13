/**
 * Issue 36: `GET /%` (any malformed percent-encoding) threw out of the static
 * handler and ended `npm start` with every live table, and the standalone lobby
 * serving the client (the chart's SERVE_CLIENT=true, NODE_ENV=production) the
 * same way. Both run here as real processes: each malformed URL is answered
 * 400, the process is still alive and serving afterwards, and its last resort
 * never had to catch anything.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rmSync } from 'node:fs';
import {
  fakeClientDir,
  freshSchema,
  rawRequest,
  startLobbyProcess,
  startProductProcess,
  type LiveProcess,
} from './support/live-process.ts';

// A process start compiles TypeScript and migrates a schema: tens of seconds on a loaded box.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 200_000 });

const MALFORMED = [
  '/%',
  '/%zz',
  '/%E0%A4%A',
  '/assets/%',
  '/%C0%AF',
  '/a%',
  '/trpc/%',
  '/config.json%',
  '/%%%',
  '/%00',
];
const clientDir = fakeClientDir();
const schemas = [freshSchema('badurl_p'), freshSchema('badurl_l')];
const procs: LiveProcess[] = [];

afterAll(async () => {
  for (const p of procs) await p.stop();
  for (const s of schemas) await s.drop();
  rmSync(clientDir, { recursive: true, force: true });
});

async function check(p: LiveProcess): Promise<void> {
  for (const path of MALFORMED) {
    const status = await rawRequest(p.httpUrl, `GET ${path} HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n`);
    expect({ path, status }).toEqual({ path, status: path.startsWith('/trpc/') ? expect.any(Number) : 400 });
    expect(status).toBeLessThan(500);
  }
  // Still serving: probes, a page, the config, and nothing needed the last resort.
  expect((await fetch(`${p.httpUrl}/healthz`)).status).toBe(200);
  const page = await fetch(`${p.httpUrl}/`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('<title>joke</title>');
  expect((await fetch(`${p.httpUrl}/config.json`)).status).toBe(200);
  // Lobby JSON, probes and the ops port say nosniff and refuse framing too.
  for (const url of [`${p.httpUrl}/trpc/games.list`, `${p.httpUrl}/readyz`, `${p.opsUrl}/metrics`]) {
    const r = await fetch(url);
    expect({ url, nosniff: r.headers.get('x-content-type-options') }).toEqual({ url, nosniff: 'nosniff' });
    expect(r.headers.get('x-frame-options')).toBe('DENY');
  }
  // /metrics never on the public port (there it is just a page route of the client).
  expect(await (await fetch(`${p.httpUrl}/metrics`)).text()).not.toMatch(/# HELP|# TYPE/);
  expect(await (await fetch(`${p.opsUrl}/metrics`)).text()).toMatch(/# HELP/);
  expect(p.alive()).toBe(true);
  expect(p.lastResortLines()).toEqual([]);
}

describe('a malformed percent-encoding is a 400, never the end of the process', () => {
  let product: LiveProcess;
  let lobby: LiveProcess;
  beforeAll(async () => {
    [product, lobby] = await Promise.all([
      startProductProcess({ DATABASE_URL: schemas[0].url, CLIENT_DIR: clientDir }),
      startLobbyProcess({
        DATABASE_URL: schemas[1].url,
        CLIENT_DIR: clientDir,
        SERVE_CLIENT: 'true',
        NODE_ENV: 'production',
        JWT_SECRET: 'q'.repeat(40),
      }),
    ]);
    procs.push(product, lobby);
  });

  it('npm start (the embedded platform) answers 400 and keeps serving', async () => {
    await check(product);
    // The WebSocket gateway of the same process is still up too.
    expect((await fetch(product.gatewayUrl.replace(/^ws/, 'http').replace(/\/ws$/, '/healthz'))).status).toBe(200);
  });

  it('the standalone lobby with SERVE_CLIENT=true NODE_ENV=production answers 400 and keeps serving', async () => {
    await check(lobby);
    expect((await fetch(`${lobby.opsUrl}/healthz`)).status).toBe(200);
  });
});
