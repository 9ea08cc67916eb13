/** Issue 37: a worker's headroom from what it measured over one heartbeat, against its ADMIT_* limits. */
import { describe, expect, it } from 'vitest';
import { headroomOf } from '../src/upkeep.ts';

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

  it('a limit of 0 is none', () => {
    const off = { ...cfg, admitMaxLagMs: 0, admitMaxQueued: 0, admitMaxCpu: 0 };
    expect(headroomOf(off, { rooms: 1, lagMs: 60_000, queued: 1e6, cpu: 8 }, false)).toBe(99);
  });
});
