/**
 * Retry budgets: how many retries one process may make, as a share of its
 * first tries, and how long each waits. State: one token bucket per budget,
 * in this process's memory (nothing shared, nothing persisted: a restart
 * starts with a full `floor`). Failure mode it exists for: under overload
 * every caller retrying its timed-out request multiplies the offered load by
 * its attempt count, and the work of retrying is what keeps the system down
 * (issue 37: 1,096 snapshot-write retries and 3,644 failed failovers in one
 * collapse). With a budget, retries add at most `ratio` of the first tries
 * (plus the `floor` a quiet process keeps for its rare failures), whatever
 * the number of callers or of attempts each would like.
 *
 * A first try deposits `ratio` tokens (up to `cap`); a retry takes one, or is
 * refused when none is left (the caller then fails at once with its own
 * refusal code instead of waiting again). Back-off is exponential with full
 * jitter, so callers refused together do not come back together.
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
 * Wait before retry number `attempt` (1 = the first retry): uniform in [0, min(maxMs, baseMs · 2^(attempt-1))]
 * ("full jitter"). `random` is injectable so tests can pin it.
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/** Whether work that had to be done by `deadline` (ms since the epoch, on `now`'s clock) is already too late. */
export const pastDeadline = (deadline: number | undefined, now: number): boolean =>
  deadline !== undefined && deadline > 0 && now >= deadline;
