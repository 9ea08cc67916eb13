/**
 * A poisoned game result never stalls the history (issue 36): 300 RoomFinished events that PostgreSQL
 * refuses (a NUL in a player's name: invalid byte sequence, SQLSTATE 22021) are more than the durable
 * consumer's 256 unacknowledged events. Before, each was nak'ed for ever and no later game was recorded;
 * now each is parked in the dead-letter stream at its first failure, with its error, and counted, and a
 * good game sent after them is recorded. Real JetStream (127.0.0.1:4222, a prefix of its own) and
 * PostgreSQL (a schema of its own).
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { NatsBus } from '@joke/bus';
import { bus as wire, contract, emitDurable, subjects, wireText } from '@joke/protocol';
import { createLobby, type Lobby } from '../src/index.ts';
import { countGame, playToEnd } from './helpers/count-game.ts';
import { JWT_SECRET, sql, uniqueSchema } from './helpers/harness.ts';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const prefix = `dl_${randomBytes(4).toString('hex')}`;
const schema = uniqueSchema('deadletter');
const buses: NatsBus[] = [];
let lobby: Lobby | undefined;
const POISONED = Number(process.env.POISONED_RESULTS || 300);

afterAll(async () => {
  await lobby?.close();
  await buses[0]?.removeDurableStreams().catch(() => {});
  for (const b of buses) await b.close().catch(() => {});
  await schema.drop();
});

function finished(roomId: string, name: string): wire.RoomFinished {
  const players = [
    { id: `u_${roomId.slice(2, 18).padEnd(16, '0')}`, name, bot: false },
    { id: 'bot_1', name: '봇 똘이', bot: true },
  ];
  const record = playToEnd(countGame, players, { mode: 'duel' }, roomId);
  return {
    v: 1,
    roomId,
    game: 'count',
    mode: 'duel',
    players,
    record: record as unknown as Record<string, unknown>,
    result: record.result as unknown as Record<string, unknown>,
    finishedAt: Date.now(),
  };
}

/**
 * 300 events go through one consumer one by one (a failed transaction, a park, an ack each): ≈ 45 s on a
 * quiet box, past 120 s under two busy loops beside the suite. The wait is on the condition, bounded.
 */
async function until(ok: () => Promise<boolean>, what: string, timeoutMs = 360_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; !(await ok());) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('poisoned game results (JetStream + PostgreSQL)', () => {
  it('300 unstorable results are parked with their error and a later good game is recorded', async () => {
    const worker = await NatsBus.connect(NATS_URL, { prefix });
    buses.push(worker);
    // Stored before the lobby starts: the consumer gets all of them at once, past its 256 unacknowledged.
    for (let i = 0; i < POISONED; i++) {
      const roomId = `g_poison${String(i).padStart(4, '0')}`;
      await emitDurable(worker, contract.roomFinished, finished(roomId, `독\u0000${i}`), `finished:${roomId}`);
    }
    await emitDurable(worker, contract.roomFinished, finished('g_goodgame0001', '착한사람'), 'finished:g_good');

    const lobbyBus = await NatsBus.connect(NATS_URL, { prefix });
    buses.push(lobbyBus);
    lobby = await createLobby({
      bus: lobbyBus,
      databaseUrl: schema.url,
      jwtSecret: JWT_SECRET,
      games: { count: countGame },
      log: pino({ level: 'silent' }),
    });
    const stored = async () => (await sql<{ id: string }>(schema.schema, 'SELECT id FROM games')).map((r) => r.id);
    await until(async () => (await stored()).includes('g_goodgame0001'), 'the good game recorded');
    const dead = worker.deadLetters(subjects.roomFinished);
    await until(async () => (await dead.count()) === POISONED, `${POISONED} results parked`);
    expect(await stored()).toEqual(['g_goodgame0001']);

    const parked = await dead.list(5);
    expect(parked).toHaveLength(5);
    for (const p of parked) {
      expect(p.subject).toBe(`${prefix}.${subjects.roomFinished}`);
      expect(p.durable).toBe(contract.roomFinished.durable);
      expect(p.code).toBe('SQLSTATE_22021');
      expect(p.error).toMatch(/invalid byte sequence/);
      expect(p.permanent).toBe(true);
      expect(p.deliveries).toBe(1);
      expect(Number.isNaN(Date.parse(p.at))).toBe(false);
      // The payload is the event as published: a replay after a fix stores it.
      expect((JSON.parse(wireText(p.data)) as wire.RoomFinished).roomId).toMatch(/^g_poison\d{4}$/);
    }
    const counted = await lobby.metrics.getSingleMetric('joke_lobby_dead_letters_total')!.get();
    expect(counted.values).toEqual([{ labels: { event: 'roomFinished', code: 'SQLSTATE_22021' }, value: POISONED }]);

    // A replay publishes parked events back and drops them from the dead letters: still unstorable, they
    // are parked again (counted again), and nothing is stored twice or lost.
    expect(await dead.replay(5)).toBe(5);
    const total = async () =>
      (await lobby!.metrics.getSingleMetric('joke_lobby_dead_letters_total')!.get()).values[0].value;
    await until(async () => (await total()) === POISONED + 5, 'the replayed events parked again');
    await until(async () => (await dead.count()) === POISONED, `${POISONED} parked after the replay`);
    expect(await stored()).toEqual(['g_goodgame0001']);
  }, 900_000);
});
