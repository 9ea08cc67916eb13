import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjects, bus as wire } from '@joke/protocol';
import { verifyRecord, type GameRecord } from '@joke/engine';
import { LOBBY_MESSAGES as MSG } from '../src/index.ts';
import { countGame, playToEnd } from './helpers/count-game.ts';
import { failure, sql, startHarness, uniqueSchema, type Harness } from './helpers/harness.ts';

const schema = uniqueSchema();
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ databaseUrl: schema.url });
});
afterAll(async () => {
  await h?.close();
  await schema.drop();
});

/** The in-process bus delivers on a later turn of the event loop (as NATS would); then wait for the writes. */
async function delivered(): Promise<void> {
  await new Promise((r) => setImmediate(r));
  await h.lobby.idle();
}

/** What the room worker publishes when a game ends. */
function finishedMessage(spec: wire.RoomSpec, record: GameRecord): wire.RoomFinished {
  return {
    v: 1,
    roomId: spec.roomId,
    game: spec.game,
    mode: String(record.options.mode),
    players: spec.players,
    record: record as unknown as Record<string, unknown>,
    result: record.result as unknown as Record<string, unknown>,
    finishedAt: record.startedAt + 60_000,
  };
}

async function playedTable() {
  const [a, b] = await Promise.all([h.guest('기록A'), h.guest('기록B')]);
  const room = await a.api.rooms.create.mutate({ game: 'count', options: { target: 6 } });
  await b.api.rooms.join.mutate({ roomId: room.roomId });
  await a.api.rooms.addBot.mutate({ roomId: room.roomId });
  const started = await a.api.rooms.start.mutate({ roomId: room.roomId });
  const spec = h.mm.requests.find((r) => r.roomId === started.gameRoomId)!;
  const record = playToEnd(countGame, spec.players, spec.options, `seed-${started.gameRoomId}`);
  return { a, b, room, started, spec, record, msg: finishedMessage(spec, record) };
}

