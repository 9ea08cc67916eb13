/**
 * The heartbeat's loop lag: real milliseconds the matchmaker stretches this worker's deadline by
 * (matchmaker pause.ts), so only a worker on real time reports them.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { contract, listen, type bus as wire } from '@joke/protocol';
import { InProcessBus } from '@joke/bus';
import { createLogger } from '@joke/ops';
import { MemorySnapshotStore } from '@joke/stores';
import { FakeClock, systemClock, type Clock } from '@joke/bus/clock';
import { workerConfig } from '../src/config.ts';
import { createWorkerMetrics } from '../src/metrics.ts';
import { Upkeep } from '../src/upkeep.ts';

const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closing.splice(0)) await c();
});

/** The heartbeat sent right after the event loop was held for `blockMs`, and the lag the worker measured. */
async function beatAfterBlock(clock: Clock, blockMs: number): Promise<[wire.WorkerHeartbeat, number]> {
  const bus = new InProcessBus();
  closing.push(() => bus.close());
  const beats: wire.WorkerHeartbeat[] = [];
  const sub = listen(bus, contract.workerHeartbeat, (hb) => beats.push(hb));
  closing.push(async () => sub.unsubscribe());
  const metrics = createWorkerMetrics();
  const upkeep = new Upkeep({
    bus,
    store: new MemorySnapshotStore(),
    // No periodic beat in between: the test's own beat reads what the hold left in the histogram.
    cfg: workerConfig.resolve({ workerId: 'w-lag', heartbeatMs: 60_000 }),
    metrics,
    log: createLogger('upkeep-test', 'silent'),
    clock,
    incarnation: 'i1',
    rooms: new Map(),
    draining: () => false,
  });
  upkeep.start();
  closing.push(async () => upkeep.stop());
  // The histogram samples the loop every 10 ms: let it run, hold the loop, let it see the delay.
  await new Promise((r) => setTimeout(r, 30));
  const until = performance.now() + blockMs;
  while (performance.now() < until);
  await new Promise((r) => setTimeout(r, 30));
  upkeep.heartbeat();
  await new Promise((r) => setImmediate(r));
  // The metric is in seconds (joke_worker_event_loop_lag_seconds); the heartbeat reports ms.
  const measured = Math.round(((await metrics.loopLag.get()).values[0]?.value ?? 0) * 1000 * 10) / 10;
  return [beats.at(-1)!, measured];
}

describe('the heartbeat loop lag', () => {
  it('a worker on real time reports how long its loop was held', async () => {
    const [hb, measured] = await beatAfterBlock(systemClock, 120);
    expect(measured).toBeGreaterThanOrEqual(100);
    expect(hb.loopLagMs).toBe(measured);
  });

  it('so does a worker on another clock of real time (a wrapper of the system clock, say)', async () => {
    const wrapped: Clock = { ...systemClock, now: () => systemClock.now() };
    const [hb, measured] = await beatAfterBlock(wrapped, 120);
    expect(measured).toBeGreaterThanOrEqual(100);
    expect(hb.loopLagMs).toBe(measured);
  });

  it('a worker on fake time reports none, however long its loop was held (a test placed its deadlines on fake time)', async () => {
    const [hb, measured] = await beatAfterBlock(new FakeClock(), 120);
    expect(measured).toBeGreaterThanOrEqual(100); // its metric still shows it
    expect(hb.loopLagMs).toBe(0);
  });
});
