/**
 * Who watches a room, as the room's snapshot keeps it: one entry per
 * (gateway, user, role), bounded, and departed entries forgotten.
 *
 *  - One viewer per role (issue 10): a seated player's second socket joining
 *    as a spectator adds a spectator entry beside the player entry instead of
 *    replacing it, so the first socket keeps getting the player's views. The
 *    gateway names the role in its presence changes; an older gateway that
 *    does not is taken to mean both.
 *  - Departed viewers are forgotten: an entry whose socket is gone (connected
 *    false) is dropped once it has been gone for `viewerGraceMs`, at the next
 *    batch the room runs (a batch is what writes the snapshot). Before this,
 *    20,000 guests who spectated and left grew a snapshot from 5 KB to 1.68 MB.
 *  - At most `maxSpectators` spectator entries per room. A spectator join at
 *    the cap first forgets departed spectators, oldest first, whatever their
 *    age; if the room is still full it is refused (`spectatorsFull`). Players
 *    are never refused: their entries are bounded by the seats.
 */
import type { ViewerMeta } from './room-types.ts';

export type Role = ViewerMeta['role'];
export type ViewerMap = Map<string, ViewerMeta>;

export const viewerKey = (userId: string, gatewayId: string, role: Role): string =>
  `${gatewayId}\u0000${role}\u0000${userId}`;

/** Marks a viewer's socket gone or back; true = the entry changed. */
export function setConnected(v: ViewerMeta, connected: boolean, now: number): boolean {
  if (v.connected === connected) return false;
  v.connected = connected;
  if (connected) delete v.goneAt;
  else v.goneAt = now;
  return true;
}

/** The entries a presence change is about: its role's, or (older gateways) both roles'. */
export function presenceKeys(userId: string, gatewayId: string, role: Role | undefined): string[] {
  return role
    ? [viewerKey(userId, gatewayId, role)]
    : [viewerKey(userId, gatewayId, 'player'), viewerKey(userId, gatewayId, 'spectator')];
}

/** Drops entries disconnected for `graceMs` or longer (each passed to `onDropped`); true = something was dropped. */
export function forgetDeparted(
  viewers: ViewerMap,
  now: number,
  graceMs: number,
  onDropped?: (v: ViewerMeta) => void,
): boolean {
  let dropped = false;
  for (const [k, v] of viewers)
    if (!v.connected && now - (v.goneAt ?? now) >= graceMs) {
      viewers.delete(k);
      dropped = true;
      onDropped?.(v);
    }
  return dropped;
}

/**
 * Room for one more spectator entry: forgets departed spectators (oldest first) while the room
 * holds `max`. false = `max` connected spectators watch already.
 */
export function roomForSpectator(viewers: ViewerMap, max: number): boolean {
  let count = 0;
  const departed: [string, number][] = [];
  for (const [k, v] of viewers)
    if (v.role === 'spectator') {
      count++;
      if (!v.connected) departed.push([k, v.goneAt ?? 0]);
    }
  if (count < max) return true;
  departed.sort((a, b) => a[1] - b[1]);
  for (const [k] of departed) {
    viewers.delete(k);
    if (--count < max) return true;
  }
  return false;
}
