/**
 * The swarm's statistics: one HDR histogram per metric for the whole run, per
 * stage and per interval, plus counters. Histograms record microseconds
 * (integers, 3 significant digits), so a p99 read from the merge of several
 * swarm processes is exactly the p99 of all their samples: adding two HDR
 * histograms is exact, unlike averaging their percentiles.
 */
import { build, decodeFromCompressedBase64, encodeIntoCompressedBase64, type Histogram } from 'hdr-histogram-js';

export const METRICS = ['action', 'connect', 'signin', 'reconnect'] as const;
export type Metric = (typeof METRICS)[number];

/** What each metric measures, for --help, the report and the README. */
export const METRIC_DOC: Record<Metric, string> = {
  action: 'action sent → first view that reflects it (the ack’s seq)',
  connect: 'socket opened → welcome (token checked by the gateway)',
  signin: 'lobby sign-in request → token',
  reconnect: 'socket dropped by a reconnect storm → welcome again',
};

const HIGHEST_US = 3_600_000_000; // one hour

export function newHistogram(): Histogram {
  return build({
    bitBucketSize: 32,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HIGHEST_US,
    numberOfSignificantValueDigits: 3,
    autoResize: true,
    useWebAssembly: false,
  });
}

export const toMicros = (ms: number): number => Math.max(1, Math.min(HIGHEST_US, Math.round(ms * 1000)));

/** Counters and histograms of one time span (the run, a stage or an interval). */
export interface Bucket {
  hist: Record<Metric, Histogram>;
  actions: number;
  raced: number;
  finished: number;
  /** Sign-ins the lobby answered with "too many requests" (retried later; not errors). */
  throttled: number;
  /** Frames received by spectators. */
  spectatorViews: number;
  errors: Record<string, number>;
  /** Open sockets at the last sample of the span (a gauge: processes add theirs). */
  sockets: number;
  /** Tables the scenario asked for at the last sample of the span. */
  tables: number;
  /** Of those, tables whose players were seated (matched to a room) at the last sample (a gauge). */
  seated: number;
  /** Requests the platform refused for want of capacity (codes capacity, full): counted apart from errors. */
  refused: number;
  /** The same refusals by machine code (capacity, full, queueFull). */
  refusedKinds: Record<string, number>;
}

export function newBucket(): Bucket {
  const hist = {} as Record<Metric, Histogram>;
  for (const m of METRICS) hist[m] = newHistogram();
  return {
    hist,
    actions: 0,
    raced: 0,
    finished: 0,
    throttled: 0,
    spectatorViews: 0,
    errors: {},
    sockets: 0,
    tables: 0,
    seated: 0,
    refused: 0,
    refusedKinds: {},
  };
}

type CounterName = 'actions' | 'raced' | 'finished' | 'throttled' | 'spectatorViews' | 'refused';

/** Adds `from` into `into`; gauges add too (each swarm process reports its own sockets and tables). */
export function mergeBucket(into: Bucket, from: Bucket): void {
  for (const m of METRICS) into.hist[m].add(from.hist[m]);
  into.actions += from.actions;
  into.raced += from.raced;
  into.finished += from.finished;
  into.throttled += from.throttled;
  into.spectatorViews += from.spectatorViews;
  into.refused += from.refused ?? 0;
  for (const [k, n] of Object.entries(from.errors)) into.errors[k] = (into.errors[k] ?? 0) + n;
  // Absent in the statistics of a swarm process from before refusals had codes.
  for (const [k, n] of Object.entries(from.refusedKinds ?? {})) into.refusedKinds[k] = (into.refusedKinds[k] ?? 0) + n;
  into.sockets += from.sockets;
  into.tables += from.tables;
  into.seated += from.seated ?? 0;
}

export const errorCount = (b: Bucket): number => Object.values(b.errors).reduce((a, n) => a + n, 0);

export interface EncodedBucket extends Omit<Bucket, 'hist'> {
  /** Compressed base64 HDR histograms (the HdrHistogram interchange format). */
  hist: Record<Metric, string>;
}

export function encodeBucket(b: Bucket): EncodedBucket {
  const hist = {} as Record<Metric, string>;
  for (const m of METRICS) hist[m] = encodeIntoCompressedBase64(b.hist[m]);
  return { ...b, errors: { ...b.errors }, refusedKinds: { ...b.refusedKinds }, hist };
}

export function decodeBucket(e: EncodedBucket): Bucket {
  const hist = {} as Record<Metric, Histogram>;
  for (const m of METRICS) {
    // Decode into a histogram of our own layout so that later adds never truncate.
    hist[m] = newHistogram();
    hist[m].add(decodeFromCompressedBase64(e.hist[m], 32, false));
  }
  return { ...e, errors: { ...e.errors }, refusedKinds: { ...(e.refusedKinds ?? {}) }, hist };
}

export interface EncodedStats {
  intervalMs: number;
  /** Epoch ms every process counts intervals from. */
  startAt: number;
  warmupMs: number;
  intervals: (EncodedBucket & { i: number })[];
  stages: EncodedBucket[];
  total: EncodedBucket;
}

/**
 * Where the samples of one swarm process (or the merge of several) go. Each
 * sample lands in the interval and stage of its time, and in the run total once
 * the warm-up is over.
 */
export class RunStats {
  readonly intervals = new Map<number, Bucket>();
  readonly stages: Bucket[];
  readonly total = newBucket();

