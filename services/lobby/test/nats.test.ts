/**
 * Two lobby replicas on one database and the real NATS server: each
 * RoomFinished reaches one replica (queue group `lobby`), and rooms.start
 * reaches a matchmaker over NATS request/reply.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { NatsBus } from '@joke/bus';
import { subjects } from '@joke/protocol';
import { createLobby, type Lobby } from '../src/index.ts';
import { countGame, playToEnd } from './helpers/count-game.ts';
import { clientFor, FakeMatchmaker, JWT_SECRET, uniqueSchema } from './helpers/harness.ts';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const prefix = `lobbytest_${randomBytes(4).toString('hex')}`;
const schema = uniqueSchema();
const buses: NatsBus[] = [];
const lobbies: Lobby[] = [];
let server: Server;
let url: string;
let mm: FakeMatchmaker;

beforeAll(async () => {
  for (let i = 0; i < 3; i++) buses.push(await NatsBus.connect(NATS_URL, { prefix }));
  for (const bus of buses.slice(0, 2))
    lobbies.push(
      await createLobby({
        bus,
        databaseUrl: schema.url,
        jwtSecret: JWT_SECRET,
        games: { count: countGame },
        log: pino({ level: 'silent' }),
      }),
    );
  mm = new FakeMatchmaker(buses[2]);
  server = createServer(lobbies[0].handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  mm?.close();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  for (const l of lobbies) await l.close();
  // RoomFinished is durable now: this run's stream must not stay on the shared server.
  await buses[0]?.removeDurableStreams();
  for (const b of buses) await b.close();
  await schema.drop();
});

async function sum(metric: string): Promise<number> {
  let n = 0;
  for (const l of lobbies) {
    const m = await l.metrics.getSingleMetric(metric)!.get();
    n += m.values.reduce((s, v) => s + v.value, 0);
  }
  return n;
}

describe('over NATS with two lobby replicas', () => {
  it('rooms.start asks the matchmaker over NATS', async () => {
    const me = await clientFor(url).auth.guest.mutate({ nickname: '나츠' });
    const api = clientFor(url, () => me.token);
    const room = await api.rooms.create.mutate({ game: 'count', options: { mode: 'duel' } });
    await api.rooms.addBot.mutate({ roomId: room.roomId });
    const started = await api.rooms.start.mutate({ roomId: room.roomId });
    expect(mm.requests.map((r) => r.roomId)).toEqual([started.gameRoomId]);
  });

  it('each RoomFinished is stored by exactly one replica', async () => {
    const players = [
      { id: 'u_natsplayer00001', name: '가', bot: false },
      { id: 'bot_1', name: '봇 똘이', bot: true },
    ];
    const n = 6;
    for (let i = 0; i < n; i++) {
      const record = playToEnd(countGame, players, { mode: 'duel' }, `nats-${i}`);
      buses[2].publish(
        subjects.roomFinished,
        JSON.stringify({
          v: 1,
          roomId: `g_nats${i}`,
          game: 'count',
          mode: 'duel',
          players,
          record,
          result: record.result,
          finishedAt: Date.now(),
        }),
      );
    }
    const deadline = Date.now() + 10_000;
    while ((await lobbies[0].db.game.count()) < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await Promise.all(lobbies.map((l) => l.idle()));
    expect(await lobbies[0].db.game.count()).toBe(n);
    // Without the queue group both replicas would receive every message (2n).
    expect(await sum('joke_lobby_room_finished_received_total')).toBe(n);
    expect(await sum('joke_lobby_games_recorded_total')).toBe(n);
  });
});
