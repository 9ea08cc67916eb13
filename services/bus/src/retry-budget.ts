/**
 * Retry budgets and back-off: how many retries one process may make, as a share of its first tries,
 * and how long each waits. Pure, with no imports: the browser client's session library takes its
 * back-off from here too (`@joke/bus/retry-budget`), so nothing Node-only may come into this file.
 *
 * State: one token bucket per budget, in this process's memory (nothing shared, nothing persisted: a
 * restart starts with a full `floor`). Failure mode it exists for: under overload every caller retrying
 * its timed-out request multiplies the offered load by its attempt count, and the work of retrying is
 * what keeps the system down (issue 37: 1,096 snapshot-write retries and 3,644 failed failovers in one
 * collapse). With a budget, retries add at most `ratio` of the first tries (plus the `floor` a quiet
 * process keeps for its rare failures), whatever the number of callers or of attempts each would like.
 *
 * A first try deposits `ratio` tokens (up to `cap`); a retry takes one, or is refused when none is left
 * (the caller then fails at once with its own refusal code instead of waiting again). Every wait is
 * exponential and jittered, so callers refused together do not come back together: the services'
 * `backoffMs` draws from the whole step ("full jitter"); a client's `backoffDelay` keeps each wait near
 * its step (± `jitter`), so a reconnect is not made at once by chance, and has a try count of its own.
 */

export interface RetryBudgetOptions {
  /** Retries allowed per first try, e.g. 0.1: at most 10 % more requests than the callers' own. */
  ratio: number;
  /** Tokens a quiet process starts with and may always build up to: a few retries for rare failures. */
  floor: number;
  /** Most tokens the bucket holds (a burst of failures after a long calm spends no more than this). */
  cap?: number;
}

/** Tokens are counted in thousandths, so that ten first tries at 0.1 make exactly one retry (no float drift). */
const UNIT = 1000;

export class RetryBudget {
  private milli: number;
  private readonly capMilli: number;
  private readonly perFirst: number;
  /** First tries and retries counted (metrics, tests). */
  firsts = 0;
  retries = 0;
  refused = 0;

  constructor(opts: RetryBudgetOptions) {
    if (!(opts.ratio >= 0) || !(opts.floor >= 0)) throw new RangeError('retry budget: ratio and floor must be ≥ 0');
    this.perFirst = Math.round(opts.ratio * UNIT);
    this.capMilli = Math.max(opts.cap ?? Math.max(opts.floor, 100), opts.floor) * UNIT;
    this.milli = opts.floor * UNIT;
  }

  /** A first try is being made: it earns the budget `ratio` of a retry. */
  first(): void {
    this.firsts++;
    this.milli = Math.min(this.capMilli, this.milli + this.perFirst);
  }

  /** Whether a retry may go now; when it may, its token is spent. */
  tryRetry(): boolean {
    if (this.milli >= UNIT) {
      this.milli -= UNIT;
      this.retries++;
      return true;
    }
    this.refused++;
    return false;
  }

  /** Tokens left (tests, metrics). */
  available(): number {
    return this.milli / UNIT;
  }
}

/**
 * The exponential step of 0-based try `n`: `baseMs · 2^n`, at most `maxMs`. The exponent stops at 30
 * (≈ 10⁹ × base, past any `maxMs` in use), so a zero base after many tries is 0, not 0 · ∞ = NaN.
 */
export const backoffStep = (n: number, baseMs: number, maxMs: number): number =>
  Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(0, n), 30));

/**
 * Wait before retry number `attempt` (1 = the first retry): uniform in [0, min(maxMs, baseMs · 2^(attempt-1))]
 * ("full jitter"). `random` is injectable so tests can pin it.
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  return Math.floor(random() * backoffStep(attempt - 1, baseMs, maxMs));
}

/**
 * A bounded, jittered exponential back-off with a try budget: a client's reconnect, a join the gateway
 * could not get answered, an action it answered `unavailable`. The jitter spreads thousands of clients
 * that lost the same gateway over the window instead of a thundering herd at each step; the budget
 * says when to stop trying and report the failure instead.
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

/** Wait before try `attempt` (0-based) on back-off `b`; `random` draws from [0, 1). */
export function backoffDelay(b: Backoff, attempt: number, random: () => number): number {
  const step = backoffStep(attempt, b.baseMs, b.maxMs);
  return Math.max(0, Math.round(step * (1 - b.jitter + 2 * b.jitter * random())));
}

/** Whether work that had to be done by `deadline` (ms since the epoch, on `now`'s clock) is already too late. */
export const pastDeadline = (deadline: number | undefined, now: number): boolean =>
  deadline !== undefined && deadline > 0 && now >= deadline;
