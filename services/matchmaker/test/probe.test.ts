/**
 * Death noticed from the bus (probe.ts): a worker whose subscription is gone
 * is failed over long before its heartbeats could be missed, and a worker that
 * is on the bus but slow to answer is not.
 */
import { describe, expect, it } from 'vitest';
import { BusNoRespondersError, InProcessBus, MemoryMatchStore, MemorySnapshotStore, type Wire } from '@joke/bus';
import { subjects, wireText } from '@joke/protocol';
import { startRoomWorker, type RoomWorker } from '@joke/room-worker';
import { startMatchmaker, type FailoverReport } from '../src/index.ts';
import { cleanupAfterEach, games, log, until } from './helpers.ts';

const cleanup = cleanupAfterEach();
/** Heartbeats alone would take a minute: anything sooner came from the probe. */
const HEARTBEAT_ONLY_DEATH_MS = 60_000;

/** A bus on which a worker can be cut off from the matchmakers' pings while it goes on running (a false alarm). */
class CuttableBus extends InProcessBus {
  readonly cut = new Set<string>();
  override request(subject: string, data: Wire, timeoutMs: number): Promise<Wire> {
    for (const w of this.cut)
      if (subject === subjects.workerPing(w)) return Promise.reject(new BusNoRespondersError(subject));
    return super.request(subject, data, timeoutMs);
  }
}

async function setUp(workerCfg = {}, mmCfg = {}) {
  const bus = new CuttableBus();
  const snapshots = new MemorySnapshotStore();
  const match = new MemoryMatchStore();
  const workers: RoomWorker[] = [];
  for (let i = 0; i < 2; i++)
    workers.push(
      await startRoomWorker(
        { workerId: `w${i}`, shard: i, heartbeatMs: 50, botDelayMs: 0, botJitterMs: 0, ...workerCfg },
        { bus, store: snapshots, games, log },
      ),
    );
  const mm = await startMatchmaker(
    { matchmakerId: 'mm1', deadAfterMs: HEARTBEAT_ONLY_DEATH_MS, probeMs: 20, probeTimeoutMs: 200, ...mmCfg },
    { bus, snapshots, match, games, log },
  );
  cleanup.push(async () => {
    await mm.close();
    for (const w of workers) await w.close();
    await bus.close();
  });
  await until(() => mm.liveWorkers().length === 2, 20_000, 'heartbeats');
  return { bus, snapshots, workers, mm };
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
const fakeHeartbeat = (bus: CuttableBus, workerId: string) =>
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
      at: Date.now(),
      incarnation: 'i1',
    }),
  );

