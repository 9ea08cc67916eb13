/**
 * Death noticed from the bus (probe.ts): a worker whose subscription is gone
 * is failed over long before its heartbeats could be missed, and a worker that
 * is on the bus but slow to answer is not.
 */
import { describe, expect, it } from 'vitest';
import { BusNoRespondersError, InProcessBus, type Wire } from '@joke/bus';
import { MemoryMatchStore, MemorySnapshotStore } from '@joke/stores';
import { subjects, wireText } from '@joke/protocol';
import { startRoomWorker, type RoomWorker } from '@joke/room-worker';
import { startMatchmaker, type FailoverReport } from '../src/index.ts';
import { FakeClock } from '@joke/bus/clock';
import { advanceUntil, cleanupAfterEach, games, log, tickAfter, until } from './helpers.ts';

const cleanup = cleanupAfterEach();
/** Heartbeats alone would take a minute: anything sooner came from the probe. */
const HEARTBEAT_ONLY_DEATH_MS = 60_000;
/** The ping period of these tests. */
const PROBE_MS = 20;

/** A bus on which a worker can be cut off from the matchmakers' pings while it goes on running (a false alarm). */
class CuttableBus extends InProcessBus {
  readonly cut = new Set<string>();
  override request(subject: string, data: Wire, timeoutMs: number): Promise<Wire> {
    for (const w of this.cut)
      if (subject === subjects.workerPing(w)) return Promise.reject(new BusNoRespondersError(subject));
    return super.request(subject, data, timeoutMs);
  }
}

/**
 * Two workers and a matchmaker on one fake time (with the memory stores): pings, heartbeats and leases move
 * only when a test advances `clock`; a ping's own timeout (`probeTimeoutMs`) is the bus's, on real time.
 */
async function setUp(workerCfg = {}, mmCfg = {}) {
  const clock = new FakeClock();
  const bus = new CuttableBus();
  const snapshots = new MemorySnapshotStore(() => clock.now());
  const match = new MemoryMatchStore(() => clock.now());
  const workers: RoomWorker[] = [];
  for (let i = 0; i < 2; i++)
    workers.push(
      await startRoomWorker(
        { workerId: `w${i}`, shard: i, heartbeatMs: 50, botDelayMs: 0, botJitterMs: 0, ...workerCfg },
        { bus, store: snapshots, games, log, clock },
      ),
    );
  const mmStart = clock.now();
  const mm = await startMatchmaker(
    { matchmakerId: 'mm1', deadAfterMs: HEARTBEAT_ONLY_DEATH_MS, probeMs: PROBE_MS, probeTimeoutMs: 200, ...mmCfg },
    { bus, snapshots, match, games, log, clock },
  );
  cleanup.push(async () => {
    await mm.close();
    for (const w of workers) await w.close();
    await bus.close();
  });
  await advanceUntil(clock, () => mm.liveWorkers().length === 2, 5_000, 'heartbeats');
  const live = (id: string) => mm.liveWorkers().some((w) => w.workerId === id);
  /** The next ping after now. */
  const nextPing = () => tickAfter(mmStart, PROBE_MS, clock.now());
  return { bus, snapshots, workers, mm, clock, live, nextPing };
}

const create = async (bus: CuttableBus, roomId: string) =>
  JSON.parse(
    wireText(
      await bus.request(
        subjects.createRoom,
        JSON.stringify({
          v: 1,
          room: { roomId, game: 'race', options: { target: 1000 }, players: [{ id: 'a', name: 'A', bot: false }] },
        }),
        3000,
      ),
    ),
  );

/** A heartbeat of a worker that only pretends (no room worker behind it): the probe pings it. */
const fakeHeartbeat = (bus: CuttableBus, workerId: string, at: number) =>
  bus.publish(
    subjects.workerHeartbeat,
    JSON.stringify({
      v: 1,
      workerId,
      shard: 9,
      rooms: 0,
      actionsPerSec: 0,
      loopLagMs: 0,
      draining: false,
      at,
      incarnation: 'i1',
    }),
  );

