/**
 * Refusals in the swarm's report: their count and their codes cover the same time, the whole run with its
 * warm-up (a ramp past capacity is refused too: the 2026-12-07 overload run reported 3,993 refused at its
 * knee level beside codes for only 4 of them, the rest having come in the warm-up).
 */
import { describe, expect, it } from 'vitest';
import { RunStats } from '../src/stats.ts';
import { reportOf } from '../src/swarm-core.ts';

describe('refusals (stats.ts)', () => {
  it('counts the warm-up’s refusals with their codes, and the report agrees with the stats', () => {
    const start = 1_000_000;
    const stats = new RunStats(1000, start, 5000, 1);
    stats.refusal('queueFull', start + 100);
    stats.refusal('queueFull', start + 2100);
    stats.refusal('capacity', start + 4900);
    stats.refusal('capacity', start + 6000);
    expect(stats.refusals()).toEqual({ refused: 4, refusedKinds: { queueFull: 2, capacity: 2 } });
    // What followed the warm-up alone stays in the total (the latencies' window).
    expect(stats.total.refused).toBe(1);
    expect(reportOf(stats, 1).refused).toBe(4);
  });
});
