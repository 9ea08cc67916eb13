/**
 * Issue 40, item 3: quick match never lets a player pick opponents or seats. A
 * quick-match request names only a game, a mode, a table size and whether bots
 * may fill in: the client message and the bus request both drop anything else
 * (a seat, opponents, a room), and the table is made of whoever waited longest,
 * whatever a request asked for. Private rooms by code are another path (lobby).
 * In-process bus, memory stores, one real room worker; nothing external.
 */
import { describe, expect, it } from 'vitest';
import { InProcessBus } from '@joke/bus';
import { MemoryMatchStore, MemorySnapshotStore } from '@joke/stores';
import { bus as wire, ClientMessage, PROTOCOL_VERSION, subjects, wireText } from '@joke/protocol';
import { startRoomWorker } from '@joke/room-worker';
import { startMatchmaker } from '../src/index.ts';
import { cleanupAfterEach, games, log, until } from './helpers.ts';

const cleanup = cleanupAfterEach();

/** What a client would like to choose, if quick match let it. */
const WISHES = { seat: 0, opponents: ['u9'], with: 'u9', roomId: 'friends-table', seats: ['u2', 'u9'] };

/** One room worker and one matchmaker on an in-process bus, and the tables gateway `gA` is told of. */
async function quickMatchStack() {
  const bus = new InProcessBus();
  const worker = await startRoomWorker(
    { workerId: 'w0', shard: 0, heartbeatMs: 50, botDelayMs: 0, botJitterMs: 0 },
    { bus, store: new MemorySnapshotStore(), games, log },
  );
  const mm = await startMatchmaker(
    { matchmakerId: 'mm1', deadAfterMs: 200, deadCheckMs: 20, orphanSweepMs: 200 },
    { bus, snapshots: new MemorySnapshotStore(), match: new MemoryMatchStore(), games, log },
  );
  cleanup.push(async () => {
    await mm.close();
    await worker.close();
    await bus.close();
  });
  await until(() => mm.liveWorkers().length === 1, 20_000, 'heartbeat');
  const matched: { userId: string; roomId: string }[] = [];
  bus.subscribe(subjects.gatewayMatched('gA'), (m) => matched.push(JSON.parse(wireText(m.data))));
  return { bus, worker, matched };
}

describe('quick match picks nobody’s opponents or seats (issue 40)', () => {
  it('the client queue message and the bus request carry no seat, opponent or room: such members are dropped', () => {
    const client = ClientMessage.parse({
      v: PROTOCOL_VERSION,
      t: 'queue',
      game: 'race',
      mode: 'classic',
      players: 3,
      ...WISHES,
    });
    expect(Object.keys(client).sort()).toEqual(['game', 'mode', 'players', 't', 'v']);
    const request = wire.QueueRequest.parse({
      v: 1,
      userId: 'u2',
      name: 'u2',
      gatewayId: 'gA',
      game: 'race',
      mode: 'classic',
      players: 3,
      ...WISHES,
    });
    for (const k of Object.keys(WISHES)) expect(request).not.toHaveProperty(k);
  });

  it('a request naming a seat and an opponent is queued like any other: the table is the three who waited longest, the named opponent is not among them', async () => {
    const { bus, worker, matched } = await quickMatchStack();
    const q = async (userId: string, extra: Record<string, unknown> = {}) =>
      JSON.parse(
        wireText(
          await bus.request(
            subjects.queue,
            JSON.stringify({
              v: 1,
              userId,
              name: userId,
              gatewayId: 'gA',
              game: 'race',
              mode: 'classic',
              players: 3,
              ...extra,
            }),
            2000,
          ),
        ),
      );
    expect(await q('u1')).toEqual({ ok: true });
    expect(await q('u2', WISHES)).toEqual({ ok: true });
    expect(await q('u3')).toEqual({ ok: true });
    expect(await q('u9')).toEqual({ ok: true });
    await until(() => matched.length === 3, 20_000, 'matched');
    const roomId = matched[0].roomId;
    expect(roomId).not.toBe(WISHES.roomId);
    expect(matched.map((x) => x.userId).sort()).toEqual(['u1', 'u2', 'u3']);
    const seats = worker.room(roomId)!.data.seats.map((s: { id: string }) => s.id);
    expect([...seats].sort()).toEqual(['u1', 'u2', 'u3']);
    expect(seats).not.toContain('u9');
  });

  it('seats are in a random order, not the order of the queue: over 12 tables the first to queue is not always seat 1', async () => {
    const { bus, worker, matched } = await quickMatchStack();
    const firstSeatOfFirstInQueue: number[] = [];
    for (let t = 0; t < 12; t++) {
      const users = [`a${t}`, `b${t}`, `c${t}`];
      for (const userId of users) {
        const body = { v: 1, userId, name: userId, gatewayId: 'gA', game: 'race', mode: 'classic', players: 3 };
        expect(JSON.parse(wireText(await bus.request(subjects.queue, JSON.stringify(body), 2000)))).toEqual({
          ok: true,
        });
      }
      await until(() => matched.some((x) => x.userId === users[0]), 20_000, `table ${t} matched`);
      const roomId = matched.find((x) => x.userId === users[0])!.roomId;
      await until(() => worker.room(roomId) !== undefined, 20_000, `table ${t} open`);
      const seats = worker.room(roomId)!.data.seats.map((s: { id: string }) => s.id);
      expect([...seats].sort()).toEqual([...users].sort());
      firstSeatOfFirstInQueue.push(seats.indexOf(users[0]));
    }
    // In queue order it would be seat 0 every time; at random, 12 zeros have a chance of (1/3)^12.
    expect(new Set(firstSeatOfFirstInQueue).size).toBeGreaterThan(1);
  });
});
