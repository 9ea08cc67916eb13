/**
 * Node-side helper for whoever serves the built client (the embedded
 * platform, tests): static files from client/dist plus GET /config.json,
 * which tells the page where the gateway is. Import as `@joke/web`.
 *
 *   platform.mountHttp('/', clientHandler({ gatewayPort: 8081 }))
 *
 * With `gatewayPort`, the gateway URL uses the host name the browser used for
 * the page, so a phone on the LAN reaches the same machine's gateway.
 *
 * Hashed files under /assets/ are cached by browsers for a year (their name
 * changes with their content); text files go out brotli- or gzip-compressed
 * (serve-compressed.ts).
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompressedCache, compressible, pickEncoding } from './serve-compressed.ts';
import { ICON_SIZES, webManifest } from './brand.ts';
import { iconPng } from './icons.ts';

export const CLIENT_DIST = fileURLToPath(new URL('../../../client/dist', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
};

/** The PWA manifest and its icons, made in code (brand.ts, icons.ts) rather than kept as files. */
function brandFile(path: string): { type: string; body: Buffer } | null {
  if (path === '/manifest.webmanifest')
    return { type: TYPES['.webmanifest'], body: Buffer.from(JSON.stringify(webManifest())) };
  const icon = /^\/icons\/icon-(\d+)\.png$/.exec(path);
  const size = icon ? Number(icon[1]) : path === '/apple-touch-icon.png' ? 192 : 0;
  if ((ICON_SIZES as readonly number[]).includes(size)) return { type: TYPES['.png'], body: iconPng(size) };
  return null;
}

export interface ClientHandlerOptions {
  /** Built client directory (default client/dist). */
  dir?: string;
  /** Fixed gateway URL for /config.json (e.g. behind a proxy: wss://example.com/ws). */
  gatewayUrl?: string;
  /** Or: the gateway's port on the host the page was loaded from. */
  gatewayPort?: number;
}

function hostName(req: IncomingMessage): string {
  const host = req.headers.host ?? '127.0.0.1';
  // Strip the port, keeping IPv6 brackets: "[::1]:8080" → "[::1]".
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
}

export function gatewayUrlFor(req: IncomingMessage, opts: ClientHandlerOptions): string {
  if (opts.gatewayUrl) return opts.gatewayUrl;
  const secure = req.headers['x-forwarded-proto'] === 'https';
  return `${secure ? 'wss' : 'ws'}://${hostName(req)}:${opts.gatewayPort ?? 8081}/ws`;
}

export function clientHandler(opts: ClientHandlerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const dir = normalize(opts.dir ?? CLIENT_DIST);
  const compressed = new CompressedCache();
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (path === '/config.json') {
      res.writeHead(200, { 'content-type': TYPES['.json'], 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ gatewayUrl: gatewayUrlFor(req, opts) }));
      return;
    }
    const brand = brandFile(path);
    if (brand) {
      res.writeHead(200, {
        'content-type': brand.type,
        'content-length': String(brand.body.length),
        'cache-control': 'public, max-age=86400',
        'x-content-type-options': 'nosniff',
      });
      res.end(req.method === 'HEAD' ? undefined : brand.body);
      return;
    }
    if (!existsSync(join(dir, 'index.html'))) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('client not built: run `npm run build -w client`');
      return;
    }
    let file = normalize(join(dir, path));
    if (file !== dir && !file.startsWith(dir + sep)) {
      res.writeHead(404).end();
      return;
    }
    const isFile = existsSync(file) && statSync(file).isFile();
    if (!isFile) {
      // Unknown asset: a real 404. Anything else is a page route: the app itself.
      if (path.startsWith('/assets/') || extname(path) !== '') {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
        return;
      }
      file = join(dir, 'index.html');
    }
    const hashed = path.startsWith('/assets/');
    const stat = statSync(file);
    const headers: Record<string, string> = {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
      'x-content-type-options': 'nosniff',
    };
    const encoding = compressible(extname(file), stat.size) ? pickEncoding(req.headers['accept-encoding']) : null;
    if (compressible(extname(file), stat.size)) headers.vary = 'accept-encoding';
    if (!encoding) {
      res.writeHead(200, { ...headers, 'content-length': String(stat.size) });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
      return;
    }
    compressed.get(file, stat.mtimeMs, encoding).then(
      (body) => {
        res.writeHead(200, { ...headers, 'content-encoding': encoding, 'content-length': String(body.length) });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('read failed');
      },
    );
  };
}
