/**
 * Rooms that live and die properly (issue 15, item 2), on the real
 * PostgreSQL with fake time: presence comes from the members' own calls (the
 * waiting room asks for its room every second) and from the room workers'
 * `roomOccupancy` facts; the rules run when the test calls `lifecycle()`.
 */
import { FakeClock } from '@joke/bus/clock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, emit } from '@joke/protocol';
import { LOBBY_MESSAGES as MSG } from '../src/index.ts';
import { failure, startHarness, uniqueSchema, type Harness } from './helpers/harness.ts';

const schema = uniqueSchema('lifecycle');
const LIMITS = { awayAfterMs: 5_000, hostGraceMs: 20_000, emptyCloseMs: 60_000, tickMs: 0 };
const clock = new FakeClock(Date.UTC(2026, 11, 1, 12));
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ databaseUrl: schema.url, presence: LIMITS, clock, listCacheMs: 0 });
});
afterAll(async () => {
  await h?.close();
  await schema.drop();
});

type Guest = Awaited<ReturnType<Harness['guest']>>;
/** `ms` of fake time in one-second steps, each present guest asking for its room as the screen does. */
async function pass(ms: number, roomId: string, present: Guest[]): Promise<void> {
  for (let t = 0; t < ms; t += 1000) {
    await clock.advance(1000);
    for (const g of present) await g.api.rooms.get.query({ roomId });
    await h.lobby.lifecycle();
  }
}
const listed = async (g: Guest, roomId: string) =>
  (await g.api.rooms.list.query({ limit: 100 })).find((r) => r.roomId === roomId);

