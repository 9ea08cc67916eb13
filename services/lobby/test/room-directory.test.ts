/**
 * The room list's memory (rooms/directory.ts) on its own, with a fake clock and reads the test
 * resolves by hand: a change made while a read is in flight is applied to what the read returns
 * (the page is kept, not read again), and a page past its age is served while one read replaces it.
 */
import { describe, expect, it } from 'vitest';
import { RoomDirectory } from '../src/rooms/directory.ts';
import type { RoomSummary } from '../src/rooms/view.ts';

const room = (id: string, createdAt: number, over: Partial<RoomSummary> = {}): RoomSummary => ({
  roomId: id,
  game: 'count',
  gameName: 'Count',
  mode: 'classic',
  modeName: 'classic',
  isPrivate: false,
  status: 'waiting',
  hostId: `u_${id}`,
  hostName: id,
  seated: 1,
  maxSeats: 4,
  minPlayers: 2,
  openSeats: 3,
  spectatorCount: 0,
  createdAt,
  ...over,
});

/** A read the test answers when it wants. */
function manualRead() {
  let answer!: (rooms: RoomSummary[]) => void;
  const calls: number[] = [];
  const load = () => {
    calls.push(calls.length);
    return new Promise<RoomSummary[]>((r) => (answer = r));
  };
  return { load, calls, answer: (rooms: RoomSummary[]) => answer(rooms) };
}

const ids = (rs: RoomSummary[]) => rs.map((r) => r.roomId);

describe('room directory', () => {
  it('applies changes made while its read was in flight, and keeps the page', async () => {
    let now = 0;
    const dir = new RoomDirectory(1000, () => now);
    const read = manualRead();
    const first = dir.list({ limit: 3 }, read.load);
    const second = dir.list({ limit: 3 }, read.load); // shares the read
    dir.applied(room('new', 30)); // committed while the read was out: seen by it or not
    dir.applied(room('b', 20, { seated: 2, openSeats: 2 }));
    read.answer([room('b', 20), room('a', 10)]);
    expect(ids(await first)).toEqual(['new', 'b', 'a']);
    expect((await second).find((r) => r.roomId === 'b')?.seated).toBe(2);
    // The page stayed: the next call is served from memory.
    now = 500;
    expect(ids(await dir.list({ limit: 3 }, read.load))).toEqual(['new', 'b', 'a']);
    expect(read.calls.length).toBe(1);
    expect(dir.loads).toBe(1);
  });

  it('a room taken off a full page while the read was out sends the next call to the database', async () => {
    const dir = new RoomDirectory(60_000, () => 0);
    const read = manualRead();
    const first = dir.list({ limit: 2 }, read.load);
    dir.removed('b');
    read.answer([room('b', 20), room('a', 10)]);
    expect(ids(await first)).toEqual(['a']);
    const again = dir.list({ limit: 2 }, read.load);
    expect(read.calls.length).toBe(2);
    read.answer([room('a', 10), room('older', 5)]);
    expect(ids(await again)).toEqual(['a', 'older']);
  });

  it('past its age serves the page it has while one read replaces it', async () => {
    let now = 0;
    const dir = new RoomDirectory(1000, () => now);
    const read = manualRead();
    const first = dir.list({ limit: 5 }, read.load);
    read.answer([room('a', 10)]);
    await first;
    now = 1500;
    // Stale: answered from memory at once, and one read goes out for both calls.
    expect(ids(await dir.list({ limit: 5 }, read.load))).toEqual(['a']);
    expect(ids(await dir.list({ limit: 5 }, read.load))).toEqual(['a']);
    expect(read.calls.length).toBe(2);
    dir.applied(room('mine', 40)); // a change of this process during the refresh reaches both pages
    read.answer([room('other', 30), room('a', 10)]); // another replica's room
    await new Promise((r) => setImmediate(r));
    expect(ids(await dir.list({ limit: 5 }, read.load))).toEqual(['mine', 'other', 'a']);
    expect(read.calls.length).toBe(2);
  });

  it('changed() drops the pages, and a refresh that was in flight does not bring them back', async () => {
    let now = 0;
    const dir = new RoomDirectory(1000, () => now);
    const read = manualRead();
    const first = dir.list({ limit: 5 }, read.load);
    read.answer([room('a', 10)]);
    await first;
    now = 1500;
    await dir.list({ limit: 5 }, read.load); // starts the refresh
    dir.changed();
    read.answer([room('stale', 10)]);
    await new Promise((r) => setImmediate(r));
    const next = dir.list({ limit: 5 }, read.load);
    expect(read.calls.length).toBe(3);
    read.answer([room('fresh', 50)]);
    expect(ids(await next)).toEqual(['fresh']);
  });
});
