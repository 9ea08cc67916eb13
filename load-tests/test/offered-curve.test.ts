/**
 * Issue 37 item 5: the offered-load curve's stage plan (0.5×, 1×, 1.5×, 2×, 3× the knee, then 0.5× again),
 * its per-level verdict (refusals with a code above the knee pass, errors fail, an unexplained shortfall
 * fails), and the report page drawing it against offered load. The report is built from statistics recorded
 * here at chosen times: no stack, no sleeps.
 */
import { describe, expect, it } from 'vitest';
import { parseCli, UsageError } from '../src/index.ts';
import { curvePoint, curveStages, kneeLevels } from '../src/offered-curve.ts';
import { ticks } from '../src/curve-svg.ts';
import { timelineOf } from '../src/options.ts';
import { buildReport, renderHtml } from '../src/report.ts';
import { newBucket, RunStats } from '../src/stats.ts';
import { evaluate, parseThreshold, withDefaults } from '../src/thresholds.ts';

describe('offered-curve stage plan', () => {
  it('steps from half the knee to three times it and back to half', () => {
    expect(kneeLevels(1000)).toEqual([500, 1000, 1500, 2000, 3000, 500]);
    expect(kneeLevels(3)).toEqual([2, 3, 5, 6, 9, 2]);
    expect(() => kneeLevels(0)).toThrow();
    const stages = curveStages({ knee: 40, tables: kneeLevels(40), holdMs: 30_000 });
    expect(stages.map((s) => [s.kind, s.tables, s.duration])).toEqual([
      ['step', 20, 30_000],
      ['step', 40, 30_000],
      ['step', 60, 30_000],
      ['step', 80, 30_000],
      ['step', 120, 30_000],
      ['step', 20, 30_000],
    ]);
    expect(stages[4]!.name).toBe('offered 120 (3×)');
  });

  it('--profile offered-curve --knee N --hold D makes those stages; --curve-tables lists them', () => {
    const { options } = parseCli(['--profile', 'offered-curve', '--knee', '20', '--hold', '15s']);
    expect(options.curve).toEqual({ knee: 20, tables: [10, 20, 30, 40, 60, 10], holdMs: 15_000 });
    const t = timelineOf(options);
    expect(t.stages.map((s) => s.to)).toEqual([10, 20, 30, 40, 60, 10]);
    expect(t.totalMs).toBe(6 * 15_000);
    expect(t.peak).toBe(60);
    const listed = parseCli(['--curve-tables', '5,10,5', '--hold', '2s']).options;
    expect(listed.curve).toEqual({ tables: [5, 10, 5], holdMs: 2_000 });
    expect(() => parseCli(['--profile', 'offered-curve'])).toThrow(UsageError);
    expect(() => parseCli(['--knee', '10'])).toThrow(/--knee/);
    expect(() => parseCli(['--profile', 'offered-curve', '--knee', '10', '--stages', 'hold:1s'])).toThrow(/--stages/);
  });

  it('a curve run is judged per level, not by the run-wide seating default', () => {
    expect(withDefaults([], true)).toEqual(['actions>0']);
    expect(withDefaults([])).toEqual(['seated>=95%', 'actions>0']);
  });
});

describe('per-level verdict', () => {
  const level = (over: Partial<ReturnType<typeof newBucket>>) => Object.assign(newBucket(), over);

  it('refusals with a code explain a shortfall above the knee; errors always fail; a silent shortfall fails', () => {
    const refused = curvePoint(4, 120, level({ seated: 70, refused: 50, refusedKinds: { capacity: 50 } }), 30_000);
    expect(refused.ok).toBe(true);
    const errors = curvePoint(4, 120, level({ seated: 120, errors: { unavailable: 3 } }), 30_000);
    expect(errors.ok).toBe(false);
    expect(errors.why[0]).toContain('unavailable 3');
    const lost = curvePoint(1, 40, level({ seated: 30 }), 30_000);
    expect(lost.ok).toBe(false);
    expect(lost.why[0]).toContain('no refusal');
    expect(curvePoint(0, 20, level({ seated: 20, actions: 300 }), 30_000)).toMatchObject({
      ok: true,
      actionsPerSecond: 10,
      p99: null,
    });
  });
});

