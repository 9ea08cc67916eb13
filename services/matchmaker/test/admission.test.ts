/**
 * Issue 37, admission: a worker with no headroom (here: at MAX_ROOMS) says so in its heartbeat, the
 * matchmaker places new tables only where there is headroom, and when the whole fleet is full a new table
 * is refused at once with code `capacity` and its Korean reason — not a timeout; a worker with room that
 * joins takes the next ones.
 */
import { describe, expect, it } from 'vitest';
import { InProcessBus } from '@joke/bus';
import { MemoryMatchStore, MemorySnapshotStore } from '@joke/stores';
import { FakeClock } from '@joke/bus/clock';
import { REFUSALS, subjects, wireText } from '@joke/protocol';
import { startRoomWorker, type RoomWorker } from '@joke/room-worker';
import { startMatchmaker } from '../src/index.ts';
import { advanceUntil, cleanupAfterEach, games, log } from './helpers.ts';

const cleanup = cleanupAfterEach();

describe('admission', () => {
  it('places only where there is headroom, and refuses with capacity when the fleet is full', async () => {
    const clock = new FakeClock();
    const bus = new InProcessBus();
    const snapshots = new MemorySnapshotStore(() => clock.now());
    const match = new MemoryMatchStore(() => clock.now());
    const workers: RoomWorker[] = [];
    for (let i = 0; i < 2; i++)
      workers.push(
        await startRoomWorker(
          { workerId: `w${i}`, shard: i, heartbeatMs: 50, maxRooms: 2, botDelayMs: 0, botJitterMs: 0 },
          { bus, store: snapshots, games, log, clock },
        ),
      );
    const mm = await startMatchmaker(
      { matchmakerId: 'mm1', deadAfterMs: 1_000, probeMs: 0 },
      { bus, snapshots, match, games, log, clock },
    );
    cleanup.push(async () => {
      await mm.close();
      for (const w of workers) await w.close();
      await bus.close();
    });
    await advanceUntil(clock, () => mm.liveWorkers().length === 2, 5_000, 'heartbeats');
    const create = async (roomId: string) =>
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
      ) as { ok: boolean; workerId?: string; code?: string; reason?: string };
    for (let i = 0; i < 4; i++) expect(await create(`a${i}`)).toMatchObject({ ok: true });
    // Heartbeats now say headroom 0 on both.
    await advanceUntil(clock, () => mm.liveWorkers().every((w) => w.headroom === 0), 1_000, 'full heartbeats');
    const refused = await create('a4');
    expect(refused).toEqual({ ok: false, code: 'capacity', reason: REFUSALS.capacity });
    expect(await snapshots.lease('a4')).toBeNull();
    // Even before a heartbeat tells it, a worker at its limit refuses, and all of them refusing is capacity too.
    for (const w of mm.liveWorkers()) w.headroom = undefined;
    expect(await create('a5')).toMatchObject({ ok: false, code: 'capacity' });
    // Their refusals count: neither is asked again before its next heartbeat says it has room.
    expect(mm.liveWorkers().map((w) => w.headroom)).toEqual([0, 0]);
    // A worker with room joins: new tables go there, and only there.
    workers.push(
      await startRoomWorker(
        { workerId: 'w2', shard: 2, heartbeatMs: 50, maxRooms: 2, botDelayMs: 0, botJitterMs: 0 },
        { bus, store: snapshots, games, log, clock },
      ),
    );
    await advanceUntil(clock, () => mm.liveWorkers().length === 3, 1_000, 'w2 heartbeats');
    for (const id of ['a6', 'a7']) expect(await create(id)).toMatchObject({ ok: true, workerId: 'w2' });
    expect(workers.map((w) => w.roomIds().length)).toEqual([2, 2, 2]);
  });
});
