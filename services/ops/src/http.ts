/**
 * The ops HTTP endpoint every service exposes (node:http): GET /healthz
 * (liveness: the event loop is not stuck, liveness.ts), /readyz (it may take
 * traffic: every named check passes — its NATS, Redis, database connections,
 * not draining), /metrics (Prometheus text). Other handlers can be mounted
 * under a path prefix, which the embedded platform uses for the lobby API and
 * the client's static files; a public server built with this leaves
 * `metrics: false` so Prometheus data never goes out through the Ingress.
 *
 * No request can end the process: a route or mounted handler that throws (at
 * once or through its promise) answers that request 500 and reports the error
 * to `onError`; a request Node cannot parse gets Node's own 400 (or 431). Every answer carries
 * nosniff, no-framing and no-referrer headers.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Registry } from 'prom-client';
import type { LoopLagMonitor } from './liveness.ts';

export type HttpHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/** Named readiness conditions, e.g. `{ nats: () => bus.connected(), draining: () => !worker.draining }`. */
export type ReadinessChecks = Record<string, () => boolean>;

export interface OpsServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  registries: Registry[];
  /** Serve GET /metrics (default true). */
  metrics?: boolean;
  /** Liveness; default always true. */
  healthy?: () => boolean;
  /** Liveness from the event-loop lag; `/healthz` fails when it says so (and names the lag). */
  loop?: LoopLagMonitor;
  /** Readiness; default always true. */
  ready?: () => boolean;
  /** Readiness checks by name; `/readyz` lists the failing ones in its 503 body. */
  checks?: ReadinessChecks;
  onError?: (err: unknown) => void;
}

export interface OpsServer {
  server: Server;
  port: number;
  url: string;
  /**
   * Serves every request whose path starts with `prefix` (e.g. '/trpc', '/')
   * with `handler`; the longest matching prefix wins, the ops routes come first.
   */
  mountHttp(prefix: string, handler: HttpHandler): void;
  close(): Promise<void>;
}

/** The names of the failing checks (plus 'ready' when the plain predicate says no). */
export function failingChecks(opts: Pick<OpsServerOptions, 'ready' | 'checks'>): string[] {
  const failing = Object.entries(opts.checks ?? {})
    .filter(([, ok]) => !ok())
    .map(([name]) => name);
  if (opts.ready?.() === false) failing.unshift('ready');
  return failing;
}

/**
 * Headers on every answer of this server, mounted handlers included (a handler's own headers win):
 * no MIME sniffing, no framing, no referrer, and no active content in a JSON or text answer.
 */
const SECURITY_HEADERS: [string, string][] = [
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
  ['referrer-policy', 'no-referrer'],
  ['content-security-policy', "default-src 'none'; frame-ancestors 'none'"],
];

export async function startOpsServer(opts: OpsServerOptions): Promise<OpsServer> {
  const mounts: { prefix: string; handler: HttpHandler }[] = [];
  const registry = opts.registries.length === 1 ? opts.registries[0] : Registry.merge(opts.registries);
  const route = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '/').split('?')[0];
    const text = (status: number, body: string, type = 'text/plain; charset=utf-8'): void => {
      res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      res.end(body);
    };
    if (req.method === 'GET' && path === '/healthz') {
      if (opts.loop && !opts.loop.healthy())
        return text(503, `event loop stuck: lag ${Math.round(opts.loop.lagMs())} ms > ${opts.loop.maxLagMs} ms\n`);
      return text(opts.healthy?.() === false ? 503 : 200, 'ok\n');
    }
    if (req.method === 'GET' && path === '/readyz') {
      const failing = failingChecks(opts);
      return failing.length ? text(503, `not ready: ${failing.join(', ')}\n`) : text(200, 'ready\n');
    }
    if (req.method === 'GET' && path === '/metrics' && opts.metrics !== false) {
      registry.metrics().then(
        (body) => text(200, body, registry.contentType),
        (err) => {
          opts.onError?.(err);
          text(500, 'metrics failed\n');
        },
      );
      return;
    }
    const m = mounts.find(
      (x) => path === x.prefix || path.startsWith(x.prefix.endsWith('/') ? x.prefix : `${x.prefix}/`),
    );
    if (!m) return text(404, 'not found\n');
    // A handler that throws at once and one whose promise fails end the same way: this request's 500.
    new Promise<void>((resolve) => resolve(m.handler(req, res))).catch((err) => failed(res, err));
  };
  const failed = (res: ServerResponse, err: unknown): void => {
    opts.onError?.(err);
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      res.end('internal error\n');
    } else res.destroy();
  };
  const server = createServer((req, res) => {
    for (const [name, value] of SECURITY_HEADERS) res.setHeader(name, value);
    try {
      route(req, res);
    } catch (err) {
      failed(res, err);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${port}`,
    mountHttp(prefix, handler) {
      mounts.push({ prefix, handler });
      mounts.sort((a, b) => b.prefix.length - a.prefix.length);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
