/**
 * Issue 10: a table the game store lost (RoomLost from a room worker, see
 * room-worker store-loss.ts) frees its lobby room at once, so the host can
 * start a new game instead of waiting 12 hours for the stuck-game sweep.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjects } from '@joke/protocol';
import { startHarness, uniqueSchema, type Harness } from './helpers/harness.ts';

const schema = uniqueSchema();
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ databaseUrl: schema.url });
});
afterAll(async () => {
  await h?.close();
  await schema.drop();
});

async function delivered(): Promise<void> {
  await new Promise((r) => setImmediate(r));
  await h.lobby.idle();
}

describe('a lost table (subjects.roomLost)', () => {
  it('puts the room back to waiting; the host starts a new game in it', async () => {
    const a = await h.guest('분실A');
    const room = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
    await a.api.rooms.addBot.mutate({ roomId: room.roomId });
    const started = await a.api.rooms.start.mutate({ roomId: room.roomId });
    expect((await a.api.rooms.get.query({ roomId: room.roomId })).status).toBe('playing');
    // A RoomLost for another table changes nothing here.
    h.bus.publish(subjects.roomLost, JSON.stringify({ v: 1, roomId: 'g-other', reason: 'storeLost', at: Date.now() }));
    await delivered();
    expect((await a.api.rooms.get.query({ roomId: room.roomId })).status).toBe('playing');

    h.bus.publish(
      subjects.roomLost,
      JSON.stringify({ v: 1, roomId: started.gameRoomId, reason: 'storeLost', at: Date.now() }),
    );
    await delivered();
    const after = await a.api.rooms.get.query({ roomId: room.roomId });
    expect(after).toMatchObject({ status: 'waiting', gameRoomId: null });
    const again = await a.api.rooms.start.mutate({ roomId: room.roomId });
    expect(again.gameRoomId).not.toBe(started.gameRoomId);
    expect((await a.api.rooms.get.query({ roomId: room.roomId })).status).toBe('playing');
  });
});
