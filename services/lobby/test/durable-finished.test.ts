/**
 * Game results are durable (issue 11): RoomFinished goes to a JetStream stream
 * replicated on a 3-node NATS cluster (scripts/cluster.sh), and the lobby's
 * durable consumer acks an event only after its transaction committed. Games
 * that end while no lobby runs wait in the stream; the next lobby stores each
 * exactly once, retries and redeliveries included. A game room let go for good
 * (RoomClosed, durable too) frees its lobby room, but never before its game is
 * recorded: the record links to the lobby room through current_game_id.
 */
import { describe, expect, it } from 'vitest';
import { bus as wire, contract, emitDurable } from '@joke/protocol';
import { countGame, playToEnd } from './helpers/count-game.ts';
import { durableCluster, until } from './helpers/durable-cluster.ts';
import { sql } from './helpers/harness.ts';

const { schema, connect, startLobby } = durableCluster('durable');
const players = [
  { id: 'u_durableplayer01', name: '가', bot: false },
  { id: 'bot_1', name: '봇 똘이', bot: true },
];

function finished(i: number): wire.RoomFinished {
  const record = playToEnd(countGame, players, { mode: 'duel' }, `durable-${i}`);
  return {
    v: 1,
    roomId: `g_durable${i}`,
    game: 'count',
    mode: 'duel',
    players,
    record: record as unknown as Record<string, unknown>,
    result: record.result as unknown as Record<string, unknown>,
    finishedAt: Date.now(),
  };
}

async function gamesStored(): Promise<string[]> {
  return (await sql<{ id: string }>(schema.schema, 'SELECT id FROM games ORDER BY id')).map((r) => r.id);
}

async function waitForGames(n: number): Promise<string[]> {
  for (const end = Date.now() + 60_000; ;) {
    const got = await gamesStored();
    if (got.length >= n) return got;
    if (Date.now() > end) throw new Error(`only ${got.length} of ${n} games stored`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('durable game results (JetStream, 3-node NATS cluster)', () => {
  it('games that end while the lobby is down are in the history once it is back, each exactly once', async () => {
    const worker = await connect();
    const first = await startLobby();
    for (const i of [0, 1]) await emitDurable(worker, contract.roomFinished, finished(i), `finished:g_durable${i}`);
    await waitForGames(2);
    await first.close();

    // No lobby now. Five games end; a worker retries one under the same id (dropped by the stream as a
    // duplicate) and another reaches the stream twice under two ids (say, a restored room past the
    // duplicate window): the history must still hold each game once.
    for (const i of [2, 3, 4, 5, 6])
      await emitDurable(worker, contract.roomFinished, finished(i), `finished:g_durable${i}`);
    await emitDurable(worker, contract.roomFinished, finished(3), 'finished:g_durable3');
    await emitDurable(worker, contract.roomFinished, finished(4), 'finished:g_durable4:again');
    expect(await gamesStored()).toHaveLength(2);

    const second = await startLobby();
    const stored = await waitForGames(7);
    await second.idle();
    expect(stored).toEqual([0, 1, 2, 3, 4, 5, 6].map((i) => `g_durable${i}`).sort());
    const total = async (metric: string) =>
      (await second.metrics.getSingleMetric(metric)!.get()).values.reduce((s, v) => s + v.value, 0);
    // The 5 new games + the one that came twice under two ids; none of the first lobby's two again
    // (acked after commit); the second copy of g_durable4 found stored, not stored again.
    expect(await total('joke_lobby_room_finished_received_total')).toBe(6);
    expect(await total('joke_lobby_games_recorded_total')).toBe(5);
    const seats = await sql<{ n: number }>(schema.schema, 'SELECT count(*)::int AS n FROM game_players');
    expect(seats[0].n).toBe(7 * players.length);
    await second.close();
  }, 120_000);

  it('room-closed facts sent while the lobby is down free their lobby rooms, never before the game is recorded', async () => {
    const worker = await connect();
    // Migrated by the lobbies above; two lobby rooms at a game.
    await sql(
      schema.schema,
      `INSERT INTO users (id, nickname) VALUES ('u_closedhost01', '방장') ON CONFLICT DO NOTHING`,
    );
    for (const [room, game] of [
      ['r_closed_fin', 'g_closed_fin'],
      ['r_closed_abandoned', 'g_closed_abandoned'],
    ])
      await sql(
        schema.schema,
        `INSERT INTO rooms (id, code, game, mode, options, host_id, status, max_seats, current_game_id)
         VALUES ($1, $1, 'count', 'duel', '{}', 'u_closedhost01', 'playing', 2, $2)`,
        [room, game],
      );
    const rooms = async () =>
      Object.fromEntries(
        (
          await sql<{ id: string; status: string; current_game_id: string | null }>(
            schema.schema,
            `SELECT id, status, current_game_id FROM rooms WHERE id LIKE 'r_closed%'`,
          )
        ).map((r) => [r.id, `${r.status}:${r.current_game_id}`]),
      );
    const closedFact = (roomId: string, finished: boolean): wire.RoomClosed => ({
      v: 1,
      roomId,
      finished,
      at: Date.now(),
    });
    // No lobby: the finished game's room closes before its result is even published; a game room that ended
    // without a result closes too.
    await emitDurable(worker, contract.roomClosed, closedFact('g_closed_fin', true), 'closed:g_closed_fin');
    await emitDurable(
      worker,
      contract.roomClosed,
      closedFact('g_closed_abandoned', false),
      'closed:g_closed_abandoned',
    );
    const lobby = await startLobby();
    await until(async () => (await rooms()).r_closed_abandoned === 'waiting:null', 'the abandoned room freed');
    // Its game not recorded, the finished one's room stays at its game (the fact is redelivered meanwhile).
    expect((await rooms()).r_closed_fin).toBe('playing:g_closed_fin');
    const result = { ...finished(90), roomId: 'g_closed_fin' };
    await emitDurable(worker, contract.roomFinished, result, 'finished:g_closed_fin');
    await until(async () => (await rooms()).r_closed_fin === 'waiting:null', 'the finished room freed');
    const game = await sql<{ lobby_room_id: string | null }>(
      schema.schema,
      `SELECT lobby_room_id FROM games WHERE id = 'g_closed_fin'`,
    );
    expect(game).toEqual([{ lobby_room_id: 'r_closed_fin' }]);
    // A redelivered (or re-sent) fact frees nothing else: the room has moved on to its next game.
    await sql(
      schema.schema,
      `UPDATE rooms SET status = 'playing', current_game_id = 'g_next' WHERE id = 'r_closed_fin'`,
    );
    await emitDurable(worker, contract.roomClosed, closedFact('g_closed_fin', true), 'closed:g_closed_fin:again');
    await emitDurable(
      worker,
      contract.roomClosed,
      closedFact('g_closed_abandoned', false),
      'closed:g_closed_abandoned:again',
    );
    const applied = async () => (await lobby.metrics.getSingleMetric('joke_lobby_room_closed_total')!.get()).values;
    await until(async () => (await applied()).reduce((n, v) => n + v.value, 0) === 4, 'the re-sent facts handled');
    const by = Object.fromEntries((await applied()).map((v) => [v.labels.outcome, v.value]));
    // The abandoned room was freed by its fact; the finished one by its RoomFinished, its fact (applied once the
    // game was recorded) and the two re-sent ones found nothing to free.
    expect(by).toEqual({ freed: 1, 'nothing-to-free': 3 });
    expect(await rooms()).toEqual({ r_closed_fin: 'playing:g_next', r_closed_abandoned: 'waiting:null' });
    await lobby.close();
  }, 120_000);
});
