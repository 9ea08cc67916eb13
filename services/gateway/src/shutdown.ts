/**
 * The gateway's rolling-update shutdown. Kubernetes first runs the preStop
 * pause (endpoints stop sending new connections), then sends SIGTERM; from
 * then on the gateway:
 *   1. turns not-ready and refuses new sockets (503 on upgrade),
 *   2. closes its open sockets one by one, spread evenly over `spreadMs`, each
 *      with close code 1012 (Service Restart) and reason "reconnect" — the hint
 *      clients follow by reconnecting at once, to another gateway, resuming
 *      their rooms (hello, join) — so the other gateways take the players a
 *      few at a time instead of all in the same second,
 *   3. then closes for good (bus subscriptions, listen socket).
 * Sockets keep working until their turn: in-flight actions are answered.
 */
import type { Logger } from 'pino';
import type { Gateway } from './gateway.ts';
import type { ShutdownConfig } from './shutdown-config.ts';

/** WebSocket close code 1012 "Service Restart": the server goes away, reconnect (RFC 6455 registry). */
export const RECONNECT_CODE = 1012;
export const RECONNECT_REASON = 'reconnect';

export interface ShutdownReport {
  sockets: number;
  /** ms from the first to the last socket closed. */
  spreadMs: number;
  ms: number;
}

export async function shutdownGracefully(
  gateway: Pick<Gateway, 'stopAccepting' | 'openSockets' | 'close'>,
  cfg: ShutdownConfig,
  log?: Logger,
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
): Promise<ShutdownReport> {
  const t0 = performance.now();
  gateway.stopAccepting();
  const sockets = gateway.openSockets();
  log?.info({ sockets: sockets.length, spreadMs: cfg.spreadMs }, 'shutdown: not ready, closing sockets spread out');
  // Evenly spaced: the first goes at once, the last at the end of the window.
  const step = sockets.length > 1 ? cfg.spreadMs / (sockets.length - 1) : 0;
  let first = 0;
  let last = 0;
  for (let i = 0; i < sockets.length; i++) {
    const due = t0 + i * step;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    sockets[i].end(RECONNECT_CODE, RECONNECT_REASON);
    last = performance.now();
    if (i === 0) first = last;
  }
  await gateway.close();
  const report = {
    sockets: sockets.length,
    spreadMs: Math.round(last - first),
    ms: Math.round(performance.now() - t0),
  };
  log?.info(report, 'shutdown: every socket closed');
  return report;
}
