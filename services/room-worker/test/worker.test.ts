/**
 * Room worker semantics on the in-process bus and memory store (the same code
 * runs over NATS and Redis; the multi-process tests in services/platform cover that).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { verifyRecord, type GameRecord } from '@joke/engine';
import { contract, listen } from '@joke/protocol';
import { BusTimeoutError } from '@joke/bus';
import { type SnapshotStore, type SnapshotWrite, type WriteResult } from '@joke/stores';
import { FakeClock } from '@joke/bus/clock';
import { raceGame, raceState } from './fixtures/race-game.ts';
import {
  advanceUntil,
  FakeGateway,
  openRoom,
  parseFrame,
  restoreRoom as restoreRoomOn,
  seat,
  setup,
  sleep,
  storedRoom,
  until,
  worker,
} from './harness.ts';
import type { RoomWorker } from '../src/index.ts';

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** A worker on a fresh bus and store; on `clock`'s time when given (fake-time tests), else on real timers. */
async function env(cfg = {}, clock?: FakeClock) {
  const { bus, store } = setup();
  const w = await worker(bus, store, cfg, undefined, clock);
  cleanup.push(
    () => bus.close(),
    () => w.close(),
  );
  return { bus, store, w };
}

const stateOf = (store: SnapshotStore, roomId: string) => storedRoom(store, roomId);

