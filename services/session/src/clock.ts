/**
 * The time a session schedules against: its reconnect back-off, resends, join retries and keepalive.
 * Injected, so tests move time by hand and the load-test bots put thousands of sessions' timers on
 * one timer wheel. No state here. `SessionClock` is the part of `@joke/bus/clock`'s `Clock` a session
 * needs (that module is Node-only: `unref`, `setImmediate`), so a bus `FakeClock` or `systemClock`
 * fits it as it is; `globalClock` is the browser's and Node's own timers.
 */

export interface SessionClock {
  /** Milliseconds since the epoch, as `Date.now()`. */
  now(): number;
  /** A handle that only `clearTimeout` of the same clock reads. */
  setTimeout(fn: () => void, ms: number): unknown;
  // Method syntax on purpose: a clock whose clearTimeout takes its own handle type (bus Clock) fits.
  clearTimeout(timer: unknown): void;
}

type Handle = ReturnType<typeof globalThis.setTimeout>;

/** `Date.now()` and the global timers: a window's in the browser, Node's elsewhere. */
export const globalClock = {
  now: (): number => Date.now(),
  setTimeout: (fn: () => void, ms: number): Handle => globalThis.setTimeout(fn, ms),
  clearTimeout: (timer: Handle | undefined): void => globalThis.clearTimeout(timer),
} satisfies SessionClock;
