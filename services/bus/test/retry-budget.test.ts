import { describe, expect, it } from 'vitest';
import { RetryBudget, backoffDelay, backoffMs, pastDeadline } from '../src/retry-budget.ts';

describe('RetryBudget', () => {
  it('allows the floor, then ratio × first tries, and refuses the rest', () => {
    const b = new RetryBudget({ ratio: 0.1, floor: 3 });
    let allowed = 0;
    for (let i = 0; i < 10; i++) if (b.tryRetry()) allowed++;
    expect(allowed).toBe(3);
    for (let i = 0; i < 100; i++) b.first();
    allowed = 0;
    for (let i = 0; i < 100; i++) if (b.tryRetry()) allowed++;
    expect(allowed).toBe(10);
    expect(b).toMatchObject({ firsts: 100, retries: 13, refused: 97 });
  });

  it('interleaved: N first tries each wanting many retries get at most floor + ratio × N', () => {
    const b = new RetryBudget({ ratio: 0.1, floor: 2 });
    for (let i = 0; i < 1000; i++) {
      b.first();
      for (let k = 0; k < 5; k++) b.tryRetry();
    }
    expect(b.retries).toBeLessThanOrEqual(2 + 100);
    expect(b.retries).toBeGreaterThanOrEqual(100);
  });

  it('never saves up more than its cap', () => {
    const b = new RetryBudget({ ratio: 1, floor: 0, cap: 5 });
    for (let i = 0; i < 100; i++) b.first();
    expect(b.available()).toBe(5);
  });

  it('rejects a negative ratio', () => {
    expect(() => new RetryBudget({ ratio: -1, floor: 0 })).toThrow(RangeError);
  });
});

describe('backoffMs', () => {
  it('is full jitter under an exponential ceiling capped at maxMs', () => {
    expect(backoffMs(1, 50, 1000, () => 0.999)).toBe(49);
    expect(backoffMs(3, 50, 1000, () => 0.5)).toBe(100);
    expect(backoffMs(10, 50, 1000, () => 0.5)).toBe(500);
    expect(backoffMs(2, 50, 1000, () => 0)).toBe(0);
  });

  it('stays at maxMs however many retries, and is 0 for a zero base', () => {
    expect(backoffMs(40, 50, 1000, () => 0.5)).toBe(500);
    expect(backoffMs(2_000, 0, 1000, () => 0.5)).toBe(0);
  });
});

describe('backoffDelay', () => {
  it('doubles up to its cap and stays within the jitter', () => {
    const b = { baseMs: 100, maxMs: 1_000, jitter: 0.5, budget: 5 };
    expect([0, 1, 2, 3, 4, 9].map((a) => backoffDelay(b, a, () => 0.5))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelay(b, 2, () => 0)).toBe(200);
    expect(backoffDelay(b, 2, () => 0.999999)).toBe(600);
  });

  it('waits exactly its step without jitter, and never less than 0', () => {
    const b = { baseMs: 400, maxMs: 8_000, jitter: 0, budget: Infinity };
    expect([0, 1, 4, 5, 60].map((a) => backoffDelay(b, a, Math.random))).toEqual([400, 800, 6_400, 8_000, 8_000]);
    expect(backoffDelay({ ...b, jitter: 1.5 }, 0, () => 0)).toBe(0);
  });
});

describe('pastDeadline', () => {
  it('is true at or after the deadline, false before or without one', () => {
    expect(pastDeadline(100, 100)).toBe(true);
    expect(pastDeadline(100, 99)).toBe(false);
    expect(pastDeadline(undefined, 1e15)).toBe(false);
  });
});