describe('room worker', () => {
  it('creates a room from a RoomSpec and refuses bad specs with Korean reasons', async () => {
    const { bus, w } = await env();
    expect(await openRoom(bus, w.id, 'r1', [seat('a'), seat('b')])).toEqual({ ok: true, epoch: 1, seq: 0 });
    // Idempotent: asking again finds the room.
    expect((await openRoom(bus, w.id, 'r1', [seat('a'), seat('b')])).ok).toBe(true);
    const unknown = await openRoom(bus, w.id, 'r2', [seat('a')], {}, 'nope');
    expect(unknown).toEqual({ ok: false, code: 'unknownGame', reason: '알 수 없는 게임이에요' });
    const dup = await openRoom(bus, w.id, 'r3', [seat('a'), seat('a')]);
    expect(dup.reason).toBe('같은 참가자가 두 번 들어 있어요');
    const badOpt = await openRoom(bus, w.id, 'r4', [seat('a')], { target: 'x' });
    expect(badOpt.ok).toBe(false);
    expect(w.roomIds()).toEqual(['r1']);
  });

  it('joins players with their own view and spectators with the public one', async () => {
    const { bus, w } = await env();
    await openRoom(bus, w.id, 'r', [seat('a'), seat('b')]);
    const gw = new FakeGateway(bus, 'gw1');
    const a = await gw.join('r', 'a');
    expect(a.role).toBe('player');
    expect(a.view.t).toBe('view');
    expect(typeof a.view.view.mySecret).toBe('number');
    const spec = await gw.join('r', 'stranger');
    expect(spec.role).toBe('spectator');
    expect(spec.view.view.mySecret).toBeNull();
    const aAsSpectator = await gw.join('r', 'a', true);
    expect(aAsSpectator.role).toBe('spectator');
    expect(a.view.presence).toEqual([
      { id: 'a', connected: true, away: false, bot: false },
      { id: 'b', connected: false, away: false, bot: false },
    ]);
  });

  it('persists the snapshot BEFORE it acknowledges an action or publishes a view', async () => {
    const { bus, store } = setup();
    const order: string[] = [];
    const slow: SnapshotStore = Object.create(store);
    slow.write = async (roomId: string, epoch: number, owner: string, wr: SnapshotWrite, ttl: number) => {
      await sleep(30);
      const r: WriteResult = await store.write(roomId, epoch, owner, wr, ttl);
      order.push(`write:${wr.seq}`);
      return r;
    };
    const w = await worker(bus, slow);
    cleanup.push(
      () => bus.close(),
      () => w.close(),
    );
    await openRoom(bus, w.id, 'r', [seat('a'), seat('b')]);
    const gw = new FakeGateway(bus, 'gw1');
    listen(bus, contract.gatewayDeliver.at('gw1'), (d) => order.push(`view:${d.seq}`));
    const j = await gw.join('r', 'a');
    await gw.join('r', 'b');
    const first = j.view.view.current as string;
    const reply = await gw.act('r', first, 'x1', { type: 'add', n: 2 });
    order.push(`ack:${reply.seq}`);
    await until(() => order.includes(`view:${reply.seq}`));
    const i = order.indexOf(`write:${reply.seq}`);
    expect(i).toBeGreaterThanOrEqual(0);
    expect(order.indexOf(`view:${reply.seq}`)).toBeGreaterThan(i);
    expect(order.indexOf(`ack:${reply.seq}`)).toBeGreaterThan(i);
    const saved = await stateOf(store, 'r');
    expect(raceState(saved!.data.state).total).toBe(2);
    expect(saved?.steps.at(-1)).toMatchObject({ s: reply.seq, a: first, x: { type: 'add', n: 2 }, i: 'x1' });
  });

  it('answers a repeated (userId, actionId) with the same reply without applying it again', async () => {
    const { bus, store, w } = await env();
    await openRoom(bus, w.id, 'r', [seat('a'), seat('b')]);
    const gw = new FakeGateway(bus, 'gw1');
    const first = (await gw.join('r', 'a')).view.view.current;
    const r1 = await gw.act('r', first, 'same', { type: 'add', n: 1 });
    const r2 = await gw.act('r', first, 'same', { type: 'add', n: 1 });
    expect(r1).toEqual({ ok: true, seq: r1.seq });
    expect(r2).toEqual(r1);
    expect(raceState((await stateOf(store, 'r'))!.data.state).total).toBe(1);
    // A different actionId is a new action (and now it is not this player's turn).
    const r3 = await gw.act('r', first, 'other', { type: 'add', n: 1 });
    expect(r3).toEqual({ ok: false, code: 'illegal', reason: '지금은 내 차례가 아니에요' });
  });

  it("rejects with the engine's Korean reason and leaves the state untouched", async () => {
    const { bus, store, w } = await env();
    await openRoom(bus, w.id, 'r', [seat('a'), seat('b')]);
    const gw = new FakeGateway(bus, 'gw1');
    const first = (await gw.join('r', 'a')).view.view.current;
    const other = first === 'a' ? 'b' : 'a';
    const before = await stateOf(store, 'r');
    expect(await gw.act('r', other, 'x', { type: 'add', n: 1 })).toEqual({
      ok: false,
      code: 'illegal',
      reason: '지금은 내 차례가 아니에요',
    });
    expect(await gw.act('r', first, 'y', { type: 'add', n: 3 })).toEqual({
      ok: false,
      code: 'illegal',
      reason: '잘못된 요청이에요',
    });
    expect(await gw.act('r', 'intruder', 'z', null)).toEqual({
      ok: false,
      code: 'illegal',
      reason: '이 게임의 참가자가 아니에요',
    });
    expect(await stateOf(store, 'r')).toEqual(before);
  });

  it('publishes one Delivery per gateway holding only the frames of the viewers it hosts', async () => {
    const { bus, w } = await env();
    await openRoom(bus, w.id, 'r', [seat('a'), seat('b')]);
    const g1 = new FakeGateway(bus, 'g1');
    const g2 = new FakeGateway(bus, 'g2');
    const g3 = new FakeGateway(bus, 'g3');
    const first = (await g1.join('r', 'a')).view.view.current;
    await g1.join('r', 's1', true);
    await g1.join('r', 's2', true);
    await g2.join('r', 'b');
    await g2.barrier('r', 'b'); // the presence frames of those joins have arrived
    g1.deliveries = [];
    g2.deliveries = [];
    const ack = await g1.act('r', first, 'x', { type: 'add', n: 1 });
    await g1.barrier('r', 'a'); // anything else published for that action has arrived too
    expect(g1.deliveries).toHaveLength(1);
    expect(g2.deliveries).toHaveLength(1);
    expect(g3.deliveries).toHaveLength(0);
    expect(g1.deliveries[0].seq).toBe(ack.seq);
    // g1: player a + ONE spectator frame for both of its spectators; g2: player b only.
    expect(g1.deliveries[0].frames.map((f) => f.viewer).sort()).toEqual(['a', null].sort());
    expect(g2.deliveries[0].frames.map((f) => f.viewer)).toEqual(['b']);
    const aFrame = g1.last('r', 'a')!;
    const bFrame = g2.last('r', 'b')!;
    const spec = g1.last('r', null)!;
    expect(aFrame.view.mySecret).not.toBeNull();
    expect(bFrame.view.mySecret).not.toBe(aFrame.view.mySecret === null ? 0 : undefined);
    expect(spec.view.mySecret).toBeNull();
    // The actor's private event part reaches only the actor.
    const ev = (f: any) => f.events.find((e: any) => e.type === 'added');
    if (first === 'a') {
      expect(ev(aFrame).secret).toBe(aFrame.view.mySecret);
      expect(ev(bFrame).secret).toBeUndefined();
    } else {
      expect(ev(bFrame).secret).toBe(bFrame.view.mySecret);
      expect(ev(aFrame).secret).toBeUndefined();
    }
    expect(ev(spec).secret).toBeUndefined();
  });

  it('runs deadlines from the game state and marks a seat away after 3 timeouts in a row', async () => {
    const clock = new FakeClock();
    const { bus, store, w } = await env({}, clock);
    const t0 = clock.now();
    await openRoom(bus, w.id, 'r', [seat('a'), seat('b')], { turnMs: 40, target: 1000 });
    const gw = new FakeGateway(bus, 'gw1');
    const joined = await gw.join('r', 'a');
    await clock.advance(39);
    await gw.barrier('r', 'a');
    expect((await stateOf(store, 'r'))!.steps).toEqual([]);
    await advanceUntil(clock, () => (gw.last('r', 'a')?.view.total ?? 0) >= 6, 1000, 'six timeouts');
    const last = gw.last('r', 'a')!;
    expect(gw.presenceOf('r', 'a')!.every((p: any) => p.away)).toBe(true);
    // Not before the third: after two timeouts each, nobody was away yet (the last list held at four).
    const frames = gw.frames('r', 'a');
    const heldAtFour = frames
      .slice(0, frames.findIndex((f) => f.view.total === 4) + 1)
      .reduce<any[]>((held, f) => f.presence ?? held, joined.view.presence);
    expect(heldAtFour.some((p: any) => p.away)).toBe(false);
    const steps = (await stateOf(store, 'r'))!.steps;
    expect(steps.slice(0, 6).every((s: any) => s.t === 1)).toBe(true);
    // Each at its deadline, 40 ms of game time after the turn began (the previous timeout).
    expect(steps.slice(0, 6).map((s: any) => s.n - t0)).toEqual([40, 80, 120, 160, 200, 240]);
    // Acting clears it.
    const cur = last.view.current;
    if (cur === 'a') {
      const r = await gw.act('r', 'a', 'back', { type: 'add', n: 1 });
      expect(r.ok).toBe(true);
      await until(() => gw.presenceOf('r', 'a')!.find((p: any) => p.id === 'a').away === false);
    }
  });

  it('bot seats play on their own views to the end; RoomFinished carries a record that verifies', async () => {
    const { bus, w } = await env({ finishedLingerMs: 60_000 });
    const finished: any[] = [];
    listen(bus, contract.roomFinished, (m) => finished.push(m));
    await openRoom(bus, w.id, 'r', [seat('bot1', true), seat('bot2', true), seat('bot3', true)], { target: 30 });
    await until(() => finished.length === 1, 5000, 'RoomFinished');
    const f = finished[0];
    expect(f).toMatchObject({ v: 1, roomId: 'r', game: 'race', mode: 'classic' });
    expect(f.players.map((p: any) => p.bot)).toEqual([true, true, true]);
    const record = f.record as GameRecord;
    expect(record.seed).toMatch(/^[0-9a-f]{64}$/);
    expect(record.actions.length).toBeGreaterThanOrEqual(15);
    const v = verifyRecord(raceGame, record);
    expect(v.problems).toEqual([]);
    expect(v.ok).toBe(true);
    expect(f.result.winners).toHaveLength(1);
    // Late viewers still get the final view with the result.
    const gw = new FakeGateway(bus, 'late');
    const j = await gw.join('r', 'someone');
    expect(j.view.result.winners).toEqual(f.result.winners);
    // Commands after the end are refused.
    expect(await gw.act('r', 'bot1', 'x', { type: 'add', n: 1 })).toEqual({
      ok: false,
      code: 'botSeat',
      reason: '봇 자리는 조작할 수 없어요',
    });
  });

  it('uses a fresh seed per room', async () => {
    const { bus, store, w } = await env();
    await openRoom(bus, w.id, 'r1', [seat('a')]);
    await openRoom(bus, w.id, 'r2', [seat('a')]);
    const s1 = (await stateOf(store, 'r1'))!.data.state.seed;
    const s2 = (await stateOf(store, 'r2'))!.data.state.seed;
    expect(s1).toMatch(/^[0-9a-f]{64}$/);
    expect(s1).not.toBe(s2);
  });

  it('drops a finished room after the linger time; then nobody answers for it', async () => {
    const clock = new FakeClock();
    const { bus, store, w } = await env({ finishedLingerMs: 100 }, clock);
    await openRoom(bus, w.id, 'r', [seat('bot1', true)], { target: 3 });
    await advanceUntil(clock, () => w.room('r')?.finished === true, 1000, 'the bot finished', 1);
    const finishedAt = w.room('r')!.data.finishedAt!;
    await clock.advanceTo(finishedAt + 99);
    expect(w.roomIds()).toEqual(['r']);
    await clock.advance(1);
    await until(() => w.roomIds().length === 0, 3000, 'room dropped');
    expect(await store.load('r')).toBeNull();
    const gw = new FakeGateway(bus, 'gw');
    await expect(gw.join('r', 'x', false, 2000)).rejects.toBeInstanceOf(BusTimeoutError);
  });

  it('marks disconnected players and tells the table; the game goes on by its timers', async () => {
    const clock = new FakeClock();
    const { bus, w } = await env({}, clock);
    await openRoom(bus, w.id, 'r', [seat('a'), seat('b')], { turnMs: 100, target: 1000 });
    const g1 = new FakeGateway(bus, 'g1');
    const g2 = new FakeGateway(bus, 'g2');
    await g1.join('r', 'a');
    await g2.join('r', 'b');
    g2.presence('r', 'b', false);
    await until(() => g1.deliveries.some((d) => d.frames.some((f) => parseFrame(f).t === 'presence')));
    const p = g1.deliveries.map((d) => parseFrame(d.frames[0])).find((f) => f.t === 'presence')!;
    expect(p.presence!.find((e: any) => e.id === 'b').connected).toBe(false);
    // b gets no frames while disconnected: counted from here, while the timers play two transitions.
    const bFrames = g2.frames('r', 'b').length;
    const seqBefore = g1.last('r', 'a')?.seq ?? 0;
    // Two turn deadlines (100 ms each) on fake time: not one before the first is due.
    await clock.advance(99);
    await g1.barrier('r', 'a');
    expect(g1.last('r', 'a')?.seq ?? 0).toBe(seqBefore);
    await advanceUntil(clock, () => (g1.last('r', 'a')?.seq ?? 0) > seqBefore + 1, 1000, 'timers keep playing');
    await g1.barrier('r', 'a');
    expect(g2.frames('r', 'b').length).toBe(bFrames);
  });

  it('refuses commands beyond the bounded per-room queue with a Korean "busy"', async () => {
    const { bus, store } = setup();
    // Writes are held (not slowed by a guessed delay) from the first command on, until the 7 "busy" came back.
    let held: Promise<void> | null = null;
    let release = () => {};
    const slow: SnapshotStore = Object.create(store);
    slow.write = async (...args: Parameters<SnapshotStore['write']>) => {
      if (held) await held;
      return store.write(...args);
    };
    const w = await worker(bus, slow, { queueMax: 4, batchMax: 1 });
    cleanup.push(
      () => bus.close(),
      () => w.close(),
      () => release(), // cleanups run in reverse: a failed test's held write goes on before the worker closes
    );
    await openRoom(bus, w.id, 'r', [seat('a'), seat('b')], { target: 1000 });
    const gw = new FakeGateway(bus, 'gw');
    const first = (await gw.join('r', 'a')).view.view.current as string;
    held = new Promise<void>((r) => (release = r));
    let busy = 0;
    const pending = Array.from({ length: 12 }, (_, i) =>
      gw.act('r', first, `f${i}`, { type: 'add', n: 1 }).then((r) => {
        if (!r.ok && r.code === 'busy') busy++;
        return r;
      }),
    );
    // The first (legal) command is in its held write and 4 wait in the queue: the other 7 are refused at once.
    await until(() => busy >= 7, 5000, 'the commands beyond the queue refused');
    release();
    const replies = await Promise.all(pending);
    expect(replies.filter((r) => !r.ok && r.code === 'busy').length).toBe(7);
    expect(replies.find((r) => !r.ok && r.code === 'busy')?.reason).toMatch(/바빠요/);
  });
});

