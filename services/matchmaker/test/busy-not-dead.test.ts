/**
 * Issue 37, busy is not dead: a worker whose heartbeats stop arriving but which still renews its leases
 * (or answers its pings) keeps its rooms; a worker that is really gone still has all its rooms moved, a
 * share per FAILOVER_STEP_MS from the first check after DEAD_AFTER_MS; and a failover stops mid-way once
 * the worker shows life. Real room workers on the in-process bus and memory stores, all on one fake clock.
 */
import { describe, expect, it } from 'vitest';
import { InProcessBus, type Wire } from '@joke/bus';
import { MemoryMatchStore, MemorySnapshotStore, type SnapshotStore } from '@joke/stores';
import { FakeClock } from '@joke/bus/clock';
import { subjects, wireText } from '@joke/protocol';
import { startRoomWorker, type RoomWorker } from '@joke/room-worker';
import { startMatchmaker, type FailoverReport, type Matchmaker } from '../src/index.ts';
import { advanceUntil, cleanupAfterEach, games, log, tickAfter } from './helpers.ts';

const cleanup = cleanupAfterEach();

/** A bus on which a worker's heartbeats can be lost (a saturated bus or matchmaker), nothing else. */
class LossyBus extends InProcessBus {
  readonly muted = new Set<string>();
  override publish(subject: string, data: Wire): void {
    if (subject === subjects.workerHeartbeat && this.muted.size > 0) {
      const hb = JSON.parse(wireText(data)) as { workerId: string };
      if (this.muted.has(hb.workerId)) return;
    }
    super.publish(subject, data);
  }
}

/** The store as one worker sees it: while `stalled`, its writes and renewals wait (a stalled event loop). */
function stallable(store: SnapshotStore): { store: SnapshotStore; stall(): void; resume(): void } {
  let gate: Promise<void> | null = null;
  let open = () => {};
  const held =
    <A extends unknown[], R>(fn: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      while (gate) await gate;
      return fn(...a);
    };
  const wrapped: SnapshotStore = Object.create(store);
  wrapped.write = held(store.write.bind(store));
  wrapped.renew = held(store.renew.bind(store));
  return {
    store: wrapped,
    stall: () => {
      gate = new Promise<void>((r) => (open = r));
    },
    resume: () => {
      gate = null;
      open();
    },
  };
}

const DEAD_AFTER = 200;
const CHECK = 20;
const STEP = 500;
const SHARE = 0.25;

async function cluster(mmCfg: Record<string, unknown> = {}) {
  const clock = new FakeClock();
  const bus = new LossyBus();
  const snapshots = new MemorySnapshotStore(() => clock.now());
  const match = new MemoryMatchStore(() => clock.now());
  const w0Store = stallable(snapshots);
  const workers: RoomWorker[] = [];
  for (let i = 0; i < 2; i++)
    workers.push(
      await startRoomWorker(
        {
          workerId: `w${i}`,
          shard: i,
          heartbeatMs: 50,
          leaseTtlMs: 5_000,
          leaseRenewMs: 100,
          botDelayMs: 0,
          botJitterMs: 0,
        },
        { bus, store: i === 0 ? w0Store.store : snapshots, games, log, clock },
      ),
    );
  const mmStart = clock.now();
  const mm: Matchmaker = await startMatchmaker(
    {
      matchmakerId: 'mm1',
      deadAfterMs: DEAD_AFTER,
      deadCheckMs: CHECK,
      orphanSweepMs: 60_000,
      probeMs: 0,
      failoverStepShare: SHARE,
      failoverStepMs: STEP,
      ...mmCfg,
    },
    { bus, snapshots, match, games, log, clock },
  );
  cleanup.push(async () => {
    await mm.close();
    for (const w of workers) await w.close();
    await bus.close();
  });
  await advanceUntil(clock, () => mm.liveWorkers().length === 2, 5_000, 'heartbeats');
  const reports: FailoverReport[] = [];
  mm.onFailover((r) => reports.push(r));
  // Rooms until w0 holds 12 (rendezvous spreads them by id).
  const onW0: string[] = [];
  for (let i = 0; onW0.length < 12; i++) {
    const r = JSON.parse(
      wireText(
        await bus.request(
          subjects.createRoom,
          JSON.stringify({
            v: 1,
            room: {
              roomId: `b${i}`,
              game: 'race',
              options: { target: 1000 },
              players: [{ id: 'a', name: 'A', bot: false }],
            },
          }),
          3000,
        ),
      ),
    ) as { ok: boolean; workerId: string };
    expect(r.ok).toBe(true);
    if (r.workerId === 'w0') onW0.push(`b${i}`);
  }
  const ownerOf = async (ids: string[]) => Promise.all(ids.map(async (id) => (await snapshots.lease(id))?.owner));
  const live = () =>
    mm
      .liveWorkers()
      .map((w) => w.workerId)
      .sort();
  return { clock, bus, snapshots, workers, mm, mmStart, reports, onW0, ownerOf, live, w0Store };
}

