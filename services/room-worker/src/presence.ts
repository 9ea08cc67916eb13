/**
 * Who is connected, derived from the room's viewers: the presence list sent
 * to clients, its change key, and each human seat's disconnection clock.
 * A seat is connected while one of its player viewers' sockets is.
 */
import type { PresenceEntry } from '@joke/protocol';
import type { SeatMeta, ViewerMeta } from './room-types.ts';

export type Viewers = ReadonlyMap<string, ViewerMeta>;

export function isConnected(viewers: Viewers, userId: string): boolean {
  for (const v of viewers.values()) if (v.userId === userId && v.role === 'player' && v.connected) return true;
  return false;
}

export function presenceList(seats: readonly SeatMeta[], viewers: Viewers): PresenceEntry[] {
  return seats.map((s) => ({
    id: s.id,
    connected: s.bot || isConnected(viewers, s.id),
    away: s.away,
    bot: s.bot,
  }));
}

/** Changes exactly when the presence list does (cheaper than comparing lists). */
export function presenceKey(seats: readonly SeatMeta[], viewers: Viewers): string {
  let k = '';
  for (const s of seats) k += `${s.bot || isConnected(viewers, s.id) ? 1 : 0}${s.away ? 1 : 0}`;
  return k;
}

/**
 * Starts a human seat's disconnection clock when its last player viewer goes,
 * stops it when one is back. true = the meta changed (it must be written).
 */
export function syncDisconnected(seats: SeatMeta[], viewers: Viewers, now: number): boolean {
  let changed = false;
  for (const s of seats) {
    const since = s.bot || isConnected(viewers, s.id) ? null : (s.disconnectedSince ?? now);
    if (since !== s.disconnectedSince) {
      s.disconnectedSince = since;
      changed = true;
    }
  }
  return changed;
}

/**
 * A room's presence list as JSON, encoded again only when its change key moved: most batches change
 * nobody's presence, and seats (ids, bot flags) never change in a room's life, so the key is exact.
 */
export class PresenceCache {
  private last: { key: string; json: string } | null = null;

  json(key: string, list: () => PresenceEntry[]): string {
    if (this.last?.key !== key) this.last = { key, json: JSON.stringify(list()) };
    return this.last.json;
  }
}
