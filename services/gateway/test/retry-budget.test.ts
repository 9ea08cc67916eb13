/**
 * Issue 37: a retry storm cannot multiply the offered load by more than the retry budget. A worker that
 * receives every command and answers none (a stalled event loop) gets N first tries and at most
 * floor + ratio × N retries from one gateway, however long each request's own retry time is.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { InProcessBus } from '@joke/bus';
import { contract, type bus as wire } from '@joke/protocol';
import { GatewayConfig, type GatewayConfigInput } from '../src/config.ts';
import { systemClock } from '@joke/bus/clock';
import { createMetrics } from '../src/metrics.ts';
import { Requester } from '../src/requests.ts';

const buses: InProcessBus[] = [];
afterEach(async () => {
  for (const b of buses.splice(0)) await b.close();
});

/** N commands to rooms of a worker that never answers; resolves with how many requests reached it. */
async function stalled(n: number, cfg: Partial<GatewayConfigInput>) {
  const bus = new InProcessBus();
  buses.push(bus);
  let received = 0;
  // The worker's subscriptions are there (no "no responders"), its answers never come: every attempt times out.
  for (let i = 0; i < n; i++) bus.subscribe(contract.roomCommand.at(`room${i}`).subject, () => received++);
  const config = GatewayConfig.parse({ jwtSecret: 'x'.repeat(16), commandTimeoutMs: 20, retryBudgetMs: 600, ...cfg });
  const requester = new Requester({
    bus,
    cfg: config,
    metrics: createMetrics('gw-test', false),
    log: pino({ level: 'silent' }),
    clock: systemClock,
    ownerOf: () => null,
    closing: () => false,
  });
  const replies = await Promise.all(
    Array.from({ length: n }, (_, i) => {
      const cmd: wire.RoomCommand = { v: 1, userId: `u${i}`, actionId: `a${i}`, action: {}, gatewayId: 'gw', at: 0 };
      return requester.request(contract.roomCommand.at(`room${i}`), cmd, { op: 'action' });
    }),
  );
  return { received, replies, budget: requester.budget };
}

describe('gateway retry budget', () => {
  it('a stalled worker gets N commands and at most floor + ratio × N retries, and every request ends', async () => {
    const n = 60;
    const { received, replies, budget } = await stalled(n, { retryRatio: 0.1, retryFloor: 2 });
    expect(replies.every((r) => r === null)).toBe(true);
    expect(budget.firsts).toBe(n);
    expect(budget.retries).toBeLessThanOrEqual(2 + 0.1 * n);
    expect(received).toBe(n + budget.retries);
    expect(budget.refused).toBeGreaterThan(0);
  });

  it('with a budget that does not bind, the same requests retry many times over (what the budget prevents)', async () => {
    const n = 20;
    // 2 s of retrying instead of 0.6 s: on the real clock, a box running the whole suite fitted only 27 retries
    // of 20 requests into 0.6 s; the point (retries far past what a budget of floor + ratio × N allows) stands.
    const { received, budget } = await stalled(n, { retryRatio: 10, retryFloor: 100_000, retryBudgetMs: 2_000 });
    expect(budget.refused).toBe(0);
    expect(received).toBeGreaterThan(3 * n);
  });
});
