/**
 * Issue 37: admission projects a new table from the CPU of the worker's LIVE rooms (headroom.ts). A room is
 * live while it is not finished and one of its players is at the table (a connected player viewer); a
 * table whose players all left plays out on substitutes and is not, nor is one watched only by spectators.
 * The heartbeat counts them (joke_worker_live_rooms).
 */
import { describe, expect, it } from 'vitest';
import { FakeGateway, openRoom, seat, setup, until, worker } from './harness.ts';

describe('live rooms', () => {
  it('a room is live while a player of it is connected; a substitute-only or spectated-only room is not', async ({
    onTestFinished,
  }) => {
    const { bus, store } = setup();
    const w = await worker(bus, store);
    onTestFinished(async () => {
      await w.close();
      await bus.close();
    });
    const gw = new FakeGateway(bus, 'gw-live');
    for (const [roomId, a, b] of [
      ['playing', 'a', 'b'],
      ['left', 'c', 'd'],
      ['watched', 'e', 'f'],
    ] as const)
      expect((await openRoom(bus, w.id, roomId, [seat(a), seat(b)])).ok).toBe(true);
    // Opened, nobody at any table yet.
    expect(['playing', 'left', 'watched'].map((id) => w.room(id)!.live)).toEqual([false, false, false]);

    for (const [roomId, userId] of [
      ['playing', 'a'],
      ['playing', 'b'],
      ['left', 'c'],
      ['left', 'd'],
    ] as const)
      expect((await gw.join(roomId, userId)).ok).toBe(true);
    expect((await gw.join('watched', 'zed', true)).ok).toBe(true);
    expect(['playing', 'left', 'watched'].map((id) => w.room(id)!.live)).toEqual([true, true, false]);

    // Both players of 'left' go (their sockets closed): the table plays on, on substitutes.
    gw.presence('left', 'c', false);
    gw.presence('left', 'd', false);
    // A round trip through the room's queue: the presence items before it are applied.
    await gw.barrier('left', 'zed', true);
    expect(['playing', 'left', 'watched'].map((id) => w.room(id)!.live)).toEqual([true, false, false]);
    // One player of 'playing' goes: the other is still at the table.
    gw.presence('playing', 'a', false);
    await gw.barrier('playing', 'b');
    expect(w.room('playing')!.live).toBe(true);

    // What the heartbeat (every 100 ms here) counts and reports.
    const gauge = async () =>
      (await w.registry.getSingleMetric('joke_worker_live_rooms')!.get()).values[0]?.value ?? -1;
    await until(async () => (await gauge()) === 1, 20_000, 'the heartbeat to count one live room');
    gw.close();
  });
});