describe('failover from the bus (worker ping)', () => {
  // Detection is what these two test; the rooms move all at once (FAILOVER_STEP_SHARE 1), the paced
  // failover has its own tests (busy-not-dead.test.ts).
  it('a worker gone from the bus is failed over at the next ping, not after DEAD_AFTER_MS', async () => {
    const c = await setUp({}, { failoverStepShare: 1 });
    const failedOver = new Promise<FailoverReport>((r) => c.mm.onFailover(r));
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) if ((await create(c.bus, `p${i}`)).workerId === 'w0') ids.push(`p${i}`);
    expect(ids.length).toBeGreaterThan(0);
    const epochs = await Promise.all(ids.map(async (id) => (await c.snapshots.lease(id))!.epoch));
    await c.workers[0].close(); // its subscriptions leave the bus, as when the process dies
    const due = c.nextPing();
    await c.clock.advanceTo(due - 1);
    expect(c.live('w0')).toBe(true);
    // The in-process bus answers "no responders" at once, so the verdict is in by the end of the advance.
    await c.clock.advanceTo(due);
    expect(c.live('w0')).toBe(false);
    const report = await failedOver;
    expect(report).toMatchObject({ workerId: 'w0', rooms: ids.length, restored: ids.length, failed: 0 });
    for (const [i, id] of ids.entries()) {
      expect(c.workers[1].roomIds()).toContain(id);
      // One restore, one new writer: the lease moved exactly one epoch on.
      expect(await c.snapshots.lease(id)).toEqual({ owner: 'w1', epoch: epochs[i] + 1 });
    }
    expect(c.mm.liveWorkers().map((w) => w.workerId)).toEqual(['w1']);
    expect(c.clock.now()).toBe(due);
  });

  it('a worker that is on the bus but does not answer its pings is not failed over', async () => {
    const c = await setUp();
    const reports: FailoverReport[] = [];
    c.mm.onFailover((r) => reports.push(r));
    // A stuck worker: it heartbeats, and its ping subject has a subscriber that never answers.
    let pings = 0;
    const sub = c.bus.subscribe(subjects.workerPing('stuck'), () => pings++);
    fakeHeartbeat(c.bus, 'stuck', c.clock.now());
    await until(() => c.live('stuck'), 20_000, 'stuck worker seen');
    // One ping per period, none early, each left unanswered (its 200 ms timeout is the bus's, on real time,
    // and no verdict either).
    for (let k = 0; k < 8; k++) {
      const due = c.nextPing();
      await c.clock.advanceTo(due - 1);
      expect(pings).toBe(k);
      await c.clock.advanceTo(due);
      await until(() => pings === k + 1, 20_000, `ping ${k + 1}`);
    }
    expect(reports).toEqual([]);
    expect(c.live('stuck')).toBe(true);
    // And once its subscription is gone too, the probe does declare it dead, at the next ping.
    sub.unsubscribe();
    const due = c.nextPing();
    await c.clock.advanceTo(due - 1);
    expect(c.live('stuck')).toBe(true);
    await c.clock.advanceTo(due);
    expect(c.live('stuck')).toBe(false);
    await until(() => reports.some((r) => r.workerId === 'stuck'), 30_000, 'failover of the stuck worker');
  });

  it('a worker that was slow to answer and then dies is noticed at the next ping, not when the unanswered ones time out', async () => {
    // The unanswered pings would take a minute to time out: a detection at the next ping came from a new
    // ping sent while they were still pending (a cap of 4 in flight used to hold every new ping back).
    const c = await setUp({}, { probeTimeoutMs: 60_000 });
    const reports: FailoverReport[] = [];
    c.mm.onFailover((r) => reports.push(r));
    let pings = 0;
    // Swallowed, never answered: the worker is alive but too busy to reply (a loaded box).
    const sub = c.bus.subscribe(subjects.workerPing('slow'), () => pings++);
    fakeHeartbeat(c.bus, 'slow', c.clock.now());
    await until(() => c.live('slow'), 20_000, 'slow worker seen');
    await advanceUntil(c.clock, () => pings >= 10, 10 * PROBE_MS + 1_000, 'pings piling up unanswered', PROBE_MS);
    // Its process dies: the server forgets the subscription, the next ping hears "no responders".
    sub.unsubscribe();
    const due = c.nextPing();
    await c.clock.advanceTo(due - 1);
    expect(c.live('slow')).toBe(true);
    await c.clock.advanceTo(due);
    expect(c.live('slow')).toBe(false);
    await until(() => reports.some((r) => r.workerId === 'slow'), 30_000, 'failover of the slow worker');
  });

  it('a false alarm (the worker is alive but looked gone) is safe: its tables get one new writer and it lets them go', async () => {
    const c = await setUp({ leaseTtlMs: 1_000, leaseRenewMs: 200 }, { failoverStepShare: 1 });
    const failedOver = new Promise<FailoverReport>((r) => c.mm.onFailover(r));
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) if ((await create(c.bus, `fa${i}`)).workerId === 'w0') ids.push(`fa${i}`);
    expect(ids.length).toBeGreaterThan(0);
    const epochs = await Promise.all(ids.map(async (id) => (await c.snapshots.lease(id))!.epoch));
    c.bus.cut.add('w0'); // as when w0's NATS node dies and w0 is still reconnecting
    const due = c.nextPing();
    await c.clock.advanceTo(due - 1);
    expect(c.live('w0')).toBe(true);
    await c.clock.advanceTo(due);
    expect(c.live('w0')).toBe(false);
    await failedOver;
    c.bus.cut.delete('w0');
    for (const [i, id] of ids.entries())
      expect(await c.snapshots.lease(id)).toEqual({ owner: 'w1', epoch: epochs[i] + 1 });
    // w0 still ran those tables; its next lease renewal (200 ms) is fenced and it drops them: one writer per table.
    await advanceUntil(c.clock, () => ids.every((id) => !c.workers[0].roomIds().includes(id)), 1_000, 'w0 letting go');
    for (const id of ids) expect(c.workers[1].roomIds()).toContain(id);
    // Its heartbeats bring it back as a live worker (with nothing of the failed-over tables).
    await advanceUntil(c.clock, () => c.live('w0'), 1_000, 'w0 live again');
    for (const [i, id] of ids.entries()) expect((await c.snapshots.lease(id))!.epoch).toBe(epochs[i] + 1);
  });
});
