/**
 * The chart's ops view names only metrics that exist: every metric in the Grafana dashboard's
 * queries and in the PrometheusRule expressions must be one a service exports (or a well-known
 * one from Prometheus itself, cAdvisor, kube-state-metrics or a NATS/Redis exporter).
 *
 * Exported names come from the services themselves: the embedded platform's /metrics (process,
 * room worker, matchmaker, gateway: the same metric code the standalone services run) and the
 * lobby's metrics registry. A broken copy of the dashboard (one query with a typo) must fail the
 * same check, so the check cannot pass by matching nothing.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics as createLobbyMetrics } from '@joke/lobby/metrics';
import { startPlatform, type Platform } from '../src/index.ts';

const chart = fileURLToPath(new URL('../../../helm/joke-app/', import.meta.url));
const dashboardText = readFileSync(`${chart}files/grafana-dashboard.json`, 'utf8');
const rulesText = readFileSync(`${chart}templates/prometheusrule.yaml`, 'utf8');

/** Names from outside the services: Prometheus, cAdvisor, kube-state-metrics, exporters. */
const EXTERNAL = /^(up|container_\w+|kube_\w+|nats_\w+|gnatsd_\w+|redis_\w+)$/;
const PROMQL_WORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/** Metric names a PromQL expression reads (label matchers, strings, ranges and grouping removed). */
export function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/\{\{[^}]*\}\}/g, '') // helm / Grafana templating
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names = new Set<string>();
  for (const m of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*(?!\s*\()/g)) {
    const word = m[0];
    // A word that is a function call (followed by "(") was skipped by the look-ahead; a partial
    // match of one (its prefix) is excluded by checking the whole identifier.
    const after = bare.slice(m.index + word.length);
    if (/^[A-Za-z0-9_:]/.test(after) || /^\s*\(/.test(after)) continue;
    // Part of a longer word, a number (1e3) or a $variable.
    if (/[A-Za-z0-9_.:$]/.test(bare[m.index - 1] ?? '')) continue;
    if (!PROMQL_WORDS.has(word.toLowerCase())) names.add(word);
  }
  return [...names];
}

function dashboardExprs(text: string): string[] {
  const out: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [k, v] of Object.entries(node)) {
        if ((k === 'expr' || (k === 'query' && typeof v === 'string' && v.includes('('))) && typeof v === 'string') {
          // A variable's label_values(selector, label): the selector is the query.
          out.push(v.replace(/^label_values\((.*),\s*\w+\)$/, '$1'));
        } else walk(v);
      }
    }
  };
  walk(JSON.parse(text));
  return out;
}

function ruleExprs(text: string): string[] {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)expr:\s*(.*)$/.exec(lines[i]);
    if (!m) continue;
    let expr = m[2] === '>-' || m[2] === '|' ? '' : m[2];
    while (i + 1 < lines.length && lines[i + 1].search(/\S/) > m[1].length) expr += ` ${lines[++i].trim()}`;
    out.push(expr);
  }
  return out;
}

/** Sample names of a Prometheus text exposition (histograms give their _bucket/_sum/_count). */
function exposedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z_:][A-Za-z0-9_:]*)[{ ]/.exec(line);
    if (m) names.add(m[1]);
    // A labelled histogram with no observation yet has only its TYPE line: its series are still real.
    const t = /^# TYPE (\S+) (\w+)/.exec(line);
    if (t) names.add(t[1]);
    if (t?.[2] === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(t[1] + suffix);
  }
  return names;
}

function missing(exprs: string[], exported: Set<string>): string[] {
  const names = exprs.flatMap(metricNamesIn);
  return [...new Set(names)].filter((n) => !exported.has(n) && !EXTERNAL.test(n));
}

let p: Platform;
let exported: Set<string>;
beforeAll(async () => {
  p = await startPlatform({ port: 0, gatewayPort: 0, opsPort: 0, logLevel: 'silent' });
  const platformText = await (await fetch(`${p.opsUrl}/metrics`)).text();
  const lobbyText = await createLobbyMetrics().registry.metrics();
  exported = new Set([...exposedNames(platformText), ...exposedNames(lobbyText)]);
});
afterAll(() => p?.close());

describe('ops view metric names', () => {
  it('the services export process metrics and the joke_<service>_ names, with the old names as aliases', () => {
    for (const name of ['process_cpu_seconds_total', 'nodejs_heap_size_used_bytes', 'joke_worker_rooms']) {
      expect(exported).toContain(name);
    }
    expect(exported).toContain('joke_gateway_sockets');
    expect(exported).toContain('gateway_sockets');
    expect(exported).toContain('joke_matchmaker_live_workers');
    expect(exported).toContain('joke_mm_live_workers');
    expect(exported).toContain('joke_worker_event_loop_lag_seconds');
    expect(exported).toContain('joke_worker_event_loop_lag_ms');
    expect(exported).toContain('joke_lobby_rate_limited_total');
    expect(exported).toContain('lobby_rate_limited_total');
  });

  it('every metric in the dashboard queries is exported', () => {
    const exprs = dashboardExprs(dashboardText);
    expect(exprs.length).toBeGreaterThan(5);
    expect(missing(exprs, exported)).toEqual([]);
  });

  it('every dashboard panel query is scoped to the chosen namespace and release', () => {
    const panels = (JSON.parse(dashboardText) as { panels: { targets?: { expr: string }[] }[] }).panels;
    const exprs = panels.flatMap((panel) => (panel.targets ?? []).map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(20);
    for (const expr of exprs) {
      for (const name of metricNamesIn(expr)) {
        // Each selector of the expression, not just one of them, carries both variables.
        const selectors = [...expr.matchAll(new RegExp(`\\b${name}\\{([^}]*)\\}`, 'g'))];
        expect(selectors.length, `${name} in ${expr}`).toBeGreaterThan(0);
        for (const sel of selectors) expect(sel[1], expr).toMatch(/namespace="\$namespace".*\$release/);
      }
    }
  });

  it('every metric in the PrometheusRule expressions is exported', () => {
    const exprs = ruleExprs(rulesText);
    expect(exprs.length).toBeGreaterThan(5);
    expect(missing(exprs, exported)).toEqual([]);
  });

  it('a typo in one query is caught (broken copies of the dashboard and the rules)', () => {
    const brokenDashboard = dashboardText.replace('joke_gateway_sockets', 'joke_gateway_socket');
    expect(missing(dashboardExprs(brokenDashboard), exported)).toEqual(['joke_gateway_socket']);
    const brokenRules = rulesText.replace('joke_worker_store_lost_total', 'joke_worker_store_lost');
    expect(missing(ruleExprs(brokenRules), exported)).toEqual(['joke_worker_store_lost']);
  });

  it('the expression parser keeps metric names and drops functions, labels and keywords', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.99, sum by (le, pod) (rate(a_seconds_bucket{namespace="$namespace",kind=~"x|y"}[5m]))) > 1 or absent(b_total) unless on (pod) c',
      ).sort(),
    ).toEqual(['a_seconds_bucket', 'b_total', 'c']);
  });
});
