/**
 * The time our services schedule against: the wall clock and the timers of
 * their own duties (turn deadlines, bot think time, heartbeats, lease renewal,
 * retries). Services take a `Clock` instead of calling `setTimeout`/`Date.now`
 * so tests can run those duties on `FakeClock` time while the NATS and Redis
 * clients underneath keep their real timers (which is why `vi.useFakeTimers`,
 * which replaces the globals for everyone, is not an option).
 */

type NodeTimer = ReturnType<typeof globalThis.setTimeout>;

/** A FakeClock's handle: an identity and nothing else (no process is held open by it). */
export class FakeTimer {
  private readonly fake = true;
}

/** A scheduled callback: Node's own handle from `systemClock`, a `FakeTimer` from a `FakeClock`. */
export type Timer = NodeTimer | FakeTimer;

/** Lets the process exit with this timer pending (Node's `unref`); a FakeTimer holds nothing open. */
export function unrefTimer(timer: Timer): void {
  if (!(timer instanceof FakeTimer)) timer.unref();
}

export interface Clock {
  /**
   * Whether this clock's time is the machine's: real delays (an event loop's lag) may then be read against
   * it. A fake clock's time moves only when a test moves it.
   */
  readonly real: boolean;
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
  setTimeout(fn: () => void, ms: number): Timer;
  clearTimeout(timer: Timer | null | undefined): void;
  setInterval(fn: () => void, ms: number): Timer;
  clearInterval(timer: Timer | null | undefined): void;
  /** Resolves after `ms` of this clock's time. */
  sleep(ms: number): Promise<void>;
}

/** Node's own timers and `Date.now()`: the default of every service. */
export const systemClock: Clock = {
  real: true,
  now: () => Date.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (t) => globalThis.clearTimeout(t instanceof FakeTimer ? undefined : (t ?? undefined)),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (t) => globalThis.clearInterval(t instanceof FakeTimer ? undefined : (t ?? undefined)),
  sleep: (ms) => new Promise((r) => globalThis.setTimeout(r, ms)),
};

interface Scheduled {
  at: number;
  /** Creation order: timers due at the same ms fire in the order they were set, as Node's do. */
  order: number;
  fn: () => void;
  /** Interval period; undefined for a one-shot timer. */
  every?: number;
}

/**
 * Time that moves only when a test says so. `advance(ms)` fires every timer due
 * up to `now + ms` in time order, moving `now()` to each one's due time before
 * it runs and letting promises and ready I/O callbacks settle after each, so a
 * timer set by a fired timer's work (the next bot move, the next heartbeat)
 * fires within the same advance when it is due in it.
 */
export class FakeClock implements Clock {
  readonly real = false;
  private t: number;
  private seq = 0;
  private readonly timers = new Map<Timer, Scheduled>();

  /** `start` defaults to the real time now, so timestamps written to real stores look ordinary. */
  constructor(
    start = Date.now(),
    /** Event-loop turns (setImmediate) given to promises after each fired timer. */
    private readonly settleTurns = 5,
  ) {
    this.t = start;
  }

  now(): number {
    return this.t;
  }

  setTimeout(fn: () => void, ms: number): Timer {
    return this.schedule(fn, ms);
  }

  setInterval(fn: () => void, ms: number): Timer {
    // Node runs a 0 ms interval every 1 ms; so does this, instead of spinning inside one advance.
    return this.schedule(fn, ms, Math.max(1, ms));
  }

  clearTimeout(timer: Timer | null | undefined): void {
    if (timer) this.timers.delete(timer);
  }

  clearInterval(timer: Timer | null | undefined): void {
    if (timer) this.timers.delete(timer);
  }

  sleep(ms: number): Promise<void> {
    return new Promise((r) => this.setTimeout(r, ms));
  }

  /** Timers waiting to fire. */
  get pending(): number {
    return this.timers.size;
  }

  /** When the next timer is due, or null when none is armed. */
  nextAt(): number | null {
    return this.next(Infinity)?.[1].at ?? null;
  }

  /** Moves time forward by `ms`, firing what falls due on the way (see the class comment). */
  async advance(ms: number): Promise<void> {
    if (!(ms >= 0)) throw new Error(`FakeClock.advance: ${ms} is not a duration`);
    await this.advanceTo(this.t + ms);
  }

  /** Moves time to `at` (not backwards), firing what falls due on the way. */
  async advanceTo(at: number): Promise<void> {
    await this.settle();
    for (let due = this.next(at); due; due = this.next(at)) {
      const [timer, s] = due;
      this.t = Math.max(this.t, s.at);
      if (s.every === undefined) this.timers.delete(timer);
      else {
        // From when it ran, as Node does: after a stall an interval fires once, late, not once per period missed.
        s.at = this.t + s.every;
        s.order = this.seq++;
      }
      s.fn();
      await this.settle();
    }
    this.t = Math.max(this.t, at);
    await this.settle();
  }

  /**
   * Moves time forward by `ms` without firing anything: what a process that was not running sees (starved of
   * CPU, a long GC, a paused VM). The timers that fell due meanwhile fire at the next advance, each once and
   * late, in the order they fell due.
   */
  stall(ms: number): void {
    if (!(ms >= 0)) throw new Error(`FakeClock.stall: ${ms} is not a duration`);
    this.t += ms;
  }

  /** Fires the timers due now, without moving time. */
  runDue(): Promise<void> {
    return this.advance(0);
  }

  private schedule(fn: () => void, ms: number, every?: number): Timer {
    const timer = new FakeTimer();
    // Node treats a negative, NaN or missing delay as 1 ms.
    const delay = Number.isFinite(ms) && ms >= 1 ? Math.floor(ms) : 1;
    this.timers.set(timer, { at: this.t + delay, order: this.seq++, fn, every });
    return timer;
  }

  private next(limit: number): [Timer, Scheduled] | undefined {
    let best: [Timer, Scheduled] | undefined;
    for (const e of this.timers)
      if (e[1].at <= limit && (!best || e[1].at < best[1].at || (e[1].at === best[1].at && e[1].order < best[1].order)))
        best = e;
    return best;
  }

  private async settle(): Promise<void> {
    for (let i = 0; i < this.settleTurns; i++) await new Promise<void>((r) => setImmediate(r));
  }
}

/**
 * Advances `clock` in `stepMs` steps until `cond` holds: for what takes several timer firings with bus and
 * store round trips in between (first heartbeats, a worker letting go of fenced rooms). Fails after `maxMs`
 * of fake time (the timers never brought it about). Shared by the services' fake-time tests.
 */
export async function advanceUntil(
  clock: FakeClock,
  cond: () => boolean | Promise<boolean>,
  maxMs: number,
  what = 'condition',
  stepMs = 10,
): Promise<void> {
  const end = clock.now() + maxMs;
  while (!(await cond())) {
    if (clock.now() >= end) throw new Error(`fake time ran ${maxMs} ms without ${what}`);
    await clock.advance(stepMs);
  }
}