describe('failover from the bus (worker ping)', () => {
  it('a worker gone from the bus is failed over at once, not after DEAD_AFTER_MS', async () => {
    const c = await setUp();
    const reports: FailoverReport[] = [];
    c.mm.onFailover((r) => reports.push(r));
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) if ((await create(c.bus, `p${i}`)).workerId === 'w0') ids.push(`p${i}`);
    expect(ids.length).toBeGreaterThan(0);
    const epochs = await Promise.all(ids.map(async (id) => (await c.snapshots.lease(id))!.epoch));
    const t0 = Date.now();
    await c.workers[0].close(); // its subscriptions leave the bus, as when the process dies
    await until(() => reports.length === 1, 30_000, 'failover');
    expect(Date.now() - t0).toBeLessThan(HEARTBEAT_ONLY_DEATH_MS / 2);
    expect(reports[0]).toMatchObject({ workerId: 'w0', rooms: ids.length, restored: ids.length, failed: 0 });
    for (const [i, id] of ids.entries()) {
      expect(c.workers[1].roomIds()).toContain(id);
      // One restore, one new writer: the lease moved exactly one epoch on.
      expect(await c.snapshots.lease(id)).toEqual({ owner: 'w1', epoch: epochs[i] + 1 });
    }
    expect(c.mm.liveWorkers().map((w) => w.workerId)).toEqual(['w1']);
  });

  it('a worker that is on the bus but does not answer its pings is not failed over', async () => {
    const c = await setUp();
    const reports: FailoverReport[] = [];
    c.mm.onFailover((r) => reports.push(r));
    // A stuck worker: it heartbeats, and its ping subject has a subscriber that never answers.
    let pings = 0;
    const sub = c.bus.subscribe(subjects.workerPing('stuck'), () => pings++);
    const beat = () => fakeHeartbeat(c.bus, 'stuck');
    beat();
    await until(() => c.mm.liveWorkers().some((w) => w.workerId === 'stuck'), 20_000, 'stuck worker seen');
    // Several pings timed out (200 ms each) while it stayed silent.
    await until(() => pings >= 8, 30_000, 'pings to the stuck worker');
    expect(reports).toEqual([]);
    expect(c.mm.liveWorkers().some((w) => w.workerId === 'stuck')).toBe(true);
    // And once its subscription is gone too, the probe does declare it dead.
    sub.unsubscribe();
    await until(() => !c.mm.liveWorkers().some((w) => w.workerId === 'stuck'), 30_000, 'stuck worker dropped');
    await until(() => reports.some((r) => r.workerId === 'stuck'), 30_000, 'failover of the stuck worker');
  });

  it('a worker that was slow to answer and then dies is noticed at the next ping, not when the unanswered ones time out', async () => {
    // The unanswered pings would take a minute to time out: a detection within the wait below came from a new
    // ping sent while they were still pending (a cap of 4 in flight used to hold every new ping back).
    const c = await setUp({}, { probeTimeoutMs: 60_000 });
    const reports: FailoverReport[] = [];
    c.mm.onFailover((r) => reports.push(r));
    let pings = 0;
    // Swallowed, never answered: the worker is alive but too busy to reply (a loaded box).
    const sub = c.bus.subscribe(subjects.workerPing('slow'), () => pings++);
    fakeHeartbeat(c.bus, 'slow');
    await until(() => c.mm.liveWorkers().some((w) => w.workerId === 'slow'), 20_000, 'slow worker seen');
    await until(() => pings >= 10, 30_000, 'pings piling up unanswered');
    // Its process dies: the server forgets the subscription, the next ping hears "no responders".
    sub.unsubscribe();
    await until(() => reports.some((r) => r.workerId === 'slow'), 30_000, 'failover of the slow worker');
    expect(c.mm.liveWorkers().some((w) => w.workerId === 'slow')).toBe(false);
  });

  it('a false alarm (the worker is alive but looked gone) is safe: its tables get one new writer and it lets them go', async () => {
    const c = await setUp({ leaseTtlMs: 1_000, leaseRenewMs: 200 });
    const reports: FailoverReport[] = [];
    c.mm.onFailover((r) => reports.push(r));
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) if ((await create(c.bus, `fa${i}`)).workerId === 'w0') ids.push(`fa${i}`);
    expect(ids.length).toBeGreaterThan(0);
    const epochs = await Promise.all(ids.map(async (id) => (await c.snapshots.lease(id))!.epoch));
    c.bus.cut.add('w0'); // as when w0's NATS node dies and w0 is still reconnecting
    await until(() => reports.length === 1, 30_000, 'failover of the cut-off worker');
    c.bus.cut.delete('w0');
    for (const [i, id] of ids.entries())
      expect(await c.snapshots.lease(id)).toEqual({ owner: 'w1', epoch: epochs[i] + 1 });
    // w0 still ran those tables; its next lease renewal is fenced and it drops them: one writer per table.
    await until(() => ids.every((id) => !c.workers[0].roomIds().includes(id)), 30_000, 'w0 letting go');
    for (const id of ids) expect(c.workers[1].roomIds()).toContain(id);
    // Its heartbeats bring it back as a live worker (with nothing of the failed-over tables).
    await until(() => c.mm.liveWorkers().some((w) => w.workerId === 'w0'), 30_000, 'w0 live again');
    for (const [i, id] of ids.entries()) expect((await c.snapshots.lease(id))!.epoch).toBe(epochs[i] + 1);
  });
});
