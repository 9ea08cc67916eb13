/** Issue 37: a worker's headroom from what it measured over one heartbeat, against its ADMIT_* limits. */
import { describe, expect, it } from 'vitest';
import {
  admissionLagMs,
  headroomOf,
  liveRoomCpu,
  opensPerBeat,
  PROJECT_FROM_ROOMS,
  type Load,
} from '../src/headroom.ts';

const cfg = {
  maxRooms: 100,
  admitMaxLagMs: 1_000,
  admitMaxQueued: 5_000,
  admitMaxCpu: 0.9,
  admitMaxOpensPerS: 0,
  heartbeatMs: 500,
};
const calm: Load = { rooms: 40, live: 40, lagMs: 20, queued: 10, cpu: 0.3 };

/**
 * What a worker measures with `live` live tables and `substitutes` tables playing out on substitutes, each
 * kind at its own CPU, plus the process's own: the mix the overload run's later levels leave behind.
 */
function mix(live: number, liveCpu: number, substitutes: number, substituteCpu: number, own = 0.01): Load {
  return {
    rooms: live + substitutes,
    live,
    lagMs: 20,
    queued: 10,
    cpu: own + live * liveCpu + substitutes * substituteCpu,
  };
}

describe('headroomOf', () => {
  it('is the free room slots while every measure is under its limit', () => {
    expect(headroomOf(cfg, calm, false)).toBe(60);
    expect(headroomOf(cfg, { ...calm, rooms: 100 }, false)).toBe(0);
  });

  it("with ADMIT_MAX_OPENS_PER_S, holds no more than one heartbeat's share of that rate (at least 1)", () => {
    const paced = { ...cfg, maxRooms: 1_000, admitMaxOpensPerS: 40 };
    // 80 would fit the CPU budget (see below); a 500 ms heartbeat at 40 a second lets 20 of them open now.
    expect(headroomOf(paced, calm, false)).toBe(20);
    expect(opensPerBeat({ admitMaxOpensPerS: 1, heartbeatMs: 500 })).toBe(1);
    expect(opensPerBeat({ admitMaxOpensPerS: 0, heartbeatMs: 500 })).toBe(Number.POSITIVE_INFINITY);
    // The rate never opens what another limit closed.
    expect(headroomOf(paced, { ...calm, cpu: 0.95 }, false)).toBe(0);
    expect(headroomOf(paced, { ...calm, rooms: 1_000 }, false)).toBe(0);
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
    expect(headroomOf(big, { ...calm, rooms: 1_000, live: 1_000, cpu: 0.75 }, false)).toBe(200);
    expect(headroomOf(big, { ...calm, rooms: 1_000, live: 1_000, cpu: 0.89 }, false)).toBe(11);
    // Too few rooms to tell the cost of one from the process's own: only the free slots count.
    const few = PROJECT_FROM_ROOMS - 1;
    expect(headroomOf(big, { ...calm, rooms: few, live: few, cpu: 0.5 }, false)).toBe(20_000 - few);
  });

  it('a limit of 0 is none', () => {
    const off = { ...cfg, admitMaxLagMs: 0, admitMaxQueued: 0, admitMaxCpu: 0 };
    expect(headroomOf(off, { rooms: 1, live: 1, lagMs: 60_000, queued: 1e6, cpu: 8 }, false)).toBe(99);
  });
});

describe('headroomOf with tables playing out on substitutes beside the live ones', () => {
  const budget = { ...cfg, maxRooms: 20_000, admitMaxCpu: 0.26 };

  it('projects a new table at a live table’s cost, not at the average over substitute-only rooms', () => {
    // The overload run's shape: 1,000 live tables at 0.1 ms of CPU a second each beside 2,000 substitute-only
    // ones at a tenth of that, on a 0.26 budget. What truly fits: (0.26 − 0.13) / 0.0001 = 1,300 more.
    const load = mix(1_000, 0.0001, 2_000, 0.00001);
    expect(load.cpu).toBeCloseTo(0.13, 9);
    const truth = Math.floor((budget.admitMaxCpu - load.cpu) / 0.0001 + 1e-6);
    const got = headroomOf(budget, load, false);
    // Never more than fits (the projection charges every core-second to the live rooms: an upper bound on
    // a live table's cost), and close to it: the substitutes' and the process's CPU is a small share.
    expect(got).toBeLessThanOrEqual(truth);
    expect(got).toBeGreaterThan(0.75 * truth);
    expect(got).toBe(1_000);
    // Averaged over all 3,000 rooms, a new table looked three times cheaper than it is: 3,000 more were
    // admitted, 2.3 times what fits (the 3× level's 4,535 tables against ≈ 3,000).
    const perRoomOverAll = load.cpu / load.rooms;
    expect(Math.floor((budget.admitMaxCpu - load.cpu) / perRoomOverAll + 1e-6)).toBeGreaterThan(2 * truth);
  });

  it('takes no table when the substitutes already spend the budget, however few live rooms there are', () => {
    expect(headroomOf(budget, mix(100, 0.0001, 30_000, 0.00001), false)).toBe(0);
  });

  it('with too few live rooms to measure, uses the last live cost measured (else a per-room bound)', () => {
    // 2,000 substitute-only tables left by an earlier level and 3 live ones: 0.03 of the 0.26 used.
    const load = mix(3, 0.0001, 2_000, 0.00001);
    expect(liveRoomCpu(load)).toBeNull();
    // The cost measured when the worker last had enough live tables: 0.0001 → 2,297 more.
    expect(headroomOf(budget, load, false, 0.0001)).toBe(Math.floor((0.26 - load.cpu) / 0.0001 + 1e-6));
    // Never measured: the cost per room over all of them bounds it (a lower bound, but a bound).
    expect(headroomOf(budget, load, false)).toBe(Math.floor((0.26 - load.cpu) / (load.cpu / load.rooms) + 1e-6));
    // A measure from this heartbeat wins over the one remembered.
    const measured = mix(500, 0.0002, 1_000, 0.00001);
    expect(headroomOf(budget, measured, false, 0.0001)).toBe(headroomOf(budget, measured, false));
  });

  it('a finished or substitute-only room is not live: with none live and no cost known, the free slots count', () => {
    expect(liveRoomCpu({ live: PROJECT_FROM_ROOMS, cpu: 0.2 })).toBeCloseTo(0.01, 9);
    expect(headroomOf(budget, { rooms: 10, live: 0, lagMs: 0, queued: 0, cpu: 0.05 }, false)).toBe(20_000 - 10);
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
