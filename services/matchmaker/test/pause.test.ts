/**
 * A matchmaker that was itself not running (starved of CPU, a long GC, a paused VM) must not call the workers
 * dead for the heartbeats it did not read meanwhile: under the suite's own load a paused matchmaker failed live
 * workers over and their rooms moved a second time. On fake time: `stall` is the pause, heartbeats are sent
 * by hand so the test says exactly when each one arrives.
 */
import { describe, expect, it } from 'vitest';
import { InProcessBus } from '@joke/bus';
import { MemoryMatchStore, MemorySnapshotStore } from '@joke/stores';
import { FakeClock } from '@joke/bus/clock';
import { contract, emit } from '@joke/protocol';
import { startMatchmaker } from '../src/index.ts';
import { cleanupAfterEach, games, log } from './helpers.ts';

const cleanup = cleanupAfterEach();

async function matchmaker() {
  const clock = new FakeClock(1_000_000);
  const bus = new InProcessBus();
  const now = () => clock.now();
  const mm = await startMatchmaker(
    // Heartbeats only (no probe): DEAD_AFTER_MS 200, checked every 20 ms.
    { matchmakerId: 'mm1', deadAfterMs: 200, deadCheckMs: 20, orphanSweepMs: 60_000, probeMs: 0 },
    { bus, snapshots: new MemorySnapshotStore(now), match: new MemoryMatchStore(now), games, log, clock },
  );
  cleanup.push(async () => {
    await mm.close();
    await bus.close();
  });
  const beat = (workerId: string, loopLagMs = 0) =>
    emit(bus, contract.workerHeartbeat, {
      v: 1,
      workerId,
      shard: 0,
      rooms: 0,
      actionsPerSec: 0,
      loopLagMs,
      draining: false,
      at: clock.now(),
      incarnation: `${workerId}-1`,
    });
  const live = () =>
    mm
      .liveWorkers()
      .map((w) => w.workerId)
      .sort();
  return { clock, mm, beat, live };
}

describe('heartbeats that come later and later', () => {
  it('stretch the worker’s deadline to 3× its slowest recent gap, so a slow worker is not failed over; silence still is', async () => {
    const { clock, beat, live } = await matchmaker();
    // Checks run every 20 ms from t0 (the matchmaker started then).
    const t0 = clock.now();
    const at = (ms: number) => clock.advanceTo(t0 + ms);
    // w0's heartbeats come 50, 80, 120 ms apart (an overloaded worker): its deadline becomes 360 ms, past
    // DEAD_AFTER_MS (200). w1 says its event loop lags 150 ms: 450 ms.
    beat('w0');
    beat('w1', 150);
    for (const t of [50, 130, 250]) {
      await at(t);
      beat('w0');
    }
    await at(440);
    expect(live()).toEqual(['w0', 'w1']);
    await at(470);
    expect(live()).toEqual(['w0']);
    // w0 then falls silent: still there 340 ms on, gone at the first check past 360.
    await at(250 + 340);
    expect(live()).toEqual(['w0']);
    await at(250 + 380);
    expect(live()).toEqual([]);
  });

  it('a steady worker keeps DEAD_AFTER_MS', async () => {
    const { clock, beat, live } = await matchmaker();
    for (let i = 0; i < 10; i++) {
      beat('w0');
      await clock.advance(50);
    }
    beat('w0');
    await clock.advance(200);
    expect(live()).toEqual(['w0']);
    await clock.advance(20);
    expect(live()).toEqual([]);
  });
});

describe('a paused matchmaker', () => {
  it('does not count its own pause as the workers’ silence, and still finds a worker that stays silent after it', async () => {
    const { clock, beat, live } = await matchmaker();
    beat('w0');
    beat('w1');
    await clock.advance(100);
    expect(live()).toEqual(['w0', 'w1']);

    // Paused for 5 s, five times DEAD_AFTER_MS. When it wakes its dead check runs first, before it reads
    // the heartbeats that waited on its socket: no verdict on that pause.
    clock.stall(5_000);
    await clock.runDue();
    expect(live()).toEqual(['w0', 'w1']);
    // The heartbeats sent meanwhile are read now; w1's are not there (it really stopped).
    beat('w0');
    await clock.advance(50);
    expect(live()).toEqual(['w0', 'w1']);
    // w1's silence counts the time watched (100 ms before the pause, the 40 ms of slack the late check allows,
    // 50 since): past 200 it goes at the next check; w0 keeps beating.
    for (let i = 0; i < 3; i++) {
      beat('w0');
      await clock.advance(40);
    }
    expect(live()).toEqual(['w0']);
  });

  it('a check a little late (under a period over) changes nothing: silence is silence', async () => {
    const { clock, beat, live } = await matchmaker();
    beat('w0');
    beat('w1');
    await clock.advance(10);
    // Every check 35 ms after the one before (15 ms late, inside the slack of one period): nothing credited,
    // so w1 silent from the start goes once 200 ms have passed, as on an idle box.
    for (let t = 0; t < 210; t += 35) {
      beat('w0');
      clock.stall(35);
      await clock.runDue();
    }
    expect(live()).toEqual(['w0']);
  });
});