describe('recording finished games from subjects.roomFinished', () => {
  it('stores players, ranking, summary, seed and the action list; the record replays exactly', async () => {
    const { a, b, room, started, spec, record, msg } = await playedTable();
    h.bus.publish(subjects.roomFinished, JSON.stringify(msg));
    await delivered();

    const mine = await a.api.history.mine.query();
    expect(mine.games).toHaveLength(1);
    const entry = mine.games[0];
    expect(entry).toMatchObject({
      gameId: started.gameRoomId,
      game: 'count',
      mode: 'classic',
      summary: record.result!.summary,
      actionCount: record.actions.length,
      startedAt: record.startedAt,
      finishedAt: msg.finishedAt,
    });
    expect(entry.players).toEqual(
      spec.players.map((p, seat) => ({
        seat,
        playerId: p.id,
        userId: p.bot ? null : p.id,
        name: p.name,
        bot: p.bot,
        rank: record.result!.ranking.find((r) => r.player === p.id)!.rank,
      })),
    );
    expect(entry.myRank).toBe(record.result!.ranking.find((r) => r.player === a.id)!.rank);

    const full = await b.api.history.get.query({ gameId: started.gameRoomId });
    expect(full.seed).toBe(record.seed);
    expect(full.seedCommit).toBe(record.seedCommit);
    expect(full.lobbyRoomId).toBe(room.roomId);
    expect(full.result).toEqual(record.result);
    expect(full.record).toEqual(record);
    const replay = verifyRecord(countGame, full.record as GameRecord);
    expect(replay).toMatchObject({ ok: true, problems: [], steps: record.actions.length });

    // The table is free for another game.
    const after = await a.api.rooms.get.query({ roomId: room.roomId });
    expect(after).toMatchObject({ status: 'waiting', gameRoomId: null, gamesPlayed: 1 });
    const again = await a.api.rooms.start.mutate({ roomId: room.roomId });
    expect(again.gameRoomId).not.toBe(started.gameRoomId);
  });

  it('is idempotent on roomId: a redelivered message stores nothing twice', async () => {
    const { a, started, msg } = await playedTable();
    for (let i = 0; i < 3; i++) h.bus.publish(subjects.roomFinished, JSON.stringify(msg));
    await delivered();
    h.bus.publish(subjects.roomFinished, JSON.stringify({ ...msg, finishedAt: msg.finishedAt + 1 }));
    await delivered();
    const rows = await sql(schema.schema, 'SELECT id, finished_at FROM games WHERE id = $1', [started.gameRoomId]);
    expect(rows).toHaveLength(1);
    expect((rows[0].finished_at as Date).getTime()).toBe(msg.finishedAt);
    expect(
      await sql(schema.schema, 'SELECT 1 FROM game_players WHERE game_id = $1', [started.gameRoomId]),
    ).toHaveLength(3);
    expect((await a.api.history.mine.query()).games.map((g) => g.gameId)).toEqual([started.gameRoomId]);
  });

  it('only people who played may read a record; unknown ids are NOT_FOUND', async () => {
    const { started, msg } = await playedTable();
    h.bus.publish(subjects.roomFinished, JSON.stringify(msg));
    await delivered();
    const stranger = await h.guest('구경꾼');
    expect(await failure(stranger.api.history.get.query({ gameId: started.gameRoomId }))).toMatchObject({
      code: 'FORBIDDEN',
      message: MSG.notInGame,
    });
    expect(await failure(stranger.api.history.get.query({ gameId: 'g_missing' }))).toMatchObject({
      code: 'NOT_FOUND',
      message: MSG.gameNotFound,
    });
    expect((await stranger.api.history.mine.query()).games).toEqual([]);
  });

  it('records quick-match games whose players never used this lobby, and pages newest first', async () => {
    const players = [
      { id: 'u_quickmatch00001', name: '빠른A', bot: false },
      { id: 'u_quickmatch00002', name: '빠른B', bot: false },
    ];
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const spec = { roomId: `g_quick${i}`, game: 'count', options: { mode: 'duel' }, players };
      const record = playToEnd(countGame, players, spec.options, `quick-${i}`);
      const msg = { ...finishedMessage(spec, record), finishedAt: 1_900_000_000_000 + i * 1000 };
      h.bus.publish(subjects.roomFinished, JSON.stringify(msg));
      ids.unshift(spec.roomId);
    }
    await delivered();
    const { signPlayerToken } = await import('@joke/protocol/auth');
    const { clientFor, JWT_SECRET } = await import('./helpers/harness.ts');
    const token = await signPlayerToken(JWT_SECRET, { sub: players[0].id, name: players[0].name });
    const api = clientFor(h.url, () => token);
    const p1 = await api.history.mine.query({ limit: 2 });
    expect(p1.games.map((g) => g.gameId)).toEqual(ids.slice(0, 2));
    expect(p1.nextCursor).toBe(ids[1]);
    const p2 = await api.history.mine.query({ limit: 2, cursor: p1.nextCursor! });
    expect(p2.games.map((g) => g.gameId)).toEqual(ids.slice(2));
    expect(p2.nextCursor).toBeNull();
    const one = await api.history.get.query({ gameId: ids[0] });
    expect(verifyRecord(countGame, one.record as GameRecord).ok).toBe(true);
  });

  it('malformed or incomplete messages are parked without harming later ones', async () => {
    const { a, started, msg } = await playedTable();
    h.bus.publish(subjects.roomFinished, 'not json');
    h.bus.publish(subjects.roomFinished, JSON.stringify({ ...msg, v: 2 }));
    h.bus.publish(subjects.roomFinished, JSON.stringify({ ...msg, record: { ...msg.record, seed: undefined } }));
    h.bus.publish(subjects.roomFinished, JSON.stringify(msg));
    await delivered();
    expect((await a.api.history.mine.query()).games.map((g) => g.gameId)).toEqual([started.gameRoomId]);
    const metrics = await h.lobby.metrics.getSingleMetricAsString('joke_lobby_room_finished_rejected_total');
    expect(metrics).toMatch(/reason="malformed"} 2/);
    expect(metrics).toMatch(/reason="invalid-record"} 1/);
    // Parked in the in-process bus's dead letters and counted, as on JetStream.
    const parked = await h.lobby.metrics.getSingleMetricAsString('joke_lobby_dead_letters_total');
    expect(parked).toMatch(/event="roomFinished",code="MALFORMED"} 2/);
    expect(parked).toMatch(/event="roomFinished",code="INVALID_RECORD"} 1/);
  });
});

describe('history.record (내 기록, issue 41 item 5)', () => {
  it('counts my games, wins and best finish per game, with the best hands that were mine; nothing about chips', async () => {
    const first = await playedTable();
    h.bus.publish(subjects.roomFinished, JSON.stringify(first.msg));
    await delivered();
    const rankOf = (id: string) => first.record.result!.ranking.find((r) => r.player === id)!.rank;
    const me = first.a;
    // A poker game names its best hand in result.stats (engine PokerResult): give this one such a line.
    const stats = { bestHand: { playerId: me.id, handName: '풀하우스', handNo: 3 } };
    await sql(schema.schema, `UPDATE games SET result = (result::jsonb || $2::jsonb)::json WHERE id = $1`, [
      first.started.gameRoomId,
      JSON.stringify({ stats }),
    ]);
    const { games } = await me.api.history.record.query();
    const line = games.find((g) => g.game === 'count')!;
    expect(line).toMatchObject({
      games: 1,
      wins: rankOf(me.id) === 1 ? 1 : 0,
      bestRank: rankOf(me.id),
      bestHands: [{ hand: '풀하우스', times: 1 }],
    });
    expect(Object.keys(line).sort()).toEqual(['bestHands', 'bestRank', 'game', 'games', 'wins']);
    const theirs = (await first.b.api.history.record.query()).games.find((g) => g.game === 'count')!;
    expect(theirs).toMatchObject({ games: 1, wins: rankOf(first.b.id) === 1 ? 1 : 0, bestHands: [] });
  });
});
