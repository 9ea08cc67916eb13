/**
 * Issue 37, admission in the matchmaker: new-table tries under way hold the fleet's headroom, so that a
 * burst of quick-match requests arriving between two heartbeats cannot each take a table out of the line for
 * the same last rooms (the churn of the 2026-12-08 overload run), and a refusal for want of headroom counts
 * as none there until the worker's next heartbeat.
 */
import { describe, expect, it } from 'vitest';
import { FleetRoom, type RoomRecord } from '../src/fleet-room.ts';

function fleet(...records: RoomRecord[]) {
  const byId = new Map(records.map((r) => [r.workerId, r]));
  return {
    records,
    room: new FleetRoom(
      () => byId.values(),
      (id) => byId.get(id),
    ),
  };
}

describe('FleetRoom', () => {
  it('a burst of tries holds no more rooms than the heartbeats told, and each release gives one back', () => {
    const { room } = fleet(
      { workerId: 'w0', draining: false, headroom: 2 },
      { workerId: 'w1', draining: false, headroom: 1 },
    );
    const held = Array.from({ length: 10 }, () => room.reserve()).filter(Boolean).length;
    expect(held).toBe(3);
    expect(room.hasRoom()).toBe(false);
    room.release();
    expect(room.reserve()).toBe(true);
    expect(room.reserve()).toBe(false);
  });

  it('a placed table counts down its worker; a refusal for want of headroom leaves it none', () => {
    const { records, room } = fleet(
      { workerId: 'w0', draining: false, headroom: 2 },
      { workerId: 'w1', draining: false, headroom: 5 },
    );
    room.took('w0');
    expect(records[0].headroom).toBe(1);
    room.refusedNew('w1');
    expect(records[1].headroom).toBe(0);
    expect(room.reserve()).toBe(true);
    expect(room.reserve()).toBe(false);
    // The next heartbeat overwrites the record: room again.
    records[1].headroom = 4;
    expect(room.reserve()).toBe(true);
  });

  it('draining workers give no room; a worker that says nothing about headroom counts as having some', () => {
    const { records, room } = fleet({ workerId: 'w0', draining: true, headroom: 9 });
    expect(room.hasRoom()).toBe(false);
    records.push({ workerId: 'old', draining: false });
    const both = new FleetRoom(
      () => records.values(),
      (id) => records.find((r) => r.workerId === id),
    );
    for (let i = 0; i < 100; i++) expect(both.reserve()).toBe(true);
  });
});
