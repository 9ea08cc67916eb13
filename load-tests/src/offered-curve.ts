/**
 * The offered-load curve (issue 37 item 5): a stage plan that steps the offered tables through fixed
 * levels — by default 0.5×, 1×, 1.5×, 2×, 3× a given knee, then back to 0.5× — holding each, and the
 * per-level figures a run yields: offered and seated tables, refusals by machine code, errors, actions/s,
 * p50/p99. `--profile offered-curve --knee N [--hold 60s]` or `--curve-tables A,B,C [--hold 60s]`.
 *
 * The verdict is per level. Errors (timeouts, `unavailable`, dropped sockets, bad frames) fail a level at
 * any load. Seating short of what was offered fails a level only when the platform gave no reason:
 * above the knee, tables refused with a code (capacity, full, queueFull) are the platform shedding load as
 * designed, so a level whose shortfall came with refusals passes. A level that seated under 95 % without
 * a single refusal was short (lost, not refused) and fails.
 *
 * State: none (pure functions of the options and of the run's per-stage buckets).
 */
import type { Stage } from './scenario.ts';
import { errorCount, summarize, type Bucket } from './stats.ts';

/** The default levels, as multiples of the knee; the last one measures recovery. */
export const CURVE_FACTORS = [0.5, 1, 1.5, 2, 3, 0.5] as const;
export const DEFAULT_CURVE_HOLD_MS = 60_000;
/** A level seated under this share of what it offered, with no refusal to explain it, was short. */
export const SEATED_SHARE = 0.95;

export interface CurvePlan {
  /** The knee the levels were derived from (absent for an explicit `--curve-tables` list). */
  knee?: number;
  /** Offered tables of each level, in order. */
  tables: number[];
  holdMs: number;
}

/** The levels of a knee: 0.5×, 1×, 1.5×, 2×, 3×, 0.5× (rounded, at least one table each). */
export function kneeLevels(knee: number): number[] {
  if (!(Number.isInteger(knee) && knee >= 1)) throw new Error(`knee ${knee} is not a whole number of tables ≥ 1`);
  return CURVE_FACTORS.map((f) => Math.max(1, Math.round(knee * f)));
}

/** One `step` stage per level, named by its offered tables (and factor of the knee when there is one). */
export function curveStages(plan: CurvePlan): Stage[] {
  if (plan.tables.length === 0) throw new Error('an offered-load curve needs at least one level');
  return plan.tables.map((tables) => {
    const factor = plan.knee ? ` (${Math.round((tables / plan.knee) * 100) / 100}×)` : '';
    return { kind: 'step', tables, duration: plan.holdMs, name: `offered ${tables}${factor}`.slice(0, 40) };
  });
}

export interface CurvePoint {
  /** Level index (stage order), 0-based. */
  level: number;
  offered: number;
  /** Tables seated at the level's last sample. */
  seated: number;
  refused: number;
  refusedKinds: Record<string, number>;
  errors: number;
  errorKinds: Record<string, number>;
  actionsPerSecond: number;
  /** Action → view latency (ms); null when no action was acknowledged in the level. */
  p50: number | null;
  p99: number | null;
  ok: boolean;
  /** Why the level failed (empty when ok). */
  why: string[];
}

/** The figures and verdict of one level from its stage bucket. */
export function curvePoint(level: number, offered: number, b: Bucket, durationMs: number): CurvePoint {
  const errors = errorCount(b);
  const action = b.hist.action.totalCount > 0 ? summarize(b.hist.action) : null;
  const why: string[] = [];
  if (errors > 0)
    why.push(
      `${errors} errors (${Object.entries(b.errors)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')})`,
    );
  if (b.seated < offered * SEATED_SHARE && b.refused === 0)
    why.push(`seated ${b.seated} of ${offered} offered with no refusal: tables lost, not refused`);
  return {
    level,
    offered,
    seated: b.seated,
    refused: b.refused,
    refusedKinds: { ...b.refusedKinds },
    errors,
    errorKinds: { ...b.errors },
    actionsPerSecond: Math.round((b.actions / Math.max(0.001, durationMs / 1000)) * 10) / 10,
    p50: action ? action.p50 : null,
    p99: action ? action.p99 : null,
    ok: why.length === 0,
    why,
  };
}

/** Every level's point, from the run's stages (one stage per level, as `curveStages` made them). */
export function curveOf(stages: { to: number; duration: number }[], buckets: Bucket[]): CurvePoint[] {
  return stages.map((s, i) => curvePoint(i, s.to, buckets[i]!, s.duration));
}
