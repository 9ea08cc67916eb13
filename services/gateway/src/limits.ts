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
import type { HttpRequest, HttpResponse } from './uws.ts';
import type { Core } from './core.ts';
import type { Sock, SocketData } from './rooms.ts';

export const CLOSE_TOO_MANY_SOCKETS = 4429;

export interface SocketLimits {
  /** The address a socket counts against; read during the upgrade (uWS requests die after it). */
  addressOf(res: HttpResponse, req: HttpRequest): string;
  /** false = refuse this upgrade: the address holds maxSocketsPerIp sockets already. */
  admitAddress(ip: string): boolean;
  opened(ip: string): void;
  closed(ip: string): void;
  /** After a good hello: false = this socket was refused (told, and closing) because its user has enough. */
  admitUser(ws: Sock, userId: string): boolean;
  /** Runs a request handler unless the socket has maxPendingPerSocket of them outstanding already. */
  pending(ws: Sock, d: SocketData, run: () => Promise<void>, extra?: { roomId: string; actionId?: string }): void;
}

export function createSocketLimits(core: Core): SocketLimits {
  const { cfg, metrics, reg, log } = core;
  const perAddress = new Map<string, number>();

  const addressOf = (res: HttpResponse, req: HttpRequest): string => {
    const peer = Buffer.from(res.getRemoteAddressAsText()).toString();
    if (cfg.trustProxyHops === 0) return peer;
    const list = req
      .getHeader('x-forwarded-for')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s.length > 0 && s.length <= 64);
    return list[list.length - cfg.trustProxyHops] ?? peer;
  };

  return {
    addressOf,
    admitAddress: (ip) => {
      if (cfg.maxSocketsPerIp === 0 || (perAddress.get(ip) ?? 0) < cfg.maxSocketsPerIp) return true;
      metrics.socketsRefused.inc({ scope: 'ip' });
      return false;
    },
    opened: (ip) => perAddress.set(ip, (perAddress.get(ip) ?? 0) + 1),
    closed: (ip) => {
      const n = (perAddress.get(ip) ?? 1) - 1;
      if (n <= 0) perAddress.delete(ip);
      else perAddress.set(ip, n);
    },
    admitUser: (ws, userId) => {
      if (cfg.maxSocketsPerUser === 0 || (reg.users.get(userId)?.size ?? 0) < cfg.maxSocketsPerUser) return true;
      metrics.socketsRefused.inc({ scope: 'user' });
      log.info({ user: userId, max: cfg.maxSocketsPerUser }, 'socket refused: too many sockets for one user');
      core.protoError(ws, 'tooManySockets');
      ws.end(CLOSE_TOO_MANY_SOCKETS, 'too many sockets');
      return false;
    },
    pending: (ws, d, run, extra) => {
      if (cfg.maxPendingPerSocket !== 0 && d.pending >= cfg.maxPendingPerSocket) {
        core.protoError(ws, 'tooManyPending', undefined, extra);
        return;
      }
      d.pending++;
      core.detach(
        run().finally(() => {
          d.pending--;
        }),
      );
    },
  };
}
