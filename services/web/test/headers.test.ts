/**
 * Security headers and /config.json of the static handler (issue 36): every
 * answer says nosniff, may not be framed and sends no referrer; a page carries
 * the CSP that lets the client reach only its own origin and its one gateway;
 * /config.json comes from configuration, never from a forged Host header; the
 * development harness is not served unless asked; an unreadable URL is 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientHandler, machineNames, type ClientHandlerOptions } from '../src/serve.ts';

let dir: string;
const servers: Server[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'joke-headers-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>joke</title>');
  writeFileSync(join(dir, 'harness.html'), '<!doctype html><title>harness</title>');
  writeFileSync(join(dir, 'assets/index-1.js'), 'export {};');
});
afterAll(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  rmSync(dir, { recursive: true, force: true });
});

async function serve(opts: ClientHandlerOptions): Promise<number> {
  const server = createServer(clientHandler({ dir, ...opts }));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

/** node:http, so the path and Host go out exactly as written. */
function get(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, any>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const everywhere = (h: Record<string, any>) => {
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['x-frame-options']).toBe('DENY');
  expect(h['referrer-policy']).toBe('no-referrer');
  expect(h['content-security-policy']).toMatch(/frame-ancestors 'none'/);
};

describe('security headers', () => {
  it('a page gets the client CSP naming its gateway; every other answer the base headers', async () => {
    const port = await serve({ gatewayUrl: 'wss://play.example.com/ws' });
    const page = await get(port, '/');
    expect(page.status).toBe(200);
    everywhere(page.headers);
    const csp: string = page.headers['content-security-policy'];
    for (const d of [
      "default-src 'self'",
      "script-src 'self'",
      "connect-src 'self' wss://play.example.com",
      "object-src 'none'",
      "base-uri 'none'",
    ])
      expect(csp).toContain(d);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    for (const path of [
      '/config.json',
      '/assets/index-1.js',
      '/manifest.webmanifest',
      '/icons/icon-192.png',
      '/nope.js',
    ])
      everywhere((await get(port, path)).headers);
  });

  it('an unreadable URL is 400 with the headers, and the server goes on', async () => {
    const port = await serve({});
    for (const path of ['/%', '/%zz', '/%E0%A4%A', '/x%00y']) {
      const r = await get(port, path);
      expect({ path, status: r.status }).toEqual({ path, status: 400 });
      everywhere(r.headers);
    }
    expect((await get(port, '/')).status).toBe(200);
  });

  it('harness.html only when development pages are asked for', async () => {
    expect((await get(await serve({}), '/harness.html')).status).toBe(404);
    const dev = await get(await serve({ devPages: true }), '/harness.html');
    expect(dev.status).toBe(200);
    expect(dev.body).toContain('harness');
  });
});

describe('/config.json from configuration', () => {
  const gatewayOf = async (port: number, host?: string) =>
    JSON.parse((await get(port, '/config.json', host ? { host } : {})).body).gatewayUrl;

  it('a fixed gateway URL wins over any Host', async () => {
    const port = await serve({ gatewayUrl: 'wss://play.example.com/ws', gatewayPort: 9999 });
    expect(await gatewayOf(port, 'evil.example.com')).toBe('wss://play.example.com/ws');
  });

  it("the page's host only when it names this machine (LAN play); a forged Host gets the fallback", async () => {
    const port = await serve({ gatewayPort: 8181, fallbackHost: '127.0.0.1' });
    expect(await gatewayOf(port, `127.0.0.1:${port}`)).toBe('ws://127.0.0.1:8181/ws');
    expect(await gatewayOf(port, `localhost:${port}`)).toBe('ws://localhost:8181/ws');
    // A phone on the LAN opened the page by one of this machine's addresses: the same address it gets.
    const lan = [...machineNames()].find((n) => /^\d+\.\d+\.\d+\.\d+$/.test(n) && n !== '127.0.0.1');
    if (lan) expect(await gatewayOf(port, `${lan}:${port}`)).toBe(`ws://${lan}:8181/ws`);
    for (const forged of [
      'evil.example.com',
      'evil.example.com:8080',
      '"><script>',
      '[::ffff:1.2.3.4]',
      'x'.repeat(300),
    ])
      expect(await gatewayOf(port, forged)).toBe('ws://127.0.0.1:8181/ws');
    // The page's CSP follows the same choice: the forged host is not allowed to connect either.
    const page = await get(port, '/', { host: 'evil.example.com' });
    expect(page.headers['content-security-policy']).toContain("connect-src 'self' ws://127.0.0.1:8181");
    expect(page.headers['content-security-policy']).not.toContain('evil');
  });
});
