/**
 * Who left a game for good, told to the lobby as a durable fact (PlayerLeft on
 * JetStream, lobby departures.ts), so a person who walked away from a table
 * is not shown seated in its lobby room even when the lobby was down then.
 *
 * "Left for good" in a room: a seated person (human seat) had a player viewer
 * entry before a batch and has none after it, while the game is not finished,
 * because the gateway said they left (`left` presence) or because their
 * socket stayed away past VIEWER_GRACE_MS (forgetDeparted). Not a departure:
 * entries dropped because their gateway died (the players come back through
 * another gateway within seconds), a second socket of theirs going while one
 * stays, or anyone leaving after the game ended (they go back to the waiting
 * room, which the lobby keeps).
 *
 * At least once, surviving a crash: a departure is put in the room's metadata
 * (the outbox, snapshotted with the batch that saw it) and published after
 * that batch is written; only once the stream stored it is it taken out, by
 * another batch. A worker that restores the room publishes what is still in
 * the outbox again, under the same message id (the stream drops the copy, and
 * the lobby's handling is idempotent anyway).
 */
import type { Departure, RoomData, SeatMeta, ViewerMeta } from './room-types.ts';

/**
 * The departures of one batch: of the people whose player entry it removed by a leave or a lapsed grace
 * (`removed`: user id → why, collected as the entries go, so a batch that removed none costs nothing),
 * those seated at a human seat with no player entry left in the room.
 */
export function departuresOf(
  removed: Map<string, Departure['reason']> | undefined,
  seats: SeatMeta[],
  viewers: Iterable<ViewerMeta>,
  now: number,
): Departure[] {
  if (!removed) return [];
  const still = new Set<string>();
  for (const v of viewers) if (v.role === 'player' && removed.has(v.userId)) still.add(v.userId);
  const out: Departure[] = [];
  for (const [userId, reason] of removed)
    if (!still.has(userId) && seats.some((s) => s.id === userId && !s.bot)) out.push({ userId, reason, at: now });
  return out;
}

/** The stream message id of a departure: the same on every retry and after a takeover. */
export const departureId = (roomId: string, d: Departure): string => `left:${roomId}:${d.userId}:${d.at}`;

/** The room's outbox of departures: which are in flight, and taking out the stored ones. */
export class DepartureOutbox {
  private readonly inFlight = new Set<string>();

  constructor(
    private readonly roomId: string,
    private readonly data: () => RoomData,
    /** Resolves once the stream stored the fact. */
    private readonly publish: (d: Departure, id: string) => Promise<void>,
    /** Queues a batch that takes these ids out of the outbox. */
    private readonly published: (ids: string[]) => void,
  ) {}

  /** Adds this batch's departures to the outbox; true = the metadata changed. */
  add(ds: Departure[]): boolean {
    if (ds.length === 0) return false;
    const data = this.data();
    data.departures = [...(data.departures ?? []), ...ds];
    return true;
  }

  /** Publishes what is in the outbox and not in flight (after a write, or after a restore). */
  flush(): void {
    for (const d of this.data().departures ?? []) {
      const id = departureId(this.roomId, d);
      if (this.inFlight.has(id)) continue;
      this.inFlight.add(id);
      void this.publish(d, id).then(() => this.published([id]));
    }
  }

  /** Takes stored departures out; true = the metadata changed. */
  remove(ids: string[]): boolean {
    const data = this.data();
    const before = data.departures?.length ?? 0;
    const gone = new Set(ids);
    const left = (data.departures ?? []).filter((d) => !gone.has(departureId(this.roomId, d)));
    for (const id of ids) this.inFlight.delete(id);
    if (left.length === before) return false;
    if (left.length > 0) data.departures = left;
    else delete data.departures;
    return true;
  }
}