  constructor(
    readonly intervalMs: number,
    readonly startAt: number,
    readonly warmupMs: number,
    stageCount: number,
    /** Index of the stage running `elapsedMs` after the start. */
    private readonly stageAt: (elapsedMs: number) => number = () => 0,
  ) {
    this.stages = Array.from({ length: stageCount }, newBucket);
  }

  private spans(now: number): Bucket[] {
    const elapsed = Math.max(0, now - this.startAt);
    const i = Math.floor(elapsed / this.intervalMs);
    let b = this.intervals.get(i);
    if (!b) this.intervals.set(i, (b = newBucket()));
    const stage = this.stages[Math.min(this.stages.length - 1, this.stageAt(elapsed))];
    const spans = stage ? [b, stage] : [b];
    if (elapsed >= this.warmupMs) spans.push(this.total);
    return spans;
  }

  record(metric: Metric, ms: number, now = Date.now()): void {
    const us = toMicros(ms);
    for (const b of this.spans(now)) b.hist[metric].recordValue(us);
  }

  count(counter: CounterName, now = Date.now()): void {
    for (const b of this.spans(now)) b[counter]++;
  }

  /** A request refused for want of capacity, with its machine code: counted apart from errors. */
  refusal(code: string, now = Date.now()): void {
    for (const b of this.spans(now)) {
      b.refused++;
      b.refusedKinds[code] = (b.refusedKinds[code] ?? 0) + 1;
    }
  }

  /**
   * Refusals over the whole run, warm-up included, by code: a ramp past capacity is refused too, and the
   * count and its codes must cover the same time (the total bucket holds only what followed the warm-up).
   */
  refusals(): { refused: number; refusedKinds: Record<string, number> } {
    const refusedKinds: Record<string, number> = {};
    let refused = 0;
    for (const b of this.intervals.values()) {
      refused += b.refused;
      for (const [k, n] of Object.entries(b.refusedKinds)) refusedKinds[k] = (refusedKinds[k] ?? 0) + n;
    }
    return { refused, refusedKinds };
  }

  error(kind: string, now = Date.now()): void {
    for (const b of this.spans(now)) b.errors[kind] = (b.errors[kind] ?? 0) + 1;
  }

  /**
   * Gauges: the interval, its stage and the total keep the latest value. `teardown`: the sample after the
   * run stopped its tables; it leaves the stages alone, so the last stage keeps what it seated while it ran
   * (an offered-load curve reads each stage's gauges, offered-curve.ts).
   */
  gauge(sockets: number, tables: number, now = Date.now(), seated = 0, teardown = false): void {
    for (const b of this.spans(now)) {
      if (teardown && this.stages.includes(b)) continue;
      b.sockets = sockets;
      b.tables = tables;
      b.seated = seated;
    }
    // Warm-up samples are not in the total's histograms, but the gauges follow the run.
    this.total.sockets = sockets;
    this.total.tables = tables;
    this.total.seated = seated;
  }

  /**
   * The most tables the scenario asked for at once and the most that were seated at once (interval gauges,
   * summed over the swarm processes): the run seated what it was asked for, or it did not.
   */
  seating(): { asked: number; seated: number } {
    let asked = 0;
    let seated = 0;
    for (const b of this.intervals.values()) {
      asked = Math.max(asked, b.tables);
      seated = Math.max(seated, b.seated);
    }
    return { asked, seated };
  }

  encode(): EncodedStats {
    return {
      intervalMs: this.intervalMs,
      startAt: this.startAt,
      warmupMs: this.warmupMs,
      intervals: [...this.intervals.entries()].sort((a, b) => a[0] - b[0]).map(([i, b]) => ({ i, ...encodeBucket(b) })),
      stages: this.stages.map(encodeBucket),
      total: encodeBucket(this.total),
    };
  }

  /** Adds another process's statistics (same start, interval and stages) into these. */
  merge(other: EncodedStats): void {
    if (other.intervalMs !== this.intervalMs || other.startAt !== this.startAt)
      throw new Error('cannot merge statistics of runs with different start or interval');
    for (const { i, ...e } of other.intervals) {
      let b = this.intervals.get(i);
      if (!b) this.intervals.set(i, (b = newBucket()));
      mergeBucket(b, decodeBucket(e));
    }
    other.stages.forEach((e, i) => this.stages[i] && mergeBucket(this.stages[i], decodeBucket(e)));
    mergeBucket(this.total, decodeBucket(other.total));
  }

  static decode(e: EncodedStats, stageAt?: (elapsedMs: number) => number): RunStats {
    const s = new RunStats(e.intervalMs, e.startAt, e.warmupMs, e.stages.length, stageAt);
    s.merge(e);
    return s;
  }
}

export interface Summary {
  count: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export const round = (ms: number): number => Math.round(ms * 10) / 10;

/** Percentiles of a histogram in ms. */
export function summarize(h: Histogram): Summary {
  if (h.totalCount === 0) return { count: 0, p50: 0, p90: 0, p95: 0, p99: 0, max: 0, mean: 0 };
  const at = (p: number) => round(h.getValueAtPercentile(p) / 1000);
  return {
    count: h.totalCount,
    p50: at(50),
    p90: at(90),
    p95: at(95),
    p99: at(99),
    max: round(h.maxValue / 1000),
    mean: round(h.mean / 1000),
  };
}

/** p-quantile of a plain list (for per-table figures in tests). */
export function quantile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}
