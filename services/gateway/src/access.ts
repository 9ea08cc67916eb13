/**
 * Private-room membership, checked at the gateway before a join
 * (GATEWAY_ROOM_ACCESS=lobby, issue 10): the lobby knows who may watch or play
 * in a private room's game (its host, seats and spectators). Before this, the
 * gateway let anyone who knew a game room id watch it.
 *
 * An answer "allowed" is kept per (user, room) for ALLOWED_TTL_MS, so a socket
 * that reconnects does not ask again; refusals are not kept (the user may come
 * in with the invite code a moment later). The question is retried like a join
 * (same budget, and only while the socket still waits); a lobby that never
 * answers means the join is refused as `unavailable`: failing open would let
 * anyone watch private rooms while the lobby is down.
 */
import { contract } from '@joke/protocol';
import { v, type Core } from './core.ts';
import type { Requester } from './requests.ts';

const ALLOWED_TTL_MS = 30_000;
const MAX_REMEMBERED = 10_000;

export interface AccessCheck {
  /** true / false from the lobby; null = the lobby did not answer. */
  allowed(userId: string, roomId: string, wanted: () => boolean): Promise<boolean | null>;
}

export function createAccessCheck(core: Core, requests: Requester): AccessCheck {
  const { log } = core;
  const allowedAt = new Map<string, number>();

  return {
    async allowed(userId, roomId, wanted) {
      const key = `${userId}\u0000${roomId}`;
      const at = allowedAt.get(key);
      if (at !== undefined && performance.now() - at < ALLOWED_TTL_MS) return true;
      const res = await requests.request(contract.roomAccess, { v, userId, roomId }, 'access', undefined, wanted);
      if (!res || !res.reply.ok) {
        if (wanted()) log.warn({ roomId, reason: res?.reply }, 'room access check: no answer from the lobby');
        return null;
      }
      if (res.reply.allowed) {
        allowedAt.delete(key);
        allowedAt.set(key, performance.now());
        if (allowedAt.size > MAX_REMEMBERED) allowedAt.delete(allowedAt.keys().next().value!);
      }
      return res.reply.allowed;
    },
  };
}
