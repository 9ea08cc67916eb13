/**
 * What a session holds per room it is in, and the rule that makes a view frame whole. State: the
 * room's last seq, its fixed view members and presence list as last sent (protocol client.ts, the
 * `view` message), when a resync join last went, and the join retries after `unavailable`.
 *
 * A view frame may leave out the game's fixed members and the presence list ("the same as the last
 * you got"). A view that needs either while the room holds none — its join reply was lost, or the
 * room changed hands and the frame that carried them did not arrive — cannot be shown: it is dropped
 * and the room joined again (the reply carries both), at most once per RESYNC_EVERY_MS.
 */
import type { PresenceEntry, ServerMessage } from '@joke/protocol';

export type WireView = Extract<ServerMessage, { t: 'view' }>;

export interface Room {
  readonly roomId: string;
  spectate: boolean;
  /** The seq of the latest view taken (or read by its header only), -1 before any. */
  lastSeq: number;
  /** The game's fixed view members from the last frame of this room that had them. */
  fixed: Record<string, unknown> | null;
  /** The last presence list this session got for the room (a view, a `presence` message). */
  presence: PresenceEntry[] | null;
  /** When a resync join last went (clock time), -Infinity for never. */
  resyncAt: number;
  /** Joins the gateway could not get answered in a row (`unavailable`, `capacity`, `busy`). */
  joinTries: number;
  /** The pending join retry's timer, or null. */
  joinTimer: unknown;
}

/** At most one resync join per room this often while its fixed members or presence are missing. */
export const RESYNC_EVERY_MS = 3_000;

export const newRoom = (roomId: string, spectate: boolean, known?: Room): Room => ({
  roomId,
  spectate,
  lastSeq: known?.lastSeq ?? -1,
  fixed: known?.fixed ?? null,
  presence: known?.presence ?? null,
  resyncAt: -Infinity,
  joinTries: 0,
  joinTimer: null,
});

/**
 * A view that names its game is whole: a room worker from before the fixed members were cut out
 * (a rolling upgrade) writes every member into every view and never sends `fixed`.
 */
const hasGame = (view: unknown): boolean => typeof view === 'object' && view !== null && 'game' in view;

/**
 * `whole`: `frame.view` now has the room's fixed members (put in place) and the room holds its
 * presence list. `old`: a replay older than what was shown. `missingFixed` / `missingPresence`: half a
 * view, to be dropped and the room resynced.
 */
export type ViewVerdict = 'whole' | 'old' | 'missingFixed' | 'missingPresence';

export function takeView(room: Room, frame: WireView): ViewVerdict {
  // A re-join can replay a frame already shown; views are whole, so an older one is useless.
  if (frame.seq < room.lastSeq) return 'old';
  if (frame.presence) room.presence = frame.presence;
  if (!completeView(room, frame)) return 'missingFixed';
  if (!room.presence) return 'missingPresence';
  room.lastSeq = frame.seq;
  return 'whole';
}

/**
 * The fixed-members half of the rule alone (what a raw test client applies to every view it records):
 * keeps the frame's `fixed` and puts the room's into `frame.view`; false when the room holds none and
 * the view is not whole by itself.
 */
export function completeView(room: Pick<Room, 'fixed' | 'resyncAt'>, frame: Pick<WireView, 'view' | 'fixed'>): boolean {
  if (frame.fixed) {
    room.fixed = frame.fixed;
    room.resyncAt = -Infinity;
  }
  if (!room.fixed) return hasGame(frame.view);
  // Into the parsed view, not spread into a new object: a ~30-member spread builds a dictionary-mode
  // object that every later read is slow on (the swarm's CPU per action rose by half with it).
  if (typeof frame.view === 'object' && frame.view !== null) Object.assign(frame.view, room.fixed);
  return true;
}
