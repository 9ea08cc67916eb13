/**
 * k6-style pass/fail criteria, checked against the run's totals (after the
 * warm-up): `p99<100` (action→view p99 under 100 ms), `connect.p95<=50`,
 * `errors<0.1%` (errors per acknowledged action), `errors==0`, `actions>1000`,
 * `rate>=50` (actions per second), `seated>=95%` (the most tables seated at
 * once, as a share of the most asked for), `refused==0`. The CLI exits with
 * THRESHOLDS_FAILED when any fails, so a pipeline can gate on it.
 *
 * Two hold unless the run names the same statistic itself (which relaxes
 * it, e.g. `--threshold seated>=50%` or `--threshold actions>=0`): a run
 * that seated under 95 % of its tables, or played no action, failed — it
 * measured something other than what it was asked to (issue 37: a throttled
 * lobby made a run "pass" with a fraction of its tables).
 */
import { METRICS, errorCount, summarize, type Bucket, type Metric } from './stats.ts';

export const THRESHOLDS_FAILED = 99; // k6's exit code for the same case

const STATS = ['p50', 'p90', 'p95', 'p99', 'max', 'mean'] as const;
const COUNTS = ['errors', 'actions', 'rate', 'finished', 'seated', 'refused'] as const;
/** What every run must show unless it sets a threshold on the same statistic. */
export const DEFAULT_THRESHOLDS = ['seated>=95%', 'actions>0'] as const;
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
  `or errors|actions|finished|seated|refused (counts; errors may end in %: per action, seated: of the tables ` +
  `asked for) | rate (actions/s); OP < <= > >= ==`;

export function parseThreshold(source: string): Threshold {
  const m = /^\s*(?:([a-z]+)\.)?([a-z0-9]+)\s*(<=|>=|==|<|>)\s*(\d+(?:\.\d+)?)(%?)\s*$/.exec(source);
  if (!m) throw new Error(`threshold "${source}" is not ${THRESHOLD_DOC}`);
  const [, metric, stat, op, value, percent] = m;
  const isStat = (STATS as readonly string[]).includes(stat);
  const isCount = (COUNTS as readonly string[]).includes(stat);
  if (!isStat && !isCount) throw new Error(`threshold "${source}": unknown statistic ${stat}`);
  if (metric !== undefined && (!isStat || !(METRICS as readonly string[]).includes(metric)))
    throw new Error(`threshold "${source}": unknown metric ${metric} (known: ${METRICS.join(', ')})`);
  if (percent && stat !== 'errors' && stat !== 'seated')
    throw new Error(`threshold "${source}": only errors and seated can be a percentage`);
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

/**
 * The user's thresholds, then each default whose statistic they did not set. `perLevel`: an offered-load
 * curve judges seating per level (offered-curve.ts), so the run-wide seating default does not apply.
 */
export function withDefaults(user: readonly string[], perLevel = false): string[] {
  const set = new Set(user.map((u) => parseThreshold(u)).map((t) => `${t.metric ?? ''}.${t.stat}`));
  if (perLevel) set.add('.seated');
  return [...user, ...DEFAULT_THRESHOLDS.filter((d) => !set.has(`.${parseThreshold(d).stat}`))];
}

export function evaluate(
  thresholds: Threshold[],
  total: Bucket,
  measuredMs: number,
  seating: { asked: number; seated: number } = { asked: 0, seated: 0 },
  refused = total.refused,
): ThresholdResult[] {
  return thresholds.map((t) => {
    let actual: number;
    if (t.metric) actual = summarize(total.hist[t.metric])[t.stat as (typeof STATS)[number]];
    else if (t.stat === 'seated')
      actual = t.percent ? (seating.seated / Math.max(1, seating.asked)) * 100 : seating.seated;
    else if (t.stat === 'refused') actual = refused;
    else if (t.stat === 'errors')
      actual = t.percent ? (errorCount(total) / Math.max(1, total.actions)) * 100 : errorCount(total);
    else if (t.stat === 'rate') actual = total.actions / Math.max(0.001, measuredMs / 1000);
    else actual = total[t.stat as 'actions' | 'finished'];
    actual = Math.round(actual * 1000) / 1000;
    return { threshold: t.source, ok: OPS[t.op](actual, t.value), actual };
  });
}
