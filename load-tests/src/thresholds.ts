/**
 * k6-style pass/fail criteria, checked against the run's totals (after the
 * warm-up): `p99<100` (action→view p99 under 100 ms), `connect.p95<=50`,
 * `errors<0.1%` (errors per acknowledged action), `errors==0`, `actions>1000`,
 * `rate>=50` (actions per second). The CLI exits with THRESHOLDS_FAILED when
 * any fails, so a pipeline can gate on it.
 */
import { METRICS, errorCount, summarize, type Bucket, type Metric } from './stats.ts';

export const THRESHOLDS_FAILED = 99; // k6's exit code for the same case

const STATS = ['p50', 'p90', 'p95', 'p99', 'max', 'mean'] as const;
const COUNTS = ['errors', 'actions', 'rate', 'finished'] as const;
const OPS = {
  '<': (a: number, b: number) => a < b,
  '<=': (a: number, b: number) => a <= b,
  '>': (a: number, b: number) => a > b,
  '>=': (a: number, b: number) => a >= b,
  '==': (a: number, b: number) => a === b,
} as const;
type Op = keyof typeof OPS;

export interface Threshold {
  source: string;
  metric: Metric | null;
  stat: (typeof STATS)[number] | (typeof COUNTS)[number];
  op: Op;
  value: number;
  percent: boolean;
}

export const THRESHOLD_DOC =
  `[METRIC.]STAT OP VALUE with METRIC ${METRICS.join('|')} (default action), STAT ${STATS.join('|')} (ms), ` +
  `or errors|actions|finished (counts; errors may end in %: per action) | rate (actions/s); OP < <= > >= ==`;

export function parseThreshold(source: string): Threshold {
  const m = /^\s*(?:([a-z]+)\.)?([a-z0-9]+)\s*(<=|>=|==|<|>)\s*(\d+(?:\.\d+)?)(%?)\s*$/.exec(source);
  if (!m) throw new Error(`threshold "${source}" is not ${THRESHOLD_DOC}`);
  const [, metric, stat, op, value, percent] = m;
  const isStat = (STATS as readonly string[]).includes(stat);
  const isCount = (COUNTS as readonly string[]).includes(stat);
  if (!isStat && !isCount) throw new Error(`threshold "${source}": unknown statistic ${stat}`);
  if (metric !== undefined && (!isStat || !(METRICS as readonly string[]).includes(metric)))
    throw new Error(`threshold "${source}": unknown metric ${metric} (known: ${METRICS.join(', ')})`);
  if (percent && stat !== 'errors') throw new Error(`threshold "${source}": only errors can be a percentage`);
  return {
    source,
    metric: isStat ? ((metric as Metric | undefined) ?? 'action') : null,
    stat: stat as Threshold['stat'],
    op: op as Op,
    value: Number(value),
    percent: percent === '%',
  };
}

export interface ThresholdResult {
  threshold: string;
  ok: boolean;
  /** The measured figure, in the threshold's unit. */
  actual: number;
}

export function evaluate(thresholds: Threshold[], total: Bucket, measuredMs: number): ThresholdResult[] {
  return thresholds.map((t) => {
    let actual: number;
    if (t.metric) actual = summarize(total.hist[t.metric])[t.stat as (typeof STATS)[number]];
    else if (t.stat === 'errors')
      actual = t.percent ? (errorCount(total) / Math.max(1, total.actions)) * 100 : errorCount(total);
    else if (t.stat === 'rate') actual = total.actions / Math.max(0.001, measuredMs / 1000);
    else actual = total[t.stat as 'actions' | 'finished'];
    actual = Math.round(actual * 1000) / 1000;
    return { threshold: t.source, ok: OPS[t.op](actual, t.value), actual };
  });
}
