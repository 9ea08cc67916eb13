/**
 * The reading side of a view frame's `fixed` members (client.ts, ServerMessage `view`): the last
 * ones each room sent, put back into every view of that room. `Object.assign` into the parsed view
 * rather than `{ ...fixed, ...view }`: a spread of ~30 members builds a dictionary-mode object that
 * V8 reads slowly (the bot swarm's CPU per action rose by half with it, docs/measurements/stack-capacity.md); the
 * two sets of members never overlap, so the result is the same.
 *
 * The browser client and the load-test bots keep their own copy of this rule because a miss there
 * starts a resync join; test clients and benches use this one.
 */
export class FixedViewMembers {
  private readonly byRoom = new Map<string, Record<string, unknown>>();

  /**
   * Makes `frame.view` whole in place with this frame's `fixed` members or the room's last ones.
   * false when the room has sent none yet: a client then joins again (the view is left as it came).
   */
  complete(frame: { roomId: string; view: unknown; fixed?: Record<string, unknown> | null }): boolean {
    if (frame.fixed) this.byRoom.set(frame.roomId, frame.fixed);
    const fixed = this.byRoom.get(frame.roomId);
    if (fixed === undefined) return false;
    if (frame.view !== null && typeof frame.view === 'object') Object.assign(frame.view, fixed);
    return true;
  }

  /** The room's members are no longer known (left, or about to join again). */
  forget(roomId: string): void {
    this.byRoom.delete(roomId);
  }
}
