/**
 * Scale-up rebalances by itself: 2 room workers and 2 matchmakers as
 * processes on the real NATS and Redis, with automatic rebalancing on, play
 * tables (some with a seat driven from the test, acknowledgment by
 * acknowledgment); a third worker joins, and with nobody running `npm run
 * rebalance` the matchmakers' lease holder moves tables onto it by live
 * migration, a few per round. Every table finishes, its record replays from
 * the seed, and every acknowledged action is in it, in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusTimeoutError } from '@joke/bus';
import { games, verifyRecord, type GameRecord } from '@joke/engine';
import { Cluster, HumanSeat, sleep, until } from './cluster-harness.ts';

const game = games['one-card'];
// Bots slow enough that the tables are still playing once the third worker is up: on a busy box its start
// took longer than a whole game at 60 ms a move, and a finished table is never moved.
const WORKER_ENV = { BOT_DELAY_MS: '300', BOT_JITTER_MS: '100', FINISHED_LINGER_MS: '30000' };
const AUTO = {
  AUTO_REBALANCE_THRESHOLD: '3',
  AUTO_REBALANCE_INTERVAL_MS: '300',
  AUTO_REBALANCE_MAX_MOVES: '4',
  AUTO_REBALANCE_SETTLE_MS: '500',
};
const TABLES = 24;
const c = new Cluster();

beforeAll(async () => {
  await c.start();
  await Promise.all([
    c.worker('w1', 1, WORKER_ENV),
    c.worker('w2', 2, WORKER_ENV),
    c.matchmaker('mm1', AUTO),
    c.matchmaker('mm2', AUTO),
  ]);
  await until(() => ['w1', 'w2'].every((w) => c.heartbeats.has(w)), 10_000, 'worker heartbeats');
  await c.matchmakersSee(['mm1', 'mm2'], 2);
}, 90_000);
afterAll(() => c.stop(), 60_000);

/** Joins as a gateway does: a table being moved at that moment has no responder for a few ms, so retry. */
async function join(roomId: string, userId: string, spectate: boolean) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await c.join(roomId, userId, spectate);
    } catch (err) {
      if (!(err instanceof BusTimeoutError) || attempt > 20) throw err;
      await sleep(50);
    }
  }
}

const bots = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `bot${i}`, name: `봇${i}`, bot: true }));

describe('automatic rebalancing on real NATS and Redis', () => {
  it('a third worker joins under load: tables move to it by themselves, every table finishes, no acknowledged action is lost', async () => {
    const seats: HumanSeat[] = [];
    const roomIds = Array.from({ length: TABLES }, (_, i) => `a${i}`);
    await Promise.all(
      roomIds.map(async (roomId, i) => {
        const human = i < 8;
        const players = human ? [{ id: `human-${i}`, name: '사람', bot: false }, ...bots(3)] : bots(4);
        await c.createRoom(roomId, players, { mode: 'classic' });
        await join(roomId, 'watcher', true);
        if (human) {
          await join(roomId, `human-${i}`, false);
          seats.push(new HumanSeat(c, roomId, `human-${i}`));
        }
      }),
    );
    const running = seats.map((s) => s.run());
    await c.worker('w3', 3, WORKER_ENV);
    const t0 = Date.now();
    // Nobody asks for a rebalance: the lease holder sees w3 empty and the others full, and moves tables.
    // Heartbeats carry counts only: which tables moved is read from the leases that name w3.
    let onNew = new Set<string>();
    // A bound for a rebalancer that never moves: a round waits for w3 to settle and each move is a live
    // migration. 30 s ran out once at load ≈ 45 with two platform files at once (2026-12-07; why is not
    // known: the failure now says what the rebalancer saw).
    await until(
      async () => (onNew = new Set(await c.store.ownedBy('w3', 1000))).size >= 3,
      90_000,
      () =>
        `tables on the new worker (w3 holds ${onNew.size}; still playing ${roomIds.filter((id) => !c.finished.has(id)).length} ` +
        `of ${TABLES}; heartbeats ${[...c.heartbeats].map(([w, h]) => `${w}=${h.rooms}`).join(' ')})`,
    );
    const movedAfterMs = Date.now() - t0;
    expect([...onNew].every((id) => roomIds.includes(id))).toBe(true);

    await until(() => roomIds.every((id) => c.finished.has(id)), 240_000, 'every table finished');
    for (const s of seats) s.stop();
    await Promise.all(running);
    for (const roomId of roomIds) {
      const record = c.finished.get(roomId)!.record as GameRecord;
      expect(verifyRecord(game, record).problems, roomId).toEqual([]);
      const seat = seats.find((s) => s.roomId === roomId);
      if (seat) {
        const mine = record.actions
          .filter((s) => 'actor' in s && s.actor === seat.userId)
          .map((s) => JSON.stringify((s as any).action));
        expect(mine, roomId).toEqual(seat.acked.map((a) => JSON.stringify(a.action)));
      }
    }
    console.log(
      `[auto-rebalance] w3 held ${onNew.size} tables ${movedAfterMs} ms after joining; ${TABLES} tables finished`,
    );
  }, 400_000);
});
