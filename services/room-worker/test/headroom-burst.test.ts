/**
 * Issue 37: a heartbeat's headroom is spent one room at a time. A burst of opens that arrives between two
 * heartbeats (a streamer's link, a quick-match wave) is taken up to the headroom and refused `capacity` past
 * it, even while the rooms it admitted are still being set up (not yet counted in the worker's rooms).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call, contract } from '@joke/protocol';
import { FakeClock } from '@joke/bus/clock';
import type { RoomWorker } from '../src/index.ts';
import { REPLY_MS, seat, setup, worker } from './harness.ts';

describe('headroom under a burst of opens', () => {
  const started: RoomWorker[] = [];
  afterEach(async () => {
    for (const w of started.splice(0)) await w.close();
  });

  it('admits as many new rooms as the last heartbeat had headroom for, and refuses the rest capacity', async () => {
    const { bus, store } = setup();
    const clock = new FakeClock(3_000_000);
    const w = await worker(bus, store, { maxRooms: 3 }, undefined, clock);
    started.push(w);
    const spec = (roomId: string) => ({ roomId, game: 'race', options: {}, players: [seat('c'), seat('d')] });
    const replies = await Promise.all(
      ['b1', 'b2', 'b3', 'b4', 'b5', 'b6'].map((roomId) =>
        call(bus, contract.workerOpen.at(w.id), { v: 1, roomId, create: spec(roomId) }, REPLY_MS),
      ),
    );
    expect(replies.filter((r) => r.ok)).toHaveLength(3);
    const refused = replies.filter((r) => !r.ok);
    expect(refused).toHaveLength(3);
    for (const r of refused) expect(r).toMatchObject({ ok: false, code: 'capacity' });
    expect(w.roomIds()).toHaveLength(3);
  });
});
