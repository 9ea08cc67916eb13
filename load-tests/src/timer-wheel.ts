/**
 * One timer for all the bots of a process. Each bot arms a think timer and an
 * ack timer per action; as separate `setTimeout`s with random durations that
 * is a Timeout object, a timer list and a heap insert each, thousands of them
 * a second. Here a bot owns its `WheelTimer`s for life and arming one only
 * drops it into a slot of RESOLUTION_MS; one interval walks the due slots.
 * Firing can be up to RESOLUTION_MS late: think times and the 15 s ack
 * deadline move by that much, action → view latencies (timed from the send)
 * not at all.
 */
export const RESOLUTION_MS = 10;

export class WheelTimer {
  /** Slot the timer is due in, or -1 when not armed. */
  slot = -1;
  constructor(readonly fire: () => void) {}
  get armed(): boolean {
    return this.slot >= 0;
  }
}

export class TimerWheel {
  private readonly slots = new Map<number, WheelTimer[]>();
  private next = -1;
  private interval: NodeJS.Timeout | null = null;
  private armed = 0;
  /** While a slot's timers fire, a timer armed for now goes to the slot after it (this one is done). */
  private advancing = false;

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** (Re)arms `t` to fire `ms` from now; a timer armed again only fires at its latest time. */
  arm(t: WheelTimer, ms: number): void {
    if (t.armed) this.cancel(t);
    const slot = Math.max(this.slotOf(this.now() + ms), this.advancing ? this.next + 1 : this.next);
    t.slot = slot;
    let list = this.slots.get(slot);
    if (!list) this.slots.set(slot, (list = []));
    list.push(t);
    this.armed++;
    if (this.next < 0) this.next = this.slotOf(this.now());
    this.interval ??= setInterval(() => this.advance(), RESOLUTION_MS);
  }

  /** The timer stays in its slot's list and is skipped there: no search. */
  cancel(t: WheelTimer): void {
    if (!t.armed) return;
    t.slot = -1;
    this.armed--;
  }

  private slotOf(at: number): number {
    return Math.floor(at / RESOLUTION_MS);
  }

  /** Fires every timer whose slot has come, in slot order; stops the interval when none is armed. */
  advance(): void {
    const upTo = this.slotOf(this.now());
    this.advancing = true;
    for (; this.next <= upTo; this.next++) {
      const list = this.slots.get(this.next);
      if (!list) continue;
      this.slots.delete(this.next);
      for (const t of list) {
        // Cancelled, or re-armed into a later slot (it sits in that slot's list too).
        if (t.slot !== this.next) continue;
        t.slot = -1;
        this.armed--;
        t.fire();
      }
    }
    this.advancing = false;
    if (this.armed === 0 && this.interval) {
      clearInterval(this.interval);
      this.interval = null;
      this.slots.clear();
      this.next = -1;
    }
  }
}
