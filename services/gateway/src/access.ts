/**
 * Private-room membership, checked at the gateway before a join
 * (GATEWAY_ROOM_ACCESS=lobby, issue 10): the lobby knows who may watch or play
 * in a private room's game (its host, seats and spectators). Before this, the
 * gateway let anyone who knew a game room id watch it.
 *
 * An answer "allowed" is kept per (user, room) for ALLOWED_TTL_MS, so a socket
 * that reconnects does not ask again; refusals are not kept (the user may come
 * in with the invite code a moment later). A lobby that does not answer means
 * the join is refused as `unavailable` (the client retries): failing open
 * would let anyone watch private rooms while the lobby is down.
 */
import { call, contract } from '@joke/protocol';
import { v, type Core } from './core.ts';

const ALLOWED_TTL_MS = 30_000;
const MAX_REMEMBERED = 10_000;

export interface AccessCheck {
  /** true / false from the lobby; null = the lobby did not answer. */
  allowed(userId: string, roomId: string): Promise<boolean | null>;
}

export function createAccessCheck(core: Core): AccessCheck {
  const { bus, cfg, metrics, log } = core;
  const allowedAt = new Map<string, number>();

  return {
    async allowed(userId, roomId) {
      const key = `${userId}\u0000${roomId}`;
      const at = allowedAt.get(key);
      if (at !== undefined && performance.now() - at < ALLOWED_TTL_MS) return true;
      try {
        metrics.requests.inc({ op: 'access' });
        const reply = await call(bus, contract.roomAccess, { v, userId, roomId }, cfg.commandTimeoutMs);
        if (!reply.ok) return null;
        if (reply.allowed) {
          allowedAt.delete(key);
          allowedAt.set(key, performance.now());
          if (allowedAt.size > MAX_REMEMBERED) allowedAt.delete(allowedAt.keys().next().value!);
        }
        return reply.allowed;
      } catch (err) {
        metrics.busErrors.inc({ op: 'access' });
        log.warn({ roomId, err: String(err) }, 'room access check: the lobby did not answer');
        return null;
      }
    },
  };
}
