/** Issue 37: a worker's headroom from what it measured over one heartbeat, against its ADMIT_* limits. */
import { describe, expect, it } from 'vitest';
import { admissionLagMs, headroomOf, PROJECT_FROM_ROOMS } from '../src/upkeep.ts';

const cfg = { maxRooms: 100, admitMaxLagMs: 1_000, admitMaxQueued: 5_000, admitMaxCpu: 0.9 };
const calm = { rooms: 40, lagMs: 20, queued: 10, cpu: 0.3 };

describe('headroomOf', () => {
  it('is the free room slots while every measure is under its limit', () => {
    expect(headroomOf(cfg, calm, false)).toBe(60);
    expect(headroomOf(cfg, { ...calm, rooms: 100 }, false)).toBe(0);
  });

  it('is 0 past any limit, or when draining', () => {
    expect(headroomOf(cfg, { ...calm, lagMs: 1_001 }, false)).toBe(0);
    expect(headroomOf(cfg, { ...calm, queued: 5_001 }, false)).toBe(0);
    expect(headroomOf(cfg, { ...calm, cpu: 0.95 }, false)).toBe(0);
    expect(headroomOf(cfg, calm, true)).toBe(0);
  });

  it('with a CPU budget, takes only the rooms the budget still holds at the CPU per room measured', () => {
    // 40 rooms on 0.3 of a 0.9 budget: 0.0075 each, so 120 fit and 80 more are taken — capped by MAX_ROOMS.
    expect(headroomOf({ ...cfg, maxRooms: 1_000 }, calm, false)).toBe(80);
    expect(headroomOf(cfg, calm, false)).toBe(60);
    // 1,000 rooms using 0.75 of 0.9: 200 more; at 0.89, 11 more.
    const big = { ...cfg, maxRooms: 20_000 };
    expect(headroomOf(big, { ...calm, rooms: 1_000, cpu: 0.75 }, false)).toBe(200);
    expect(headroomOf(big, { ...calm, rooms: 1_000, cpu: 0.89 }, false)).toBe(11);
    // Too few rooms to tell the cost of one from the process's own: only the free slots count.
    expect(headroomOf(big, { ...calm, rooms: PROJECT_FROM_ROOMS - 1, cpu: 0.5 }, false)).toBe(
      20_000 - PROJECT_FROM_ROOMS + 1,
    );
  });

  it('a limit of 0 is none', () => {
    const off = { ...cfg, admitMaxLagMs: 0, admitMaxQueued: 0, admitMaxCpu: 0 };
    expect(headroomOf(off, { rooms: 1, lagMs: 60_000, queued: 1e6, cpu: 8 }, false)).toBe(99);
  });
});

describe('admissionLagMs: the loop delay admission reads from the last four heartbeats', () => {
  it('one pause (a blocked start-up, a full GC) in one window does not count', () => {
    expect(admissionLagMs([10, 1_200, 12, 9])).toBe(12);
    expect(admissionLagMs([1_200])).toBe(0);
    expect(headroomOf(cfg, { ...calm, lagMs: admissionLagMs([0, 1_200, 0, 0]) }, false)).toBe(60);
  });

  it('a loop slow in two windows of four counts, even when its long delays land in every other window', () => {
    expect(admissionLagMs([0, 1_500, 0, 1_300])).toBe(1_300);
    expect(headroomOf(cfg, { ...calm, lagMs: admissionLagMs([1_500, 1_100, 20, 15]) }, false)).toBe(0);
  });
});
