/**
 * k6's end-of-test summary (`handleSummary`) as the Node swarm reports a run: action→view
 * p50/p95/p99/max, actions and actions/s, tables seated of the plan, games finished, sign-ins and
 * sockets refused, protocol errors, and whether every threshold held. It prints a short text block
 * on stdout and, with `-e SUMMARY_JSON=path`, writes the same figures (plus k6's raw metrics) as
 * JSON: the tests read that file, not k6's exit code alone.
 */
import type { Plan } from './plan.ts';

interface MetricData {
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}
export interface SummaryData {
  metrics: Record<string, MetricData | undefined>;
  state: { testRunDurationMs: number; isStdOutTTY?: boolean };
}

export interface K6Report {
  tool: 'k6';
  tables: number;
  perTable: boolean;
  mix: string;
  durationS: number;
  tablesSeated: number;
  /** Share of the plan's seats that were matched (the threshold's figure). */
  seatedShare: number;
  /** Acknowledged actions of each mix entry, by `game/mode`. */
  actionsByMix: Record<string, number>;
  finished: number;
  actions: number;
  actionsPerS: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  raced: number;
  errors: number;
  signinRequests: number;
  signinRefused: number;
  socketsRefused: number;
  delivered: number;
  onTime: number;
  /** Thresholds that failed, by metric. */
  failed: string[];
  ok: boolean;
}

const val = (d: SummaryData, name: string, key: string): number => d.metrics[name]?.values[key] ?? 0;
const round = (x: number, digits = 1): number => Math.round(x * 10 ** digits) / 10 ** digits;

export function reportOf(d: SummaryData, plan: Plan): K6Report {
  const durationS = d.state.testRunDurationMs / 1000;
  const failed = Object.entries(d.metrics)
    .filter(([, m]) => m && Object.values(m.thresholds ?? {}).some((t) => !t.ok))
    .map(([name]) => name);
  const actions = val(d, 'actions', 'count');
  return {
    tool: 'k6',
    tables: plan.tables + plan.spikeTables,
    perTable: plan.perTable,
    mix: plan.mix.map((m) => `${m.game}/${m.mode}/${m.players}:${m.weight}`).join(','),
    durationS: round(durationS),
    tablesSeated: round(val(d, 'tables_seated', 'count'), 2),
    seatedShare: round(val(d, 'seats_seated', 'rate'), 4),
    actionsByMix: Object.fromEntries(
      plan.mix.map((m) => [`${m.game}/${m.mode}`, val(d, `actions{game:${m.game},mode:${m.mode}}`, 'count')]),
    ),
    finished: round(val(d, 'games_finished', 'count'), 2),
    actions,
    actionsPerS: round(durationS > 0 ? actions / durationS : 0),
    p50: round(val(d, 'action_to_view', 'med'), 2),
    p95: round(val(d, 'action_to_view', 'p(95)'), 2),
    p99: round(val(d, 'action_to_view', 'p(99)'), 2),
    max: round(val(d, 'action_to_view', 'max'), 2),
    raced: val(d, 'raced', 'count'),
    errors: val(d, 'protocol_errors', 'count'),
    signinRequests: val(d, 'http_reqs{name:auth.guest}', 'count') || val(d, 'http_reqs', 'count'),
    signinRefused: val(d, 'signin_refused', 'count'),
    socketsRefused: val(d, 'sockets_refused', 'count'),
    delivered: round(val(d, 'actions_delivered', 'rate'), 4),
    onTime: round(val(d, 'actions_on_time', 'rate'), 4),
    failed,
    ok: failed.length === 0,
  };
}

export function summaryOf(d: SummaryData, plan: Plan, jsonPath?: string): Record<string, string> {
  const r = reportOf(d, plan);
  const text =
    `\n  k6 tables: ${r.tablesSeated} of ${r.tables} seated (${r.mix}${r.perTable ? ', one VU per table' : ''}), ` +
    `${r.finished} games finished, ${r.durationS} s\n` +
    `  actions ${r.actions} (${r.actionsPerS}/s), delivered ${round(r.delivered * 100)} %, on time ${round(r.onTime * 100)} %, raced ${r.raced}\n` +
    `  action→view p50 ${r.p50} ms, p95 ${r.p95} ms, p99 ${r.p99} ms, max ${r.max} ms\n` +
    `  errors ${r.errors}, sign-ins refused ${r.signinRefused} of ${r.signinRequests}, sockets refused ${r.socketsRefused}\n` +
    `  ${r.ok ? 'every threshold held' : `thresholds failed: ${r.failed.join(', ')}`}\n` +
    `${JSON.stringify(r)}\n`;
  const out: Record<string, string> = { stdout: text };
  if (jsonPath) out[jsonPath] = JSON.stringify({ report: r, metrics: d.metrics }, null, 1);
  return out;
}
