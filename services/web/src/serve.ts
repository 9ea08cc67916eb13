/**
 * Node-side helper for whoever serves the built client (the embedded
 * platform, tests): static files from client/dist plus GET /config.json,
 * which tells the page where the gateway is. Import as `@joke/web`.
 *
 *   platform.mountHttp('/', clientHandler({ gatewayPort: 8081 }))
 *
 * With `gatewayPort`, the gateway URL uses the host name the browser used for
 * the page only when that name is this machine's (headers.ts), so a phone on
 * the LAN reaches the same machine's gateway and a forged Host is never echoed.
 * Every response carries the security headers of headers.ts (a page its CSP).
 *
 * Failure modes: a URL that cannot be decoded (`GET /%`) is 400; a dev page
 * (harness.html) without `devPages` is 404; a missing build is 503; anything
 * that throws while answering is this request's 500, never the process's end.
 *
 * Hashed files under /assets/ are cached by browsers for a year (their name
 * changes with their content); text files go out brotli- or gzip-compressed
 * (serve-compressed.ts).
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompressedCache, compressible, pickEncoding } from './serve-compressed.ts';
import { ICON_SIZES, webManifest } from './brand.ts';
import { iconPng } from './icons.ts';
import { BASE_SECURITY_HEADERS, gatewayUrlFor, originOf, pagePolicy, type GatewayTarget } from './headers.ts';

export { gatewayUrlFor, pagePolicy, BASE_SECURITY_HEADERS, machineNames } from './headers.ts';

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

export interface ClientHandlerOptions extends GatewayTarget {
  /** Built client directory (default client/dist). */
  dir?: string;
  /** Serve the development pages (harness.html); off in every production composition. */
  devPages?: boolean;
}

/** Pages only a development build serves: the table harness renders engines in the page, with no server. */
const DEV_PAGES = new Set(['/harness.html']);

/** The request's decoded path, or null when its URL cannot be read (a malformed %-escape, a NUL). */
function pathOf(req: IncomingMessage): string | null {
  try {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    return path.includes('\0') ? null : path;
  } catch {
    return null;
  }
}

export function clientHandler(opts: ClientHandlerOptions = {}): (req: IncomingMessage, res: ServerResponse) => void {
  const dir = normalize(opts.dir ?? CLIENT_DIST);
  const compressed = new CompressedCache();
  const plain = (res: ServerResponse, status: number, body: string, extra: OutgoingHttpHeaders = {}): void => {
    res.writeHead(status, { ...BASE_SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8', ...extra });
    res.end(body);
  };
  const serve = (req: IncomingMessage, res: ServerResponse): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return plain(res, 405, 'method not allowed\n', { allow: 'GET, HEAD' });
    const path = pathOf(req);
    if (path === null) return plain(res, 400, 'bad request: malformed URL\n');
    if (path === '/config.json') {
      res.writeHead(200, { ...BASE_SECURITY_HEADERS, 'content-type': TYPES['.json'], 'cache-control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : JSON.stringify({ gatewayUrl: gatewayUrlFor(req, opts) }));
      return;
    }
    const brand = brandFile(path);
    if (brand) {
      res.writeHead(200, {
        ...BASE_SECURITY_HEADERS,
        'content-type': brand.type,
        'content-length': String(brand.body.length),
        'cache-control': 'public, max-age=86400',
      });
      res.end(req.method === 'HEAD' ? undefined : brand.body);
      return;
    }
    if (DEV_PAGES.has(path) && !opts.devPages) return plain(res, 404, 'not found\n');
    if (!existsSync(join(dir, 'index.html')))
      return plain(res, 503, 'client not built: run `npm run build -w client`\n');
    let file = normalize(join(dir, path));
    if (file !== dir && !file.startsWith(dir + sep)) return plain(res, 404, 'not found\n');
    const isFile = existsSync(file) && statSync(file).isFile();
    if (!isFile) {
      // Unknown asset: a real 404. Anything else is a page route: the app itself.
      if (path.startsWith('/assets/') || extname(path) !== '') return plain(res, 404, 'not found\n');
      file = join(dir, 'index.html');
    }
    const hashed = path.startsWith('/assets/');
    const stat = statSync(file);
    const headers: OutgoingHttpHeaders = {
      ...BASE_SECURITY_HEADERS,
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    // A page gets the policy that lets the client run: its scripts, fonts and its one gateway.
    if (extname(file) === '.html') headers['content-security-policy'] = pagePolicy(originOf(gatewayUrlFor(req, opts)));
    const encoding = compressible(extname(file), stat.size) ? pickEncoding(req.headers['accept-encoding']) : null;
    if (compressible(extname(file), stat.size)) headers.vary = 'accept-encoding';
    if (!encoding) {
      res.writeHead(200, { ...headers, 'content-length': String(stat.size) });
      if (req.method === 'HEAD') res.end();
      else
        createReadStream(file)
          .on('error', () => res.destroy())
          .pipe(res);
      return;
    }
    compressed.get(file, stat.mtimeMs, encoding).then(
      (body) => {
        res.writeHead(200, { ...headers, 'content-encoding': encoding, 'content-length': String(body.length) });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => {
        if (res.headersSent) res.destroy();
        else plain(res, 500, 'read failed\n');
      },
    );
  };
  return (req, res) => {
    try {
      serve(req, res);
    } catch {
      // A file vanished between the checks (a rebuild) or the like: this request fails, never the process.
      if (res.headersSent) res.destroy();
      else plain(res, 500, 'internal error\n');
    }
  };
}