describe('busy is not dead', () => {
  it('a worker with late heartbeats but renewed leases keeps its rooms (15 × DEAD_AFTER_MS without a heartbeat)', async () => {
    const c = await cluster();
    c.bus.muted.add('w0');
    await c.clock.advance(15 * DEAD_AFTER);
    expect(c.live()).toEqual(['w0', 'w1']);
    expect(c.reports).toEqual([]);
    expect(new Set(await c.ownerOf(c.onW0))).toEqual(new Set(['w0']));
    expect(c.workers[0].roomIds()).toEqual(expect.arrayContaining(c.onW0));
    const kept = await c.mm.registry.getSingleMetricAsString('joke_matchmaker_busy_not_dead_total');
    expect(kept).toMatch(/sign="lease"} [1-9]/);
  });

  it('a worker with late heartbeats and stalled writes that answers its pings keeps its rooms', async () => {
    const c = await cluster({ probeMs: 50 });
    c.bus.muted.add('w0');
    c.w0Store.stall();
    await c.clock.advance(15 * DEAD_AFTER);
    expect(c.live()).toEqual(['w0', 'w1']);
    expect(c.reports).toEqual([]);
    c.w0Store.resume();
  });

  it("a truly dead worker's rooms still move: a share at the first check after DEAD_AFTER_MS, all within the steps after it", async () => {
    const c = await cluster();
    c.bus.muted.add('w0');
    c.w0Store.stall(); // no heartbeat, no write, no renewal: dead as far as anyone can tell
    const lastBeat = c.mm.liveWorkers().find((w) => w.workerId === 'w0')!.seenAt;
    const due = tickAfter(c.mmStart, CHECK, lastBeat + DEAD_AFTER);
    await c.clock.advanceTo(due - 1);
    expect(c.live()).toEqual(['w0', 'w1']);
    await c.clock.advanceTo(due);
    expect(c.live()).toEqual(['w1']);
    const share = Math.ceil(c.onW0.length * SHARE);
    const moved = async () => (await c.ownerOf(c.onW0)).filter((o) => o === 'w1').length;
    // The first share goes at once (the restores' round trips take no fake time), the next only a step later.
    await advanceUntil(c.clock, async () => (await moved()) >= share, STEP - 50, 'the first share', 1);
    expect(await moved()).toBe(share);
    // Every room moved after ceil(1 / share) - 1 further steps.
    const steps = Math.ceil(1 / SHARE) - 1;
    await advanceUntil(c.clock, () => c.reports.length === 1, steps * STEP + 100, 'the failover report');
    expect(c.clock.now()).toBeGreaterThanOrEqual(due + steps * STEP);
    expect(c.reports[0]).toMatchObject({ workerId: 'w0', rooms: 12, restored: 12, failed: 0 });
    expect(c.reports[0].stopped).toBeUndefined();
    expect(new Set(await c.ownerOf(c.onW0))).toEqual(new Set(['w1']));
    c.w0Store.resume();
  });

  it('a failover stops mid-way when the worker shows life (a lease renewed), and it keeps the rooms not yet moved', async () => {
    const c = await cluster();
    c.bus.muted.add('w0');
    c.w0Store.stall();
    const share = Math.ceil(c.onW0.length * SHARE);
    const moved = async () => (await c.ownerOf(c.onW0)).filter((o) => o === 'w1').length;
    await advanceUntil(c.clock, async () => (await moved()) >= share, DEAD_AFTER + STEP, 'the first share', 5);
    // Its loop comes back: the writes and renewals it held go through (the heartbeats are still lost).
    c.w0Store.resume();
    await advanceUntil(c.clock, () => c.reports.length === 1, 2 * STEP, 'the failover report');
    expect(c.reports[0]).toMatchObject({ workerId: 'w0', rooms: share, restored: share, stopped: true });
    const owners = await c.ownerOf(c.onW0);
    expect(owners.filter((o) => o === 'w0')).toHaveLength(c.onW0.length - share);
    // Long after, nothing else moved: the rooms it kept are its own.
    await c.clock.advance(5 * STEP);
    expect(await c.ownerOf(c.onW0)).toEqual(owners);
  });

  it('a failover stops when the worker heartbeats again', async () => {
    const c = await cluster();
    c.bus.muted.add('w0');
    c.w0Store.stall();
    const share = Math.ceil(c.onW0.length * SHARE);
    const moved = async () => (await c.ownerOf(c.onW0)).filter((o) => o === 'w1').length;
    await advanceUntil(c.clock, async () => (await moved()) >= share, DEAD_AFTER + STEP, 'the first share', 5);
    c.bus.muted.delete('w0');
    await advanceUntil(c.clock, () => c.reports.length === 1, 2 * STEP, 'the failover report');
    expect(c.reports[0]).toMatchObject({ workerId: 'w0', rooms: share, stopped: true });
    expect(c.live()).toEqual(['w0', 'w1']);
    c.w0Store.resume();
  });
});
