/**
 * The static handler of the built client (src/serve.ts): hashed assets are
 * cached for a year and pages revalidate; text files go out brotli or gzip as
 * the browser accepts, byte-identical once decoded; fonts and tiny files go
 * out as they are; HEAD, 404s and path escapes behave.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request, type Server } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { clientHandler } from '../src/serve.ts';
import { pickEncoding } from '../src/serve-compressed.ts';

let dir: string;
let server: Server;
let base: string;
const js = `export const cards = ${JSON.stringify(Array.from({ length: 2000 }, (_, i) => `카드-${i}`))};\n`;
const font = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256));

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'joke-serve-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), `<!doctype html><title>joke</title>${'<!-- pad -->'.repeat(200)}`);
  writeFileSync(join(dir, 'assets/phaser-abc123.js'), js);
  writeFileSync(join(dir, 'assets/Pretendard-Regular.subset-x1.woff2'), font);
  writeFileSync(join(dir, 'assets/tiny-1.css'), 'a{}');
  server = createServer(clientHandler({ dir, gatewayUrl: 'wss://play.example.com/ws' }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

/** Raw response (node:http, so no transparent decompression hides the encoding). */
function get(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, any>; body: Buffer }>((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('client static handler', () => {
  it('sends a hashed script brotli-compressed when accepted, cached for a year, identical once decoded', async () => {
    const r = await get('/assets/phaser-abc123.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('br');
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.headers.vary).toBe('accept-encoding');
    expect(Number(r.headers['content-length'])).toBe(r.body.length);
    expect(r.body.length).toBeLessThan(Buffer.byteLength(js) / 4);
    expect(brotliDecompressSync(r.body).toString()).toBe(js);
  });

  it('falls back to gzip, then to the raw file, as Accept-Encoding says', async () => {
    const g = await get('/assets/phaser-abc123.js', { 'accept-encoding': 'gzip, br;q=0' });
    expect(g.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(g.body).toString()).toBe(js);
    const raw = await get('/assets/phaser-abc123.js');
    expect(raw.headers['content-encoding']).toBeUndefined();
    expect(raw.body.toString()).toBe(js);
  });

  it('pages revalidate on every load (no-cache) and are compressed too', async () => {
    const r = await get('/', { 'accept-encoding': 'gzip' });
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(r.body).toString()).toMatch(/^<!doctype html>/);
  });

  it('fonts and tiny files go out as they are', async () => {
    const f = await get('/assets/Pretendard-Regular.subset-x1.woff2', { 'accept-encoding': 'br' });
    expect(f.headers['content-encoding']).toBeUndefined();
    expect(f.headers['content-type']).toBe('font/woff2');
    expect(f.body.equals(font)).toBe(true);
    const c = await get('/assets/tiny-1.css', { 'accept-encoding': 'br' });
    expect(c.headers['content-encoding']).toBeUndefined();
    expect(c.body.toString()).toBe('a{}');
  });

  it('HEAD gives the compressed length without a body; unknown assets are 404; no path escapes', async () => {
    const h = await get('/assets/phaser-abc123.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect(h.headers['content-encoding']).toBe('br');
    expect(Number(h.headers['content-length'])).toBeGreaterThan(0);
    expect(h.body.length).toBe(0);
    expect((await get('/assets/missing-1.js')).status).toBe(404);
    expect((await get('/..%2f..%2fetc%2fpasswd')).status).toBe(404);
    const cfg = await get('/config.json');
    expect(JSON.parse(cfg.body.toString())).toEqual({ gatewayUrl: 'wss://play.example.com/ws' });
  });

  it('reads Accept-Encoding like browsers and proxies write it', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip;q=1.0, br;q=0')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('br;q=0, gzip;q=0')).toBeNull();
  });
});
