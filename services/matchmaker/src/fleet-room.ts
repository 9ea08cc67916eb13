/**
 * The fleet's room for new tables (issue 37), as this matchmaker knows it: each live worker's headroom from
 * its last heartbeat, counted down by what was placed on it since (`took`) and set to none by a refusal
 * for want of it (`refusedNew`), less the new-table tries under way (`reserve` … `release`).
 *
 * State: the tries under way (a count); the headroom itself lives on the workers' heartbeat records, which
 * the next heartbeat overwrites. Failure modes: a worker that says nothing about headroom (an older one)
 * counts as having room; a `reserve` whose `release` is never called keeps one room held for good, so every
 * caller releases in a `finally`.
 */

/** What this needs of a worker's heartbeat record (failover.ts LiveWorker). */
export interface RoomRecord {
  workerId: string;
  draining: boolean;
  /** New rooms it will take now; undefined: says nothing. */
  headroom?: number;
}

export class FleetRoom {
  private trying = 0;

  constructor(
    private readonly workers: () => Iterable<RoomRecord>,
    private readonly byId: (workerId: string) => RoomRecord | undefined,
  ) {}

  /**
   * True while the live, non-draining workers take more new rooms than the tries already under way hold.
   * Without counting those, a thousand quick-match requests a second all read "room" before the first of
   * them was placed, each took a table out of the line and most were refused and put back: 13,750 such tries
   * in the 3× level of the 2026-12-08 01:27 overload run, the Redis churn that ended in lost leases.
   */
  hasRoom(): boolean {
    let free = 0;
    for (const w of this.workers()) {
      if (w.draining) continue;
      if (w.headroom === undefined) return true;
      free += w.headroom;
    }
    return free > this.trying;
  }

  /** Holds one room for a new-table try; false (nothing held) when the fleet has none to spare. */
  reserve(): boolean {
    if (!this.hasRoom()) return false;
    this.trying++;
    return true;
  }

  /** The try `reserve` held for is over (placed — `took` counted it — or not). */
  release(): void {
    if (this.trying > 0) this.trying--;
  }

  /**
   * A new room was placed on `workerId`: one off the headroom its last heartbeat told, as the worker counts
   * it down itself (open.ts), so that between two heartbeats this matchmaker knows when the fleet is full
   * without asking a worker that will only refuse.
   */
  took(workerId: string): void {
    const w = this.byId(workerId);
    if (w?.headroom !== undefined && w.headroom > 0) w.headroom--;
  }

  /**
   * `workerId` refused a new room for want of headroom: none there until its next heartbeat says otherwise,
   * so that the tries between two heartbeats go elsewhere or wait in line instead of asking it again.
   */
  refusedNew(workerId: string): void {
    const w = this.byId(workerId);
    if (w) w.headroom = 0;
  }
}
