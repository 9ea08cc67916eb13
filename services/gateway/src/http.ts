/** Health, readiness and Prometheus endpoints on the gateway's own uWS app. */
import type { TemplatedApp } from './uws.ts';
import type { GatewayMetrics } from './metrics.ts';

export function mountHttp(app: TemplatedApp, opts: { metrics: GatewayMetrics; ready: () => boolean }): void {
  app.get('/healthz', (res) => {
    res.writeHeader('content-type', 'text/plain').end('ok');
  });
  app.get('/readyz', (res) => {
    if (opts.ready()) res.writeHeader('content-type', 'text/plain').end('ready');
    else res.writeStatus('503 Service Unavailable').writeHeader('content-type', 'text/plain').end('not ready');
  });
  app.get('/metrics', (res) => {
    let aborted = false;
    res.onAborted(() => {
      aborted = true;
    });
    const { registry } = opts.metrics;
    registry.metrics().then(
      (text) => {
        if (!aborted) res.cork(() => res.writeHeader('content-type', registry.contentType).end(text));
      },
      () => {
        if (!aborted) res.cork(() => res.writeStatus('500 Internal Server Error').end('metrics failed'));
      },
    );
  });
  app.any('/*', (res) => {
    res.writeStatus('404 Not Found').writeHeader('content-type', 'text/plain').end('not found');
  });
}
