/**
 * 한 판 더 (issue 41 item 5): after a game the seated people vote for the next one; the last vote starts it
 * with the same seats and options, a vote of an earlier round does not count, and the host may let bots
 * take the seats of people who leave. A finished game is simulated the way finished.ts ends it (the room
 * back to `waiting` with no current game), so these tests need no room worker.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PRESENCE, LOBBY_MESSAGES as MSG } from '../src/index.ts';
import { failure, sql, startHarness, uniqueSchema, type Harness } from './helpers/harness.ts';

const schema = uniqueSchema();
let h: Harness;
beforeAll(async () => {
  const patient = { awayAfterMs: 600_000, hostGraceMs: 600_000, emptyCloseMs: 600_000 };
  h = await startHarness({ databaseUrl: schema.url, presence: { ...DEFAULT_PRESENCE, ...patient } });
});
afterAll(async () => {
  await h?.close();
  await schema.drop();
});
beforeEach(() => {
  h.mm.requests = [];
  h.mm.reply = { ok: true, workerId: 'w-test', shard: 0 };
});

/** What the lobby does when the room worker reports the game finished (finished.ts). */
async function finish(roomId: string): Promise<void> {
  await sql(schema.schema, `UPDATE rooms SET status = 'waiting', current_game_id = NULL WHERE id = $1`, [roomId]);
}

async function playedTable(names: [string, string]) {
  const [a, b] = await Promise.all(names.map((n) => h.guest(n)));
  const room = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic', target: 9 } });
  await b.api.rooms.join.mutate({ roomId: room.roomId });
  await a.api.rooms.addBot.mutate({ roomId: room.roomId });
  const first = await a.api.rooms.start.mutate({ roomId: room.roomId });
  return { a, b, roomId: room.roomId, first };
}

describe('rooms.again (한 판 더)', () => {
  it('starts the next game with the same seats and options once every person agreed; bots agree by themselves', async () => {
    const { a, b, roomId, first } = await playedTable(['다시A', '다시B']);
    await finish(roomId);
    const afterA = await a.api.rooms.again.mutate({ roomId });
    expect(afterA.status).toBe('waiting');
    expect(afterA.again).toMatchObject({ round: 1, seats: [0, 2], short: false });
    expect(h.mm.requests).toHaveLength(1);
    const afterB = await b.api.rooms.again.mutate({ roomId });
    expect(afterB.status).toBe('playing');
    expect(afterB.gameRoomId).not.toBe(first.gameRoomId);
    expect(afterB.gamesPlayed).toBe(2);
    const [one, two] = h.mm.requests;
    expect(two.players).toEqual(one.players);
    expect(two.options).toEqual(one.options);
    // The new round starts with nobody agreed: the old votes were for round 1.
    expect(afterB.again).toMatchObject({ round: 2, seats: [2] });
  });

  it('a vote sent while the finished game is not yet stored counts once the room is waiting again', async () => {
    const { a, b, roomId } = await playedTable(['먼저A', '먼저B']);
    await a.api.rooms.again.mutate({ roomId });
    const early = await b.api.rooms.again.mutate({ roomId });
    expect(early.status).toBe('playing');
    expect(h.mm.requests).toHaveLength(1);
    await finish(roomId);
    const again = await b.api.rooms.again.mutate({ roomId });
    expect(again.status).toBe('playing');
    expect(h.mm.requests).toHaveLength(2);
  });

  it('only seated people vote, and only after a first game, each with a Korean message', async () => {
    const [a, c] = await Promise.all([h.guest('첫판A'), h.guest('구경C')]);
    const room = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
    expect(await failure(a.api.rooms.again.mutate({ roomId: room.roomId }))).toMatchObject({
      code: 'CONFLICT',
      message: MSG.againNoGame,
    });
    await c.api.rooms.spectate.mutate({ roomId: room.roomId });
    expect(await failure(c.api.rooms.again.mutate({ roomId: room.roomId }))).toMatchObject({
      code: 'FORBIDDEN',
      message: MSG.againNotSeated,
    });
  });

  it('with the host allowing bots, a person who leaves is replaced by a bot and the rest play on', async () => {
    const { a, b, roomId } = await playedTable(['봇허용A', '봇허용B']);
    await finish(roomId);
    await a.api.rooms.again.mutate({ roomId, bots: true });
    await b.api.rooms.leave.mutate({ roomId });
    const room = await a.api.rooms.get.query({ roomId });
    // Seat 1 (B's) is a bot now, so everyone left has agreed: the host's poll sends the vote again and it starts.
    expect(room.seats.map((s) => [s.seat, s.bot])).toEqual([
      [0, false],
      [1, true],
      [2, true],
    ]);
    const next = await a.api.rooms.again.mutate({ roomId, bots: true });
    expect(next.status).toBe('playing');
    expect(h.mm.requests[1].players).toHaveLength(3);
  });

  it('without bots, a table that lost a person waits even above the minimum: not silently fewer people', async () => {
    const [a, b, c] = await Promise.all(['넷A', '넷B', '넷C'].map((n) => h.guest(n)));
    const room = await a.api.rooms.create.mutate({ game: 'count', options: { mode: 'classic' } });
    for (const p of [b, c]) await p.api.rooms.join.mutate({ roomId: room.roomId });
    await a.api.rooms.addBot.mutate({ roomId: room.roomId });
    const first = await a.api.rooms.start.mutate({ roomId: room.roomId });
    // The game as finished.ts stores it: four players at this lobby room.
    await h.lobby.db.game.create({
      data: {
        id: first.gameRoomId,
        lobbyRoomId: room.roomId,
        game: 'count',
        mode: 'classic',
        options: {},
        seedCommit: 'c',
        seed: 's',
        summary: '끝',
        result: {},
        record: {},
        actionCount: 0,
        startedAt: new Date(0),
        finishedAt: new Date(1),
        players: {
          create: [a, b, c, null].map((p, seat) => ({
            seat,
            playerId: p?.id ?? `bot_${seat}`,
            userId: p?.id ?? null,
            name: `p${seat}`,
            bot: p === null,
            rank: seat + 1,
          })),
        },
      },
    });
    await finish(room.roomId);
    await c.api.rooms.leave.mutate({ roomId: room.roomId });
    await a.api.rooms.again.mutate({ roomId: room.roomId });
    const waiting = await b.api.rooms.again.mutate({ roomId: room.roomId });
    expect(waiting.status).toBe('waiting');
    expect(waiting.again).toMatchObject({ missing: 1, short: true });
    expect(h.mm.requests).toHaveLength(1);
    // The host fills the seat knowingly: everyone left has agreed, so the next vote starts the game.
    await a.api.rooms.addBot.mutate({ roomId: room.roomId });
    const next = await a.api.rooms.again.mutate({ roomId: room.roomId });
    expect(next.status).toBe('playing');
  });

  it('without bots, a table left below the minimum waits and says so', async () => {
    const { a, b, roomId } = await playedTable(['봇없이A', '봇없이B']);
    await finish(roomId);
    await b.api.rooms.leave.mutate({ roomId });
    const room = await a.api.rooms.again.mutate({ roomId });
    expect(room.status).toBe('waiting');
    expect(room.again).toMatchObject({ seats: [0, 2], short: true });
    expect(h.mm.requests).toHaveLength(1);
  });
});
