/**
 * An open request that reaches a worker after its deadline (OpenRoomRequest.deadline) takes nothing: the
 * matchmaker that sent it has timed out and may have sent the room to another worker, and a late lease
 * would move the table twice (fence the worker that took it in time).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { call, contract } from '@joke/protocol';
import { FakeClock } from '@joke/bus/clock';
import type { RoomWorker } from '../src/index.ts';
import { REPLY_MS, openRoom, seat, setup, worker } from './harness.ts';

describe('open requests past their deadline', () => {
  const started: RoomWorker[] = [];
  afterEach(async () => {
    for (const w of started.splice(0)) await w.close();
  });

  const spec = (roomId: string) => ({ roomId, game: 'race', options: {}, players: [seat('a'), seat('b')] });

  it('a create past its deadline is refused as expired and writes nothing; one in time opens the room', async () => {
    const { bus, store } = setup();
    const clock = new FakeClock(1_000_000);
    const w = await worker(bus, store, {}, undefined, clock);
    started.push(w);
    const open = contract.workerOpen.at(w.id);

    const late = await call(bus, open, { v: 1, roomId: 'r1', create: spec('r1'), deadline: 999_999 }, REPLY_MS);
    expect(late).toMatchObject({ ok: false, code: 'expired' });
    expect(await store.load('r1')).toBeNull();
    expect(await store.lease('r1')).toBeNull();

    const inTime = await call(bus, open, { v: 1, roomId: 'r1', create: spec('r1'), deadline: 1_000_000 }, REPLY_MS);
    expect(inTime).toMatchObject({ ok: true, epoch: 1 });
    expect(await store.lease('r1')).toMatchObject({ owner: w.id, epoch: 1 });
  });

  it('a restore past its deadline leaves the lease with its owner; one in time takes the next epoch', async () => {
    const { bus, store } = setup();
    const clock = new FakeClock(5_000_000);
    const a = await worker(bus, store, {}, undefined, clock);
    const b = await worker(bus, store, {}, undefined, clock);
    started.push(a, b);
    expect((await openRoom(bus, a.id, 'r2', [seat('a'), seat('b')])).ok).toBe(true);
    const open = contract.workerOpen.at(b.id);

    const late = await call(bus, open, { v: 1, roomId: 'r2', restore: true, deadline: 4_999_000 }, REPLY_MS);
    expect(late).toMatchObject({ ok: false, code: 'expired' });
    expect(await store.lease('r2')).toMatchObject({ owner: a.id, epoch: 1 });

    const inTime = await call(bus, open, { v: 1, roomId: 'r2', restore: true, deadline: 5_000_500 }, REPLY_MS);
    expect(inTime).toMatchObject({ ok: true, epoch: 2 });
    expect(await store.lease('r2')).toMatchObject({ owner: b.id, epoch: 2 });
  });
});
