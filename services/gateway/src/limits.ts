/**
 * Per-address and per-user socket limits, and the per-socket bound on
 * requests still waiting for a room worker or the matchmaker (issue 10: one
 * user held 1,200 sockets, so every transition of one table was sent 1,000×).
 *
 *  - Sockets per address are counted from the upgrade, and a socket over the
 *    limit is refused there (HTTP 429) before the gateway holds anything for it.
 *    The address is the TCP peer, or behind `trustProxyHops` proxies the n-th
 *    X-Forwarded-For entry from the end (as the lobby's LOBBY_TRUST_PROXY_HOPS).
 *  - Sockets per user are known only once `hello` names the user: a socket over
 *    the limit gets `error tooManySockets` (Korean) and is closed with 4429.
 *  - Outstanding requests per socket: beyond the bound a join, action, chat or
 *    quick-match request gets `error tooManyPending` with its room and action id
 *    (nothing was sent; the client may send the same again later).
 * A limit of 0 turns that limit off (load tests sign thousands of bots in from one address).
 */
import { Buffer } from 'node:buffer';
import type { Logger } from 'pino';
import type { HttpRequest, HttpResponse } from './uws.ts';
import type { GatewayConfig } from './config.ts';
import type { GatewayMetrics } from './metrics.ts';
import type { Registry } from './rooms.ts';
import type { Session } from './session.ts';

export const CLOSE_TOO_MANY_SOCKETS = 4429;

export interface LimitsOptions {
  cfg: GatewayConfig;
  metrics: GatewayMetrics;
  log: Logger;
  registry: Registry;
  /** Runs a handler detached from the uWS callback (gateway.ts: its failure is logged). */
  detach(p: Promise<void>): void;
}

export class SocketLimits {
  /** Open sockets per address (from the upgrade on). */
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly o: LimitsOptions) {}

  /** The address a socket counts against; read during the upgrade (uWS requests die after it). */
  addressOf(res: HttpResponse, req: HttpRequest): string {
    const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
    const hops = this.o.cfg.trustProxyHops;
    if (hops === 0) return peer;
    const list = req
      .getHeader('x-forwarded-for')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0 && s.length <= 64);
    return list[list.length - hops] ?? peer;
  }

  /** false = refuse this upgrade: the address holds maxSocketsPerIp sockets already. */
  admitAddress(ip: string): boolean {
    const max = this.o.cfg.maxSocketsPerIp;
    if (max === 0 || (this.perAddress.get(ip) ?? 0) < max) return true;
    this.o.metrics.socketsRefused.inc({ scope: 'ip' });
    return false;
  }

  opened(ip: string): void {
    this.perAddress.set(ip, (this.perAddress.get(ip) ?? 0) + 1);
  }

  closed(ip: string): void {
    const n = (this.perAddress.get(ip) ?? 1) - 1;
    if (n <= 0) this.perAddress.delete(ip);
    else this.perAddress.set(ip, n);
  }

  /** After a good hello: false = this socket was refused (told, and closing) because its user has enough. */
  admitUser(s: Session, userId: string): boolean {
    const max = this.o.cfg.maxSocketsPerUser;
    if (max === 0 || (this.o.registry.users.get(userId)?.size ?? 0) < max) return true;
    this.o.metrics.socketsRefused.inc({ scope: 'user' });
    this.o.log.info({ user: userId, max }, 'socket refused: too many sockets for one user');
    s.protoError('tooManySockets');
    s.ws.end(CLOSE_TOO_MANY_SOCKETS, 'too many sockets');
    return false;
  }

  /** Runs a request handler unless the session has maxPendingPerSocket of them outstanding already. */
  pending(s: Session, run: () => Promise<void>, extra?: { roomId: string; actionId?: string }): void {
    const max = this.o.cfg.maxPendingPerSocket;
    if (max !== 0 && s.pending >= max) {
      s.protoError('tooManyPending', undefined, extra);
      return;
    }
    s.pending++;
    this.o.detach(
      run().finally(() => {
        s.pending--;
      }),
    );
  }
}
