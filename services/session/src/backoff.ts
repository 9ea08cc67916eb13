/**
 * Bounded, jittered exponential back-off: the wait before try `attempt` (0-based) of a reconnect, a
 * join the gateway could not get answered, or an action it answered `unavailable`. Pure. The jitter
 * spreads thousands of clients that lost the same gateway over the window instead of a thundering
 * herd at each step; the budget says when to stop trying and report the failure instead.
 */

export interface Backoff {
  /** The first wait. */
  baseMs: number;
  /** No wait is longer than this (before jitter). */
  maxMs: number;
  /** Each wait is drawn from [1 − jitter, 1 + jitter] × its step: 0 = none, 0.25 = ±25 %. */
  jitter: number;
  /** Tries before giving up (Infinity: never). */
  budget: number;
}

/** Wait before try `attempt` (0-based); `random` draws from [0, 1). */
export function backoffDelay(b: Backoff, attempt: number, random: () => number): number {
  const step = Math.min(b.maxMs, b.baseMs * 2 ** Math.min(attempt, 30));
  return Math.max(0, Math.round(step * (1 - b.jitter + 2 * b.jitter * random())));
}
