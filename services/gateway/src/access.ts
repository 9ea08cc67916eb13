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
import type { Logger } from 'pino';
import { contract, PROTOCOL_VERSION } from '@joke/protocol';
import type { Requester } from './requests.ts';

const ALLOWED_TTL_MS = 30_000;
const MAX_REMEMBERED = 10_000;

export class AccessCheck {
  /** When each (user, room) was last allowed, performance.now() ms; oldest first. */
  private readonly allowedAt = new Map<string, number>();

  constructor(private readonly o: { requests: Requester; log: Logger }) {}

  /** true / false from the lobby; null = the lobby did not answer. */
  async allowed(userId: string, roomId: string, wanted: () => boolean): Promise<boolean | null> {
    const key = `${userId}\u0000${roomId}`;
    const at = this.allowedAt.get(key);
    if (at !== undefined && performance.now() - at < ALLOWED_TTL_MS) return true;
    const res = await this.o.requests.request(
      contract.roomAccess,
      { v: PROTOCOL_VERSION, userId, roomId },
      { op: 'access', wanted },
    );
    if (!res || !res.reply.ok) {
      if (wanted()) this.o.log.warn({ roomId, reason: res?.reply }, 'room access check: no answer from the lobby');
      return null;
    }
    if (res.reply.allowed) {
      this.allowedAt.delete(key);
      this.allowedAt.set(key, performance.now());
      if (this.allowedAt.size > MAX_REMEMBERED) this.allowedAt.delete(this.allowedAt.keys().next().value!);
    }
    return res.reply.allowed;
  }
}
