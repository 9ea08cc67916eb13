/**
 * Which notices are on screen, with repeats coalesced: three "○○ 님 시간 초과" in a row become one line
 * "○○ 님 시간 초과 ×3" instead of three stacked boxes over the table (issue 41). Pure bookkeeping, no Phaser,
 * so it is unit-tested; `Toasts` (overlays.ts) draws what it says.
 *
 * State: the visible notices, oldest first, each with its text, how many times it came, and when it goes.
 * Bounded to `max` lines: a new distinct notice past that drops the oldest. Failure modes: none (a notice
 * that expired is simply no longer there; `expire` is called by the drawer's timer or on the next push).
 */
export interface ShownToast<T> {
  readonly text: string;
  count: number;
  until: number;
  /** The drawer's own object (a Phaser Text) for this line. */
  handle: T;
}

export function toastLabel(text: string, count: number): string {
  return count > 1 ? `${text} ×${count}` : text;
}

export class ToastQueue<T> {
  readonly shown: ShownToast<T>[] = [];

  constructor(private readonly max = 3) {}

  /**
   * A notice arrives at `now`, to stay `ms`. A repeat of a visible one raises its count and its time;
   * otherwise `make` builds its line, and the lines pushed out past `max` are returned to be destroyed.
   */
  push(
    text: string,
    now: number,
    ms: number,
    make: () => T,
  ): { toast: ShownToast<T>; repeated: boolean; dropped: T[] } {
    const dropped = this.expire(now);
    const same = this.shown.find((s) => s.text === text);
    if (same) {
      same.count++;
      same.until = Math.max(same.until, now + ms);
      return { toast: same, repeated: true, dropped };
    }
    const toast: ShownToast<T> = { text, count: 1, until: now + ms, handle: make() };
    this.shown.push(toast);
    while (this.shown.length > this.max) dropped.push(this.shown.shift()!.handle);
    return { toast, repeated: false, dropped };
  }

  /** Removes every notice whose time is over at `now`; returns their lines. */
  expire(now: number): T[] {
    const gone: T[] = [];
    for (let i = this.shown.length - 1; i >= 0; i--)
      if (this.shown[i].until <= now) gone.push(...this.shown.splice(i, 1).map((s) => s.handle));
    return gone;
  }
}
