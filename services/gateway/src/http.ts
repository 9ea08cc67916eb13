/**
 * Health and readiness on the gateway's public uWS app, for load balancers that
 * probe the public port. /metrics is not here: it is served by the ops server
 * on its own port (main.ts), which no Ingress routes.
 */
import type { TemplatedApp } from './uws.ts';

export function mountHttp(app: TemplatedApp, opts: { ready: () => boolean }): void {
  app.get('/healthz', (res) => {
    res.writeHeader('content-type', 'text/plain').end('ok');
  });
  app.get('/readyz', (res) => {
    if (opts.ready()) res.writeHeader('content-type', 'text/plain').end('ready');
    else res.writeStatus('503 Service Unavailable').writeHeader('content-type', 'text/plain').end('not ready');
  });
  app.any('/*', (res) => {
    res.writeStatus('404 Not Found').writeHeader('content-type', 'text/plain').end('not found');
  });
}
