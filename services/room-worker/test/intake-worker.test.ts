/**
 * Issue 37 item 4 through a whole worker (src/worker.ts, src/inbound.ts): while its room queues are past
 * INTAKE_DEFER_QUEUED, a new table's open and a viewer's join wait behind the queued commands of the table
 * already playing, are refused `capacity` once they waited INTAKE_DEFER_WAIT_MS, and start as soon as those
 * commands went; a restore (a table already playing) never waits. The backlog is made by holding a room
 * (its items queue unanswered, as after a bus cut) on fake time: no sleeps.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call, contract } from '@joke/protocol';
import { FakeClock } from '@joke/bus/clock';
import type { RoomWorker } from '../src/index.ts';
import { REPLY_MS, openRoom, seat, setup, worker } from './harness.ts';

describe('priority intake in a worker', () => {
  const started: RoomWorker[] = [];
  afterEach(async () => {
    for (const w of started.splice(0)) await w.close();
  });

  it('defers opens and joins behind the playing tables’ commands, refuses them capacity after the wait', async () => {
    const { bus, store } = setup();
    const clock = new FakeClock(1_000_000);
    const w = await worker(
      bus,
      store,
      { intakeDeferQueued: 2, intakeDeferMax: 8, intakeDeferWaitMs: 1_000 },
      undefined,
      clock,
    );
    started.push(w);
    expect((await openRoom(bus, w.id, 'r1', [seat('a'), seat('b')])).ok).toBe(true);
    const playing = w.room('r1')!;
    playing.hold();
    const answered: string[] = [];
    for (let i = 0; i < 3; i++)
      playing.enqueue({
        kind: 'cmd',
        cmd: { v: 1, userId: 'a', actionId: `x${i}`, action: { type: 'noop' }, gatewayId: 'g', at: clock.now() },
        respond: () => void answered.push(`x${i}`),
        at: performance.now(),
      });
    expect(playing.queued).toBe(3);

    const spec = (roomId: string) => ({ roomId, game: 'race', options: {}, players: [seat('c'), seat('d')] });
    const settled: string[] = [];
    const open2 = call(bus, contract.workerOpen.at(w.id), { v: 1, roomId: 'r2', create: spec('r2') }, REPLY_MS).then(
      (r) => (settled.push('r2'), r),
    );
    const join = call(
      bus,
      contract.roomJoin.at('r1'),
      { v: 1, userId: 'watcher', spectate: true, gatewayId: 'g' },
      REPLY_MS,
    ).then((r) => (settled.push('join'), r));
    await clock.advance(999);
    expect(settled).toEqual([]);
    expect(await store.lease('r2')).toBeNull();
    await clock.advance(1);
    expect(await open2).toMatchObject({ ok: false, code: 'capacity' });
    expect(await join).toMatchObject({ ok: false, code: 'capacity' });
    expect(await store.lease('r2')).toBeNull();

    // Deferred again; the commands go (the room is answered again) and the open starts right after them.
    const open3 = call(bus, contract.workerOpen.at(w.id), { v: 1, roomId: 'r3', create: spec('r3') }, REPLY_MS);
    await clock.advance(10);
    expect(await store.lease('r3')).toBeNull();
    playing.unhold();
    expect(await open3).toMatchObject({ ok: true, epoch: 1 });
    expect(answered).toEqual(['x0', 'x1', 'x2']);

    const text = await w.registry.getSingleMetricAsString('joke_worker_intake_deferred_total');
    expect(text).toContain('kind="open",outcome="refused"} 1');
    expect(text).toContain('kind="join",outcome="refused"} 1');
    expect(text).toContain('kind="open",outcome="started"} 1');
  });

  it('a restore is a table already playing: it does not wait behind the backlog', async () => {
    const { bus, store } = setup();
    const clock = new FakeClock(2_000_000);
    const a = await worker(bus, store, {}, undefined, clock);
    const b = await worker(bus, store, { intakeDeferQueued: 1, intakeDeferWaitMs: 60_000 }, undefined, clock);
    started.push(a, b);
    expect((await openRoom(bus, a.id, 'm1', [seat('a'), seat('b')])).ok).toBe(true);
    expect((await openRoom(bus, b.id, 'busy', [seat('c'), seat('d')])).ok).toBe(true);
    const held = b.room('busy')!;
    held.hold();
    for (let i = 0; i < 2; i++)
      held.enqueue({
        kind: 'cmd',
        cmd: { v: 1, userId: 'c', actionId: `y${i}`, action: { type: 'noop' }, gatewayId: 'g', at: clock.now() },
        respond: () => {},
        at: performance.now(),
      });
    const restored = await call(bus, contract.workerOpen.at(b.id), { v: 1, roomId: 'm1', restore: true }, REPLY_MS);
    expect(restored).toMatchObject({ ok: true, epoch: 2 });
  });
});
