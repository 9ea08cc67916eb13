/**
 * Player-left-for-good facts are durable (issue 11): the room worker publishes
 * PlayerLeft to a JetStream stream (3-node NATS cluster, replicas 3) and the
 * lobby's durable consumer unseats the person from the lobby room of that
 * game, acking after commit (src/departures.ts). Facts sent while no lobby
 * runs are applied once by the next lobby, whether the game is still at its
 * lobby room or already ended and freed it; re-sent facts change nothing.
 */
import { describe, expect, it } from 'vitest';
import { bus as wire, contract, emitDurable } from '@joke/protocol';
import { countGame, playToEnd } from './helpers/count-game.ts';
import { durableCluster, until } from './helpers/durable-cluster.ts';
import { sql } from './helpers/harness.ts';

const { schema, connect, startLobby } = durableCluster('left');

/** Each lobby room's host and seated people (bots as `bot:<name>`), by room id. */
async function rooms(): Promise<Record<string, string>> {
  const rows = await sql<{ id: string; host_id: string; seated: string | null }>(
    schema.schema,
    `SELECT r.id, r.host_id,
       (SELECT string_agg(coalesce(s.user_id, 'bot:' || s.bot_name), ',' ORDER BY s.seat) FROM seats s
         WHERE s.room_id = r.id) AS seated
     FROM rooms r WHERE r.id LIKE 'r_left%' ORDER BY r.id`,
  );
  return Object.fromEntries(rows.map((r) => [r.id, `host ${r.host_id}: ${r.seated ?? ''}`]));
}

const fact = (roomId: string, userId: string, at: number, reason: wire.PlayerLeft['reason'] = 'left') => ({
  v: 1 as const,
  roomId,
  userId,
  reason,
  at,
});

describe('durable player-left facts (JetStream, 3-node NATS cluster)', () => {
  it('facts sent while no lobby runs unseat their people once; re-sent facts change nothing', async () => {
    const worker = await connect();
    // The first lobby migrates the schema and records the game of r_left_done, which frees that room.
    const first = await startLobby();
    await sql(
      schema.schema,
      `INSERT INTO users (id, nickname) VALUES ('u_lefta', '가'), ('u_leftb', '나'), ('u_leftc', '다'), ('u_leftd', '라')`,
    );
    for (const [room, game] of [
      ['r_left_playing', 'g_left_playing'],
      ['r_left_done', 'g_left_done'],
    ])
      await sql(
        schema.schema,
        `INSERT INTO rooms (id, code, game, mode, options, host_id, status, max_seats, current_game_id)
         VALUES ($1, $1, 'count', 'duel', '{}', 'u_lefta', 'playing', 4, $2)`,
        [room, game],
      );
    const longAgo = new Date(Date.now() - 60_000);
    await sql(
      schema.schema,
      `INSERT INTO seats (room_id, seat, user_id, bot_name, joined_at) VALUES
         ('r_left_playing', 0, 'u_lefta', NULL, $1), ('r_left_playing', 1, 'u_leftb', NULL, $1),
         ('r_left_playing', 2, NULL, '똘이', $1),
         ('r_left_done', 0, 'u_lefta', NULL, $1), ('r_left_done', 1, 'u_leftc', NULL, $1)`,
      [longAgo],
    );
    const players = [
      { id: 'u_lefta', name: '가', bot: false },
      { id: 'u_leftc', name: '다', bot: false },
    ];
    const record = playToEnd(countGame, players, { mode: 'duel' }, 'left-done');
    await emitDurable(
      worker,
      contract.roomFinished,
      {
        v: 1,
        roomId: 'g_left_done',
        game: 'count',
        mode: 'duel',
        players,
        record: record as unknown as Record<string, unknown>,
        result: record.result as unknown as Record<string, unknown>,
        finishedAt: Date.now(),
      },
      'finished:g_left_done',
    );
    await until(
      async () =>
        (await sql(schema.schema, `SELECT 1 FROM rooms WHERE id = 'r_left_done' AND status = 'waiting'`)).length > 0,
      'r_left_done freed by its result',
    );
    await first.close();

    // No lobby now. The host of the playing room leaves it; c's grace lapsed in the game that has since ended
    // (its fact comes after the result that freed the room); d sat down in that room only after leaving its
    // game (a new seat, kept); and a fact about a game no lobby room knows.
    const left = Date.now() - 30_000;
    await sql(
      schema.schema,
      `INSERT INTO seats (room_id, seat, user_id, joined_at) VALUES ('r_left_done', 2, 'u_leftd', now())`,
    );
    const facts = [
      fact('g_left_playing', 'u_lefta', left),
      fact('g_left_done', 'u_leftc', left, 'graceLapsed'),
      fact('g_left_done', 'u_leftd', left),
      fact('g_left_nowhere', 'u_leftb', left),
    ];
    for (const f of facts) await emitDurable(worker, contract.playerLeft, f, `left:${f.roomId}:${f.userId}:${f.at}`);
    // A worker retrying one under the same id: the stream drops the copy.
    await emitDurable(worker, contract.playerLeft, facts[0], `left:g_left_playing:u_lefta:${left}`);
    expect(await rooms()).toEqual({
      r_left_done: 'host u_lefta: u_lefta,u_leftc,u_leftd',
      r_left_playing: 'host u_lefta: u_lefta,u_leftb,bot:똘이',
    });

    const second = await startLobby();
    const outcomes = async (): Promise<Record<string, number>> =>
      Object.fromEntries(
        (await second.metrics.getSingleMetric('joke_lobby_player_left_total')!.get()).values.map((v) => [
          v.labels.outcome,
          v.value,
        ]),
      );
    const total = async () => Object.values(await outcomes()).reduce((a, b) => a + b, 0);
    await until(async () => (await total()) === 4, 'the four facts applied');
    expect(await outcomes()).toEqual({ unseated: 2, 'not-seated': 1, 'no-room': 1 });
    // a left the playing room for good: unseated there, the host role passed to b. c is gone from the freed room.
    expect(await rooms()).toEqual({
      r_left_done: 'host u_lefta: u_lefta,u_leftd',
      r_left_playing: 'host u_leftb: u_leftb,bot:똘이',
    });

    // The same facts again (say, a restored room past the duplicate window, under new ids): nothing changes.
    for (const f of facts)
      await emitDurable(worker, contract.playerLeft, f, `left:${f.roomId}:${f.userId}:${f.at}:again`);
    await until(async () => (await total()) === 8, 'the re-sent facts handled');
    expect(await outcomes()).toEqual({ unseated: 2, 'not-seated': 4, 'no-room': 2 });
    expect(await rooms()).toEqual({
      r_left_done: 'host u_lefta: u_lefta,u_leftd',
      r_left_playing: 'host u_leftb: u_leftb,bot:똘이',
    });
    await second.close();
  }, 120_000);
});