describe('ownership', () => {
  let w1: RoomWorker;
  let w2: RoomWorker;
  it('a restore takes the room at the next epoch; the old owner is fenced out and lets go', async () => {
    const { bus, store } = setup();
    w1 = await worker(bus, store, { workerId: 'w1' });
    w2 = await worker(bus, store, { workerId: 'w2' });
    cleanup.push(
      () => bus.close(),
      () => w1.close(),
      () => w2.close(),
    );
    await openRoom(bus, 'w1', 'r', [seat('a'), seat('b')], { target: 1000 });
    const gw = new FakeGateway(bus, 'gw');
    const first = (await gw.join('r', 'a')).view.view.current;
    const r1 = await gw.act('r', first, 'before', { type: 'add', n: 2 });
    expect(r1.ok).toBe(true);
    // w2 takes over while w1 is still running (e.g. a matchmaker wrongly presumed it dead).
    const open = await restoreRoomOn(bus, 'w2', 'r');
    expect(open).toEqual({ ok: true, epoch: 2, seq: r1.seq });
    expect(await store.lease('r')).toEqual({ owner: 'w2', epoch: 2 });
    // The retried command is answered from the restored record, not applied twice.
    expect(await gw.act('r', first, 'before', { type: 'add', n: 2 })).toEqual(r1);
    const second = first === 'a' ? 'b' : 'a';
    const r2 = await gw.act('r', second, 'after', { type: 'add', n: 1 });
    expect(r2).toEqual({ ok: true, seq: r1.seq! + 1 });
    // w1 learns it lost the room at its next write (the deadline timer) or lease renewal at the latest.
    await until(() => w1.roomIds().length === 0, 20_000, 'w1 lets go');
    expect(raceState((await storedRoom(store, 'r'))!.data.state).total).toBe(3);
    expect((await store.load('r'))!.epoch).toBe(2);
  }, 30_000);
});
