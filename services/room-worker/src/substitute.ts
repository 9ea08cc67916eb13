/**
 * Per-seat timers of the AI substitute (`GameDefinition.substitute`): one per
 * disconnected player who has a move due. The room decides who is due when;
 * this only keeps one timer per seat and refuses to spin on a due time that
 * already fired without producing a move.
 */
import type { Clock, Timer } from '@joke/bus/clock';

export class SubstituteTimers {
  /** `timer` null = fired: its item is queued or was handled without a move for this `at`. */
  private readonly armed = new Map<string, { at: number; timer: Timer | null }>();

  constructor(
    private readonly clock: Clock,
    private readonly fire: (seat: string) => void,
  ) {}

  /** Wants a move for `seat` at `at` (absolute ms), or none (null). */
  set(seat: string, at: number | null): void {
    const cur = this.armed.get(seat);
    if (cur && cur.at === at) return;
    if (cur) {
      this.clock.clearTimeout(cur.timer);
      this.armed.delete(seat);
    }
    if (at === null) return;
    const entry: { at: number; timer: Timer | null } = { at, timer: null };
    entry.timer = this.clock.setTimeout(
      () => {
        entry.timer = null;
        this.fire(seat);
      },
      Math.max(0, at - this.clock.now()),
    );
    this.armed.set(seat, entry);
  }

  /**
   * Lets fired timers (all, or `seat`'s) be armed again for the same time: after a
   * transition (a draw and then the discard may both be due at once) or after a
   * timer fired too early.
   */
  forgetFired(seat?: string): void {
    for (const [id, e] of this.armed)
      if (e.timer === null && (seat === undefined || id === seat)) this.armed.delete(id);
  }

  clear(): void {
    for (const e of this.armed.values()) this.clock.clearTimeout(e.timer);
    this.armed.clear();
  }
}