describe('report with an offered-load curve', () => {
  it('carries each level and draws throughput, p99, refusals and errors against offered tables as SVG', () => {
    const { options } = parseCli(['--profile', 'offered-curve', '--knee', '4', '--hold', '10s', '--interval', '5']);
    const timeline = timelineOf(options);
    const startAt = 1_000_000;
    const stats = new RunStats(options.intervalMs, startAt, 0, timeline.stages.length, (ms) =>
      timeline.stageIndexAt(ms),
    );
    // Each level: actions with latencies rising with the load; refusals from 2× on; one timeout at 3×.
    timeline.stages.forEach((s, i) => {
      const at = startAt + s.startMs + 1_000;
      for (let k = 0; k < 20 + 10 * i; k++) {
        stats.count('actions', at);
        stats.record('action', 20 + 30 * i, at);
      }
      const seated = s.to >= 8 ? 6 : s.to;
      stats.gauge(s.to * 4, s.to, at, seated);
      if (s.to >= 8) for (let k = 0; k < s.to - 6; k++) stats.refusal(k % 2 ? 'capacity' : 'queueFull', at);
      if (s.to === 12) stats.error('unavailable', at);
    });
    // The swarm's sample after it stopped its tables (swarm-core.ts): the last level keeps what it seated.
    stats.gauge(0, 0, startAt + timeline.totalMs + 500, 0, true);
    const ranMs = timeline.totalMs;
    const thresholds = evaluate(
      withDefaults(options.thresholds, true).map(parseThreshold),
      stats.total,
      ranMs,
      stats.seating(),
    );
    const report = buildReport({ options, timeline, stats, thresholds, workers: 1, addresses: [], ranMs });
    expect(report.curve!.map((p) => [p.offered, p.seated, p.refused, p.errors, p.ok])).toEqual([
      [2, 2, 0, 0, true],
      [4, 4, 0, 0, true],
      [6, 6, 0, 0, true],
      [8, 6, 2, 0, true],
      [12, 6, 6, 1, false],
      [2, 2, 0, 0, true],
    ]);
    expect(report.curve![3]!.refusedKinds).toEqual({ queueFull: 1, capacity: 1 });
    expect(report.curve![0]!.actionsPerSecond).toBe(2);
    expect(report.ok).toBe(false);

    const html = renderHtml(report);
    expect(html).toContain('<h2>Against offered load</h2>');
    const svgs = html.match(/<svg [^>]*aria-label="([^"]+)"/g)!.map((s) => /aria-label="([^"]+)"/.exec(s)![1]);
    expect(svgs).toEqual([
      'Throughput against offered load',
      'Action → view latency against offered load',
      'Refusals (by code) against offered load',
      'Errors against offered load',
    ]);
    // Throughput: one point per level; the way back from 3× to 0.5× is the one dashed segment.
    const first = html.slice(html.indexOf('<svg'), html.indexOf('</svg>'));
    expect(first.match(/class="pt"/g)).toHaveLength(6);
    expect(first.match(/stroke-dasharray/g)).toHaveLength(1);
    expect(html).toContain('level 5: 12 offered, p99');
    expect(html).toMatch(/<td class="failed">FAIL: 1 errors \(unavailable 1\)<\/td>/);
    expect(html).toContain('capacity 3, queueFull 3');
  });

  it('leaves the section out for a run without a curve', () => {
    const { options } = parseCli(['--tables', '2', '--duration', '5']);
    const timeline = timelineOf(options);
    const stats = new RunStats(options.intervalMs, 0, 0, timeline.stages.length);
    const report = buildReport({ options, timeline, stats, thresholds: [], workers: 1, addresses: [] });
    expect(report.curve).toBeUndefined();
    expect(renderHtml(report)).not.toContain('Against offered load');
  });

  it('axis ticks are round steps covering the largest value', () => {
    expect(ticks(120)).toEqual([0, 20, 40, 60, 80, 100, 120]);
    expect(ticks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(ticks(0)).toEqual([0, 1]);
  });
});
