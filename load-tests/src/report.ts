/**
 * The run's results for people and machines: a JSON document (totals, per
 * stage, per interval, with the encoded HDR histograms so several runs can be
 * merged again later) and a self-contained HTML page that plots it with uPlot
 * inlined (no network needed to open it).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { reportPage } from './report-page.ts';
import { curveSection } from './curve-svg.ts';
import type { SwarmOptions } from './options.ts';
import type { Timeline } from './scenario.ts';
import {
  METRICS,
  errorCount,
  summarize,
  type Bucket,
  type EncodedStats,
  type Metric,
  type RunStats,
  type Summary,
} from './stats.ts';
import type { ThresholdResult } from './thresholds.ts';
import { curveOf, type CurvePoint } from './offered-curve.ts';

export interface StageSummary {
  index: number;
  kind: string;
  label: string;
  startS: number;
  durationS: number;
  fromTables: number;
  toTables: number;
  actions: number;
  actionsPerSecond: number;
  errors: number;
  action: Summary;
  connect: Summary;
}

export interface Series {
  /** Seconds from the start, one entry per interval. */
  t: number[];
  p50: (number | null)[];
  p95: (number | null)[];
  p99: (number | null)[];
  max: (number | null)[];
  actionsPerSecond: number[];
  sockets: number[];
  tables: number[];
  spectatorViewsPerSecond: number[];
  /** Tables finished per second (each is a table started again when the bots requeue). */
  finishedPerSecond: number[];
  connectP95: (number | null)[];
  reconnectP95: (number | null)[];
  /** Errors per second by kind. */
  errors: Record<string, number[]>;
}

export interface LoadReport {
  generatedAt: string;
  options: SwarmOptions;
  workers: number;
  sourceAddresses: string[][];
  ok: boolean;
  thresholds: ThresholdResult[];
  measuredSeconds: number;
  totals: Record<Metric, Summary> & {
    actions: number;
    actionsPerSecond: number;
    raced: number;
    finished: number;
    errors: number;
    errorKinds: Record<string, number>;
    throttled: number;
    /** Requests refused for want of capacity (not errors), over the whole run (warm-up included). */
    refused: number;
    /** The same, by machine code (capacity, full, queueFull). */
    refusedKinds: Record<string, number>;
    /** The most tables asked for at once, and the most seated at once. */
    asked: number;
    seated: number;
    spectatorViews: number;
    peakSockets: number;
  };
  stages: StageSummary[];
  /** An offered-load curve's levels (--profile offered-curve, --curve-tables): figures and verdict of each. */
  curve?: CurvePoint[];
  series: Series;
  /** Everything, as mergeable HDR histograms. */
  stats: EncodedStats;
  /** Raw action latencies (ms) of each worker process, with --raw-samples. */
  samples?: number[][];
}

const summaries = (b: Bucket) =>
  Object.fromEntries(METRICS.map((m) => [m, summarize(b.hist[m])])) as Record<Metric, Summary>;

export function buildReport(a: {
  options: SwarmOptions;
  timeline: Timeline;
  stats: RunStats;
  thresholds: ThresholdResult[];
  workers: number;
  addresses: string[][];
  samples?: number[][];
  /** How long the run went (less than the stages when stopped early). */
  ranMs?: number;
}): LoadReport {
  const { stats, timeline } = a;
  const secs = stats.intervalMs / 1000;
  const last = Math.max(0, ...stats.intervals.keys());
  const idx = Array.from({ length: last + 1 }, (_, i) => i);
  const at = (i: number) => stats.intervals.get(i);
  const pct = (i: number, p: 'p50' | 'p95' | 'p99' | 'max', m: Metric = 'action') => {
    const b = at(i);
    return b && b.hist[m].totalCount > 0 ? summarize(b.hist[m])[p] : null;
  };
  const kinds = [...new Set([...stats.intervals.values()].flatMap((b) => Object.keys(b.errors)))].sort();
  const series: Series = {
    t: idx.map((i) => i * secs),
    p50: idx.map((i) => pct(i, 'p50')),
    p95: idx.map((i) => pct(i, 'p95')),
    p99: idx.map((i) => pct(i, 'p99')),
    max: idx.map((i) => pct(i, 'max')),
    actionsPerSecond: idx.map((i) => (at(i)?.actions ?? 0) / secs),
    sockets: idx.map((i) => at(i)?.sockets ?? 0),
    tables: idx.map((i) => at(i)?.tables ?? 0),
    spectatorViewsPerSecond: idx.map((i) => (at(i)?.spectatorViews ?? 0) / secs),
    finishedPerSecond: idx.map((i) => (at(i)?.finished ?? 0) / secs),
    connectP95: idx.map((i) => pct(i, 'p95', 'connect')),
    reconnectP95: idx.map((i) => pct(i, 'p95', 'reconnect')),
    errors: Object.fromEntries(kinds.map((k) => [k, idx.map((i) => (at(i)?.errors[k] ?? 0) / secs)])),
  };
  const measuredSeconds = Math.max(0.001, ((a.ranMs ?? timeline.totalMs) - stats.warmupMs) / 1000);
  const t = stats.total;
  const stages = timeline.stages.map((st, i): StageSummary => {
    const b = stats.stages[i];
    return {
      index: i,
      kind: st.kind,
      label: st.label,
      startS: st.startMs / 1000,
      durationS: st.duration / 1000,
      fromTables: st.from,
      toTables: st.to,
      actions: b.actions,
      actionsPerSecond: Math.round((b.actions / Math.max(0.001, st.duration / 1000)) * 10) / 10,
      errors: errorCount(b),
      action: summarize(b.hist.action),
      connect: summarize(b.hist.connect),
    };
  });
  // Judged per level: a level above the knee may seat less when the platform refused with a code.
  const curve = a.options.curve ? curveOf(timeline.stages, stats.stages) : undefined;
  return {
    generatedAt: new Date().toISOString(),
    options: a.options,
    workers: a.workers,
    sourceAddresses: a.addresses,
    ok: a.thresholds.every((r) => r.ok) && (curve?.every((p) => p.ok) ?? true),
    thresholds: a.thresholds,
    measuredSeconds,
    totals: {
      ...summaries(t),
      actions: t.actions,
      actionsPerSecond: Math.round((t.actions / measuredSeconds) * 10) / 10,
      raced: t.raced,
      finished: t.finished,
      errors: errorCount(t),
      errorKinds: t.errors,
      throttled: t.throttled,
      ...stats.refusals(),
      ...stats.seating(),
      spectatorViews: t.spectatorViews,
      peakSockets: Math.max(0, ...series.sockets),
    },
    stages,
    ...(curve && { curve }),
    series,
    stats: stats.encode(),
    ...(a.samples && { samples: a.samples }),
  };
}

const require = createRequire(import.meta.url);

/** The HTML page with the report's figures, uPlot and its stylesheet inlined. */
export function renderHtml(report: LoadReport): string {
  const uplotJs = readFileSync(require.resolve('uplot/dist/uPlot.iife.min.js'), 'utf8');
  const uplotCss = readFileSync(require.resolve('uplot/dist/uPlot.min.css'), 'utf8');
  // The page needs the figures, not the histograms or raw samples.
  const { stats: _stats, samples: _samples, ...figures } = report;
  const data = JSON.stringify(figures).replace(/</g, '\\u003c');
  return reportPage({
    uplotJs: uplotJs.replace(/<\/script/gi, '<\\/script'),
    uplotCss,
    data,
    curveHtml: curveSection(report.curve ?? []),
  });
}
