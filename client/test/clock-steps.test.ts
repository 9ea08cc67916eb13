/**
 * Turn clocks step at most once a second when their whole time is known (issue 41: a still table whose
 * only motion is its turn clock draws at most once a second), and never more than CLOCK_STEPS times.
 */
import { describe, expect, it } from 'vitest';
import { CLOCK_STEPS, clockStep } from '../src/table-kit/clock-steps.ts';

/** How many different values the clock shows over its whole time, sampled every 10 ms. */
function distinct(totalMs: number | undefined, wholeMs: number): number {
  const seen = new Set<number>();
  for (let t = 0; t <= wholeMs; t += 10) seen.add(clockStep(1 - t / wholeMs, totalMs));
  return seen.size;
}

describe('turn clock steps', () => {
  it('a 30-second clock changes once a second (31 values: 30 s … 0 s)', () => {
    expect(distinct(30_000, 30_000)).toBe(31);
  });
  it('a 4-second clock changes once a second, a 300-second one at most CLOCK_STEPS times', () => {
    expect(distinct(4000, 4000)).toBe(5);
    expect(distinct(300_000, 300_000)).toBe(CLOCK_STEPS + 1);
  });
  it('without its whole time a clock keeps CLOCK_STEPS steps', () => {
    expect(distinct(undefined, 30_000)).toBe(CLOCK_STEPS + 1);
    expect(clockStep(0.5)).toBe(0.5);
  });
});
