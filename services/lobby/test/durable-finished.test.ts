/**
 * Game results are durable (issue 11): RoomFinished goes to a JetStream stream
 * replicated on a 3-node NATS cluster (scripts/cluster.sh), and the lobby's
 * durable consumer acks an event only after its transaction committed. Games
 * that end while no lobby runs wait in the stream; the next lobby stores each
 * exactly once, retries and redeliveries included.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { NatsBus } from '@joke/bus';
import { startLocalCluster, type LocalCluster } from '@joke/bus/local-cluster';
import { bus as wire, contract, emitDurable } from '@joke/protocol';
import { createLobby, type Lobby } from '../src/index.ts';
import { countGame, playToEnd } from './helpers/count-game.ts';
import { JWT_SECRET, sql, uniqueSchema } from './helpers/harness.ts';

const prefix = `durable_${randomBytes(4).toString('hex')}`;
const schema = uniqueSchema('durable');
let cluster: LocalCluster;
const buses: NatsBus[] = [];
const players = [
  { id: 'u_durableplayer01', name: '가', bot: false },
  { id: 'bot_1', name: '봇 똘이', bot: true },
];

async function connect(): Promise<NatsBus> {
  const bus = await NatsBus.connect(cluster.natsUrls.join(','), { prefix, durableReplicas: 3 });
  buses.push(bus);
  return bus;
}

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

const startLobby = async (): Promise<Lobby> =>
  createLobby({
    bus: await connect(),
    databaseUrl: schema.url,
    jwtSecret: JWT_SECRET,
    games: { count: countGame },
    log: pino({ level: 'silent' }),
  });

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

beforeAll(async () => {
  cluster = await startLocalCluster();
});
afterAll(async () => {
  for (const b of buses) await b.close().catch(() => {});
  await schema.drop();
  await cluster?.stop();
});

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
    expect(await total('lobby_room_finished_received_total')).toBe(6);
    expect(await total('lobby_games_recorded_total')).toBe(5);
    const seats = await sql<{ n: number }>(schema.schema, 'SELECT count(*)::int AS n FROM game_players');
    expect(seats[0].n).toBe(7 * players.length);
    await second.close();
  }, 120_000);
});
