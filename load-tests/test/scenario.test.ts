import { describe, expect, it } from 'vitest';
import {
  SwarmOptions,
  Timeline,
  evaluate,
  mixAssignment,
  parseStages,
  parseThreshold,
  RunStats,
  thinkSampler,
  addressesFor,
  SOCKETS_PER_ADDRESS,
} from '../src/index.ts';

describe('stages', () => {
  const timeline = new Timeline(
    SwarmOptions.parse({ stages: parseStages('ramp:40:10s,hold:10s,spike:100:5s,step:60:10s,soak:1h') }).stages!,
  );

  it('moves the table count as each kind says', () => {
    const at = (s: number) => timeline.tablesAt(s * 1000);
    expect([0, 5, 10, 15, 20].map(at)).toEqual([0, 20, 40, 40, 100]);
    expect(at(24.9)).toBe(100);
    // After the spike the step starts from the pre-spike level and jumps to its own target.
    expect(at(25)).toBe(60);
    expect(at(35 + 1800)).toBe(60);
    expect(timeline.totalMs).toBe(35_000 + 3_600_000);
    expect(timeline.peak).toBe(100);
    expect(timeline.stages.map((s) => [s.from, s.to])).toEqual([
      [0, 40],
      [40, 40],
      [40, 100],
      [40, 60],
      [60, 60],
    ]);
  });

  it('keeps parsed options unchanged when parsed again (workers get them over IPC)', () => {
    const once = SwarmOptions.parse({ stages: parseStages('ramp:5:5s,hold:1m') });
    expect(SwarmOptions.parse(once)).toEqual(once);
  });
});

describe('game mix', () => {
  it('every prefix of table slots follows the weights as closely as whole tables allow', () => {
    const mix = [
      { game: 'one-card', mode: 'classic', players: 4, weight: 60 },
      { game: 'poker', mode: 'holdem', players: 6, weight: 30 },
      { game: 'hula', mode: 'classic', players: 4, weight: 10 },
    ];
    const a = mixAssignment(mix, 1000);
    for (const n of [10, 100, 1000]) {
      const counts = [0, 1, 2].map((k) => a.slice(0, n).filter((x) => x === k).length);
      expect(counts).toEqual([0.6 * n, 0.3 * n, 0.1 * n]);
    }
  });
});

describe('think time', () => {
  it('each distribution has the documented centre', () => {
    let seed = 1;
    const u = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const mean = (d: 'uniform' | 'exponential' | 'lognormal' | 'fixed') => {
      const f = thinkSampler({ dist: d, meanMs: 1000, sigma: 0.5 });
      const xs = Array.from({ length: 20000 }, () => f(u));
      return { mean: xs.reduce((a, x) => a + x, 0) / xs.length, median: [...xs].sort((a, b) => a - b)[10000] };
    };
    expect(mean('fixed').mean).toBe(1000);
    expect(mean('uniform').mean).toBeCloseTo(1000, -2);
    expect(mean('exponential').mean).toBeCloseTo(1000, -2);
    expect(mean('lognormal').median).toBeCloseTo(1000, -2);
  });
});

describe('thresholds', () => {
  it('pass and fail like k6, on exact percentiles and error rates', () => {
    const s = new RunStats(1000, 0, 0, 1);
    for (let i = 1; i <= 1000; i++) s.record('action', i, 10);
    for (let i = 0; i < 1000; i++) s.count('actions', 10);
    s.error('ackTimeout', 10);
    const results = evaluate(
      [
        'p99<1000',
        'p99<990',
        'max<=1000',
        'errors<0.1%',
        'errors<=0.1%',
        'errors==1',
        'rate>=100',
        'connect.p95<1',
      ].map(parseThreshold),
      s.total,
      10_000,
    );
    expect(results.map((r) => [r.threshold, r.ok])).toEqual([
      ['p99<1000', true],
      ['p99<990', false],
      ['max<=1000', true],
      ['errors<0.1%', false],
      ['errors<=0.1%', true],
      ['errors==1', true],
      ['rate>=100', true],
      ['connect.p95<1', true],
    ]);
    // HDR keeps 3 significant digits: 990 ms reads back within 0.1 %.
    expect(results[1].actual).toBeCloseTo(990, 0);
  });
});

describe('source addresses', () => {
  it('gives each worker its own loopback address on a 127.x target', () => {
    const o = SwarmOptions.parse({ workers: 3 });
    expect([0, 1, 2].map((k) => addressesFor(o, k))).toEqual([['127.0.0.2'], ['127.0.0.3'], ['127.0.0.4']]);
    expect(addressesFor(SwarmOptions.parse({}), 0)).toEqual([]);
    const given = SwarmOptions.parse({ workers: 2, sourceAddresses: ['127.0.0.7', '127.0.0.8', '127.0.0.9'] });
    expect([0, 1].map((k) => addressesFor(given, k))).toEqual([['127.0.0.7', '127.0.0.9'], ['127.0.0.8']]);
  });

  it(`gives a worker one more address for every ${SOCKETS_PER_ADDRESS} of its sockets, packed or not`, () => {
    const even = SwarmOptions.parse({ tables: 5000, workers: 2 });
    expect(addressesFor(even, 1)).toEqual(['127.0.0.3', '127.0.1.3', '127.0.2.3']);
    const packed = SwarmOptions.parse({ tables: 5000, workers: 2, fillSockets: 19_936 });
    expect(addressesFor(packed, 0)).toEqual(['127.0.0.2', '127.0.1.2', '127.0.2.2', '127.0.3.2', '127.0.4.2']);
    expect(addressesFor(packed, 1)).toEqual(['127.0.0.3']);
  });
});
