/**
 * Admission by the playing tables' latency (issue 37: commands of tables already playing go before new
 * tables). A new table costs the box its opens, its players' joins and their first whole views; admitted
 * while the tables already playing wait on their moves, it makes every one of them wait longer. So while
 * this gateway's commands come back late, it refuses quick match at once (`queueRejected`, refusal
 * `capacity`, the client's "try later"), without asking the matchmaker.
 *
 * State: the round trips (send → the worker's reply, retries included) of the commands of the current
 * window (WINDOW_MS), and the verdict of the last full window: late when it held at least MIN_SAMPLES
 * commands and their p95 passed GATEWAY_ADMIT_MAX_COMMAND_MS. The verdict is rolled lazily, by the next
 * command or quick-match request after a window ends: no timer, no work per command beyond one store.
 *
 * Failure modes: a window with fewer than MIN_SAMPLES commands is never late — a gateway with no playing
 * tables has nothing to protect and must let tables in (else it would never admit again); a verdict is one
 * window old; a window keeps its first SAMPLE_CAP round trips (plenty for a p95). Off (0, the default): the
 * worker's headroom and the matchmaker's queue are then the only admission.
 */

/** Length of one measuring window (ms). */
const WINDOW_MS = 500;
/** Commands below which a window says nothing (not late). */
const MIN_SAMPLES = 20;
const SAMPLE_CAP = 4096;

export class LateCommands {
  private readonly samples = new Float64Array(SAMPLE_CAP);
  private n = 0;
  private windowStart: number;
  private lateNow = false;

  constructor(
    /** p95 round trip (ms) past which new tables are refused; 0 = never. */
    private readonly limitMs: number,
    /** A monotonic ms clock (performance.now; tests pass their own). */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.windowStart = now();
  }

  /** One command's round trip (ms). */
  record(ms: number): void {
    if (this.limitMs <= 0) return;
    this.roll();
    if (this.n < SAMPLE_CAP) this.samples[this.n++] = ms;
  }

  /** Whether the last full window found the commands late (new tables are refused meanwhile). */
  get late(): boolean {
    if (this.limitMs <= 0) return false;
    this.roll();
    return this.lateNow;
  }

  private roll(): void {
    const t = this.now();
    if (t - this.windowStart < WINDOW_MS) return;
    this.lateNow = this.n >= MIN_SAMPLES && p95(this.samples.subarray(0, this.n)) > this.limitMs;
    this.n = 0;
    this.windowStart = t;
  }
}

function p95(xs: Float64Array): number {
  const sorted = xs.slice().sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))];
}