describe('room lifecycle', () => {
  // First in the file: it counts the rooms each tick reads, so no other test's rooms may be due.
  it('a tick reads only rooms whose presence changed, that were changed here, or whose time is up', async () => {
    const a = await h.guest('읽기방장1');
    const b = await h.guest('읽기방장2');
    const mate = await h.guest('읽기손님');
    const roomA = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    const roomB = await b.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    const tick = async (present: [Guest, string][]) => {
      await clock.advance(1000);
      for (const [g, roomId] of present) await g.api.rooms.get.query({ roomId });
      return (await h.lobby.lifecycle()).rooms;
    };
    expect(await tick([])).toBe(2); // the first tick reads everything
    const both: [Guest, string][] = [
      [a, roomA.roomId],
      [b, roomB.roomId],
    ];
    expect(await tick(both)).toBe(0); // present people still present: nothing to read
    await mate.api.rooms.join.mutate({ roomId: roomA.roomId });
    expect(await tick(both)).toBe(1); // a seat taken here: that room only
    expect(await tick([...both, [mate, roomA.roomId]])).toBe(0);
    // Nobody asks any more: each room is read once, when its people stop counting as present.
    let read = 0;
    for (let t = 0; t < LIMITS.awayAfterMs; t += 1000) read += await tick([]);
    expect(read).toBe(2);
    expect(await listed(a, roomA.roomId)).toBeUndefined();
    expect(await listed(a, roomB.roomId)).toBeUndefined();
  });

  it('a host who stays away hands the room to the longest-seated present player, who can start', async () => {
    const host = await h.guest('떠난방장');
    const first = await h.guest('먼저온');
    const second = await h.guest('나중온');
    const looker = await h.guest('구경꾼');
    const room = await host.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    await clock.advance(1000);
    await first.api.rooms.join.mutate({ roomId: room.roomId });
    await clock.advance(1000);
    await second.api.rooms.join.mutate({ roomId: room.roomId });
    await pass(2000, room.roomId, [host, first, second]);
    expect(await listed(looker, room.roomId)).toMatchObject({ seated: 3, hostName: '떠난방장' });

    // The host closes the browser: no more calls from them.
    await pass(LIMITS.awayAfterMs, room.roomId, [first, second]);
    expect(await listed(looker, room.roomId)).toMatchObject({ seated: 2 }); // present players only
    expect((await first.api.rooms.get.query({ roomId: room.roomId })).you.isHost).toBe(false); // still in grace
    await pass(LIMITS.hostGraceMs, room.roomId, [first, second]);
    const after = await first.api.rooms.get.query({ roomId: room.roomId });
    expect(after.hostId).toBe(first.id);
    expect(after.you.isHost).toBe(true);
    expect(after.notice).toEqual({ code: 'hostPassed', text: MSG.hostPassed('떠난방장', '먼저온') });
    expect(await listed(looker, room.roomId)).toMatchObject({ hostName: '먼저온' });
    // The new host can do what a host does: the count game needs 3, so a bot, then start.
    await first.api.rooms.addBot.mutate({ roomId: room.roomId });
    await failure(second.api.rooms.start.mutate({ roomId: room.roomId })).then((e) =>
      expect(e.message).toBe(MSG.notHost),
    );
    const started = await first.api.rooms.start.mutate({ roomId: room.roomId });
    expect(started.gameRoomId).toMatch(/./);
  });

  it('a room with nobody connected leaves the list at once and closes after emptyCloseMs', async () => {
    const host = await h.guest('혼자');
    const looker = await h.guest('보는이');
    const room = await host.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    expect(await listed(looker, room.roomId)).toBeDefined();
    await pass(2000, room.roomId, [host]);
    expect(await listed(looker, room.roomId)).toBeDefined();
    // Browser closed.
    await pass(LIMITS.awayAfterMs, room.roomId, []);
    expect(await listed(looker, room.roomId)).toBeUndefined(); // stale: never shown
    expect((await h.lobby.lifecycle()).closed).toBe(0); // but not closed yet
    // emptyCloseMs counts from when nobody was left (the tick that found the host gone).
    await pass(LIMITS.emptyCloseMs - 1000, room.roomId, []);
    expect((await looker.api.rooms.get.query({ roomId: room.roomId })).status).toBe('waiting');
    await pass(1000, room.roomId, []);
    expect(await failure(looker.api.rooms.get.query({ roomId: room.roomId }))).toMatchObject({
      code: 'NOT_FOUND',
      message: MSG.roomNotFound,
    });
  });

  it('someone coming back before the timeout keeps the room', async () => {
    const host = await h.guest('돌아온');
    const room = await host.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    await pass(LIMITS.emptyCloseMs - 2000, room.roomId, []);
    await pass(3000, room.roomId, [host]);
    await pass(LIMITS.emptyCloseMs - 2000, room.roomId, [host]);
    expect((await host.api.rooms.get.query({ roomId: room.roomId })).you.isHost).toBe(true);
  });

  it('spectators who left are not counted', async () => {
    const host = await h.guest('방장2');
    const fan = await h.guest('관전자');
    const looker = await h.guest('목록');
    const room = await host.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    await fan.api.rooms.spectate.mutate({ roomId: room.roomId });
    await pass(1000, room.roomId, [host, fan]);
    expect(await listed(looker, room.roomId)).toMatchObject({ spectatorCount: 1 });
    await pass(LIMITS.awayAfterMs, room.roomId, [host]);
    expect(await listed(looker, room.roomId)).toMatchObject({ spectatorCount: 0, seated: 1 });
  });

  it('a seat or bot taken since the last tick counts in the list at once, not a tick later', async () => {
    const host = await h.guest('틱방장');
    const mate = await h.guest('틱손님');
    const looker = await h.guest('틱목록');
    const room = await host.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    await pass(1000, room.roomId, [host]);
    expect(await listed(looker, room.roomId)).toMatchObject({ seated: 1 });
    // No tick between these calls and the list: the list still shows them (they are present by asking).
    await host.api.rooms.addBot.mutate({ roomId: room.roomId });
    await mate.api.rooms.join.mutate({ roomId: room.roomId });
    expect(await listed(looker, room.roomId)).toMatchObject({ seated: 3 });
  });

  it("at a game, the room workers' occupancy facts decide who is present", async () => {
    const host = await h.guest('게임방장');
    const mate = await h.guest('게임손님');
    const looker = await h.guest('목록2');
    const room = await host.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    await mate.api.rooms.join.mutate({ roomId: room.roomId });
    await host.api.rooms.addBot.mutate({ roomId: room.roomId });
    const { gameRoomId } = await host.api.rooms.start.mutate({ roomId: room.roomId });
    // The in-process bus delivers on the next setImmediate turn: the tick after it sees the fact as changed.
    const fact = async (connected: string[], spectators: number) => {
      emit(h.bus, contract.roomOccupancy, {
        v: 1,
        roomId: gameRoomId,
        connected,
        spectators,
        closed: false,
        at: clock.now(),
      });
      await new Promise((r) => setImmediate(r));
    };
    await fact([host.id, mate.id], 2);
    // The players are at the table now, not asking the lobby: only the facts keep them present.
    await pass(LIMITS.awayAfterMs + 1000, room.roomId, []);
    expect(await listed(looker, room.roomId)).toMatchObject({ status: 'playing', seated: 3, spectatorCount: 2 });
    await fact([mate.id], 0);
    await pass(1000, room.roomId, []);
    expect(await listed(looker, room.roomId)).toMatchObject({ seated: 2, spectatorCount: 0 });
    await fact([], 0);
    await pass(1000, room.roomId, []);
    expect(await listed(looker, room.roomId)).toBeUndefined();
  });
});
