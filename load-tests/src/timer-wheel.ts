/**
 * One timer for all the bots of a process. Each bot arms a think timer and an
 * ack timer per action; as separate `setTimeout`s with random durations that
 * is a Timeout object, a timer list and a heap insert each, thousands of them
 * a second. Here a bot owns its `WheelTimer`s for life and arming one only
 * drops it into a slot of RESOLUTION_MS; one Node timer, set for the
 * earliest slot that holds a timer, walks the due slots (so a quiet swarm
 * does not wake every slot).
 * Firing can be up to RESOLUTION_MS late: think times and the 15 s ack
 * deadline move by that much, action → view latencies (timed from the send)
 * not at all.
 */
export const RESOLUTION_MS = 10;

export class WheelTimer {
  /** Slot the timer is due in, or -1 when not armed. */
  slot = -1;
  /** Settable, so a pooled timer (bot.ts's session clock) can be reused with another callback. */
  constructor(public fire: () => void) {}
  get armed(): boolean {
    return this.slot >= 0;
  }
}

export class TimerWheel {
  private readonly slots = new Map<number, WheelTimer[]>();
  private next = -1;
  private wake: NodeJS.Timeout | null = null;
  /** Slot the Node timer is set for (-1: none). */
  private wakeSlot = -1;
  private armed = 0;
  /** The latest slot any timer went to: the search for the next listed slot ends there. */
  private last = -1;
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
    if (slot > this.last) this.last = slot;
    if (this.next < 0) this.next = this.slotOf(this.now());
    if (!this.advancing && (this.wakeSlot < 0 || slot < this.wakeSlot)) this.wakeFor(slot);
  }

  private wakeFor(slot: number): void {
    if (this.wake) clearTimeout(this.wake);
    this.wakeSlot = slot;
    this.wake = setTimeout(() => this.advance(), Math.max(0, (slot + 1) * RESOLUTION_MS - this.now()));
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

  /** Fires every timer whose slot has come, in slot order, then sets the Node timer for the next one. */
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
    if (this.wake) clearTimeout(this.wake);
    this.wake = null;
    this.wakeSlot = -1;
    if (this.armed === 0) {
      this.slots.clear();
      this.next = this.last = -1;
      return;
    }
    // The next listed slot (its list may hold only cancelled timers: that wake-up then finds nothing).
    // Walking slot by slot costs at most the slots that pass, ≤ 1 / RESOLUTION_MS a second.
    let first = this.next;
    while (first < this.last && !this.slots.has(first)) first++;
    this.wakeFor(first);
  }
}
