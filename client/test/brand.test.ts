/**
 * One platform name (issue 15 item 8): the page title and the PWA manifest
 * come from brand.ts, and the client server hands out the manifest and its
 * icons as real PNGs of the listed sizes (decoded here pixel by pixel).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { BRAND, ICON_SIZES, PAGE_TITLE } from '@joke/web/brand';
import { clientHandler } from '@joke/web';

let dir: string;
let server: Server;
let base: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'joke-brand-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html>');
  server = createServer(clientHandler({ dir, gatewayUrl: 'ws://x/ws' }));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

/** Width, height and RGBA rows of a non-interlaced 8-bit RGBA PNG with filter 0 (what icons.ts writes). */
function decodePng(png: Buffer): { w: number; h: number; at: (x: number, y: number) => number[] } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let off = 8;
  let w = 0;
  let h = 0;
  const idat: Buffer[] = [];
  while (off < png.length) {
    const len = png.readUInt32BE(off);
    const type = png.toString('ascii', off + 4, off + 8);
    const data = png.subarray(off + 8, off + 8 + len);
    if (type === 'IHDR') {
      w = data.readUInt32BE(0);
      h = data.readUInt32BE(4);
      expect([data[8], data[9]]).toEqual([8, 6]);
    }
    if (type === 'IDAT') idat.push(data);
    off += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  expect(raw.length).toBe(h * (w * 4 + 1));
  return { w, h, at: (x, y) => [...raw.subarray(y * (w * 4 + 1) + 1 + x * 4, y * (w * 4 + 1) + 1 + x * 4 + 4)] };
}

describe('platform branding', () => {
  it('names the platform, not one game, in the page title and meta tags', () => {
    const html = readFileSync(new URL('../index.html', import.meta.url), 'utf8');
    expect(html).toContain(`<title>${PAGE_TITLE}</title>`);
    expect(PAGE_TITLE.startsWith(BRAND.name)).toBe(true);
    expect(html).toContain(`content="${BRAND.name}"`);
    expect(html).toContain(`content="${BRAND.tagline}"`);
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect(html).not.toContain('원카드 온라인');
    for (const game of ['원카드', '포커', '훌라']) expect(BRAND.tagline).toContain(game);
  });

  it('serves a manifest a phone can install from, with every listed icon a PNG of its size', async () => {
    const res = await fetch(`${base}/manifest.webmanifest`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/manifest+json');
    const m = (await res.json()) as {
      name: string;
      short_name: string;
      display: string;
      start_url: string;
      lang: string;
      icons: { src: string; sizes: string; type: string }[];
    };
    expect([m.name, m.short_name, m.display, m.start_url, m.lang]).toEqual([
      BRAND.name,
      BRAND.name,
      'standalone',
      '/',
      'ko',
    ]);
    expect(m.icons.map((i) => i.sizes)).toEqual(ICON_SIZES.map((s) => `${s}x${s}`));
    for (const icon of m.icons) {
      const r = await fetch(base + icon.src);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/png');
      const png = decodePng(Buffer.from(await r.arrayBuffer()));
      const size = Number(icon.sizes.split('x')[0]);
      expect([png.w, png.h]).toEqual([size, size]);
      // Felt in the corner (the part a round mask cuts off), a light card face near the centre.
      expect(png.at(0, 0)).toEqual([0x17, 0x5c, 0x3c, 255]);
      const face = png.at(Math.round(size * 0.5), Math.round(size * 0.32));
      expect(Math.min(...face.slice(0, 3))).toBeGreaterThan(200);
    }
    expect((await fetch(`${base}/apple-touch-icon.png`)).status).toBe(200);
    expect((await fetch(`${base}/icons/icon-77.png`)).status).toBe(404);
  });
});
