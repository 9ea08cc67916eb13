/**
 * Health and readiness on the gateway's public uWS app, for load balancers that
 * probe the public port. /metrics is not here: it is served by the ops server
 * on its own port (main.ts), which no Ingress routes. Every answer says nosniff
 * and may not be framed, as every other HTTP answer of the product.
 */
import type { HttpResponse, TemplatedApp } from './uws.ts';

function plain(res: HttpResponse, status: string, body: string): void {
  res.cork(() => {
    res
      .writeStatus(status)
      .writeHeader('content-type', 'text/plain')
      .writeHeader('x-content-type-options', 'nosniff')
      .writeHeader('x-frame-options', 'DENY')
      .end(body);
  });
}

export function mountHttp(app: TemplatedApp, opts: { ready: () => boolean }): void {
  app.get('/healthz', (res) => plain(res, '200 OK', 'ok'));
  app.get('/readyz', (res) =>
    opts.ready() ? plain(res, '200 OK', 'ready') : plain(res, '503 Service Unavailable', 'not ready'),
  );
  app.any('/*', (res) => plain(res, '404 Not Found', 'not found'));
}
