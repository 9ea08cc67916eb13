/**
 * The automatic rebalance leader's timing on fake time (auto-rebalance.ts): rounds on their interval, a
 * worker a target only once it has been heard for `settleMs`, and nothing moved a round early. The
 * leader lease is real Redis (its TTL on the server's clock); the workers are pretend ones whose migrate
 * subject the test answers on the in-process bus. The whole flow on real processes is
 * services/platform/test/auto-rebalance.test.ts.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InProcessBus } from '@joke/bus';
import { FakeClock } from '@joke/bus/clock';
import { contract, serve, type bus as wire } from '@joke/protocol';
import { autoRebalanceConfig } from '../src/auto-rebalance-config.ts';
import { startAutoRebalance } from '../src/auto-rebalance.ts';
import { cleanupAfterEach, log, until } from './helpers.ts';

const cleanup = cleanupAfterEach();
const INTERVAL_MS = 300;
const SETTLE_MS = 600;

describe('automatic rebalancing on fake time', () => {
  it('moves tables at the first round after both workers have been heard for settleMs, not a round before', async () => {
    const clock = new FakeClock();
    const bus = new InProcessBus();
    const asked: (wire.MigrateRequest & { at: number })[] = [];
    const sub = serve(
      bus,
      contract.workerMigrate.at('w0'),
      (req, respond) => {
        asked.push({ ...req, at: clock.now() });
        respond({ moved: req.roomIds.map((roomId) => ({ roomId, workerId: req.toWorkerId! })), stayed: [] });
      },
      () => ({ moved: [], stayed: [] }),
    );
    const rooms: Record<string, string[]> = { w0: Array.from({ length: 10 }, (_, i) => `r${i}`), w1: [] };
    /** When each round got past the lease (it reads the workers next, and decides synchronously after). */
    const rounds: number[] = [];
    const roomsRead: string[] = [];
    const start = clock.now();
    const auto = await startAutoRebalance(
      autoRebalanceConfig.resolve({ threshold: 3, intervalMs: INTERVAL_MS, maxMoves: 4, settleMs: SETTLE_MS }),
      {
        bus,
        log,
        matchmakerId: 'mm-auto',
        redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
        namespace: `t${randomBytes(6).toString('hex')}`,
        liveWorkers: () => {
          rounds.push(clock.now());
          return ['w0', 'w1'].map((workerId) => ({
            workerId,
            incarnation: 'i1',
            rooms: rooms[workerId].length,
            draining: false,
          }));
        },
        roomsOf: async (workerId) => {
          roomsRead.push(workerId);
          return rooms[workerId];
        },
        clock,
      },
    );
    cleanup.push(async () => {
      await auto.close();
      sub.unsubscribe();
      await bus.close();
    });
    // Round 1 sees both workers for the first time; round 2 is INTERVAL_MS after that, short of SETTLE_MS.
    for (const k of [1, 2]) {
      await clock.advanceTo(start + k * INTERVAL_MS - 1);
      expect(rounds).toHaveLength(k - 1);
      await clock.advanceTo(start + k * INTERVAL_MS);
      await until(() => rounds.length === k, 20_000, `round ${k}`);
    }
    expect(rounds).toEqual([start + INTERVAL_MS, start + 2 * INTERVAL_MS]);
    expect(roomsRead).toEqual([]); // not settled: the leases were never read, nothing planned
    expect(auto.isLeader()).toBe(true);
    // Round 3 is SETTLE_MS after the first sight: both are targets now, and 4 tables (the cap) move.
    const due = start + 3 * INTERVAL_MS;
    await clock.advanceTo(due - 1);
    expect(asked).toEqual([]);
    await clock.advanceTo(due);
    await until(() => asked.length === 1, 20_000, 'migrate request');
    expect(asked[0]).toMatchObject({ roomIds: ['r0', 'r1', 'r2', 'r3'], toWorkerId: 'w1', at: due });
    expect(roomsRead.sort()).toEqual(['w0', 'w1']);
  });
});
