/**
 * hula §8.6 "away 60 s → leave reserved" through a real worker (in-process bus,
 * memory store): the worker keeps each human seat's `disconnectedSince` in the
 * snapshot, and the game's substitute turns it into an automatic reservation.
 * The worker has no clock to inject and the 60 s is the game's rule, so the
 * elapsed time is produced by a takeover of a snapshot whose clock started
 * 61 s ago — exactly what a new owner sees when a player vanished long before.
 */
import { describe, expect, it, type TestContext } from 'vitest';
import { games as engineGames, verifyRecord, type AnyGame, type GameStateBase, type GameTypes } from '@joke/engine';
import { contract, listen } from '@joke/protocol';
import { encodeSnapshot } from '../src/snapshot.ts';
import { roomFromStore } from '../src/stored-room.ts';
import type { Bus } from '@joke/bus';
import type { SnapshotStore } from '@joke/stores';
import {
  FakeGateway,
  openRoom,
  restoreRoom as restoreRoomOn,
  seat,
  setup,
  storedRoom,
  until,
  worker,
} from './harness.ts';

const hula = engineGames.hula;
const games: Record<string, AnyGame> = { hula };
const AUTO_LEAVE = { type: 'reserveLeave', on: true, auto: true };

async function env({ onTestFinished }: TestContext) {
  const { bus, store } = setup();
  const w = await worker(bus, store, {}, games);
  const w2 = await worker(bus, store, {}, games);
  onTestFinished(async () => {
    await w.close();
    await w2.close();
    await bus.close();
  });
  return { bus, store, w, w2 };
}

const load = async (store: SnapshotStore, roomId: string) => {
  const r = await storedRoom(store, roomId, games);
  if (!r) throw new Error(`no snapshot for ${roomId}`);
  return r;
};

/** A stored room's state (the fields every game shares) read as the hula game's it is. */
const hulaState = (state: GameStateBase) => state as GameTypes['hula']['state'];

const since = (data: any, id: string): number | null | undefined =>
  data.seats.find((s: { id: string }) => s.id === id)?.disconnectedSince;

async function restore(bus: Bus, workerId: string, roomId: string) {
  return restoreRoomOn(bus, workerId, roomId);
}

/** A 2-player 괴물 훌라 room on `workerId` with a bot-free table; both players joined. */
async function table(bus: Bus, workerId: string, roomId: string, gw: FakeGateway) {
  expect((await openRoom(bus, workerId, roomId, [seat('a'), seat('b')], { mode: 'monster' }, 'hula')).ok).toBe(true);
  const a = await gw.join(roomId, 'a');
  await gw.join(roomId, 'b');
  const first: string = a.view.view.phase.player;
  return { first, other: first === 'a' ? 'b' : 'a' };
}

describe.concurrent('hula §8.6 — disconnection clock and automatic leave in the worker', () => {
  it('disconnectedSince starts at creation, stops on join, restarts on disconnect, and survives a takeover', async (ctx) => {
    const { bus, store, w, w2 } = await env(ctx);
    const gw = new FakeGateway(bus, 'gw');
    const t0 = Date.now();
    expect(
      (await openRoom(bus, w.id, 'h', [seat('a'), seat('b'), seat('bot', true)], { mode: 'monster' }, 'hula')).ok,
    ).toBe(true);
    const created = await load(store, 'h');
    expect(since(created.data, 'a')).toBe(created.data.startedAt);
    expect(since(created.data, 'b')).toBe(created.data.startedAt);
    expect(since(created.data, 'bot')).toBeNull();
    await gw.join('h', 'a');
    await gw.join('h', 'b');
    const joined = await load(store, 'h');
    expect(since(joined.data, 'a')).toBeNull();
    expect(since(joined.data, 'b')).toBeNull();

    const t1 = Date.now();
    gw.presence('h', 'a', false);
    await until(async () => typeof since((await load(store, 'h')).data, 'a') === 'number', 2000, 'clock started');
    const lost = since((await load(store, 'h')).data, 'a')!;
    expect(lost).toBeGreaterThanOrEqual(t1);
    expect(lost).toBeLessThanOrEqual(Date.now());
    expect(since((await load(store, 'h')).data, 'b')).toBeNull();
    // Coming back stops it; going again starts a new one.
    await gw.join('h', 'a');
    expect(since((await load(store, 'h')).data, 'a')).toBeNull();
    gw.presence('h', 'a', false);
    await until(async () => typeof since((await load(store, 'h')).data, 'a') === 'number', 2000, 'clock restarted');
    const lostAgain = since((await load(store, 'h')).data, 'a')!;
    expect(lostAgain).toBeGreaterThanOrEqual(lost);

    await w.close();
    expect(await restore(bus, w2.id, 'h')).toMatchObject({ ok: true, epoch: 2 });
    const room = w2.room('h')!;
    expect(since(room.data, 'a')).toBe(lostAgain);
    expect(since(room.data, 'b')).toBeNull();
    // Later writes by the new owner keep the original clock (not "disconnected since the takeover").
    gw.presence('h', 'b', false);
    await until(async () => typeof since((await load(store, 'h')).data, 'b') === 'number', 2000, 'b disconnected');
    const after = await load(store, 'h');
    expect(since(after.data, 'a')).toBe(lostAgain);
    expect(after.data.startedAt).toBeGreaterThanOrEqual(t0);
  });

  it('a seat away 60 s gets `reserveLeave auto` from the substitute: once, recorded, written before published, replayable', async (ctx) => {
    const { bus, store, w, w2 } = await env(ctx);
    const gw = new FakeGateway(bus, 'gw');
    const order: string[] = [];
    listen(bus, contract.gatewayDeliver.at('gw'), (d) => order.push(`view:${d.seq}`));
    const { first, other } = await table(bus, w.id, 'h', gw);
    // `other` (not on turn) vanishes; the owner dies before anything is due.
    gw.presence('h', other, false);
    await until(async () => typeof since((await load(store, 'h')).data, other) === 'number', 2000, 'clock started');
    await w.close();
    // Wind the stored clock back past the game's 60 s, as if the player had been gone that long.
    const edit = await store.acquire('h', 'editor', 5000);
    const restored = roomFromStore(edit!.room, games);
    if (!restored.ok) throw new Error(restored.problem);
    const { data } = restored;
    const longAgo = Date.now() - 61_000;
    data.seats.find((s: { id: string }) => s.id === other)!.disconnectedSince = longAgo;
    const ack = await store.write(
      'h',
      edit!.epoch,
      'editor',
      { seq: edit!.room.seq + 1, data: encodeSnapshot(data, edit!.room.seq + 1), steps: [] },
      5000,
    );
    expect(ack).toBe('ok');
    await store.release('h', 'editor', edit!.epoch);
    expect(hula.substitute!.due(data.state, other, longAgo)).toBeLessThanOrEqual(Date.now());
    expect(hula.substitute!.due(data.state, other)).toBeNull();

    const t = Date.now();
    expect(await restore(bus, w2.id, 'h')).toMatchObject({ ok: true, epoch: 3 });
    await until(async () => (await load(store, 'h')).steps.some((s) => s.a === other), 3000, 'automatic leave');
    const { steps, data: saved } = await load(store, 'h');
    const leaves = steps.filter((s) => s.a === other);
    expect(leaves).toHaveLength(1);
    expect(leaves[0].x).toEqual(AUTO_LEAVE);
    expect(leaves[0].i).toBeUndefined();
    expect(leaves[0].n).toBeGreaterThanOrEqual(t);
    expect(hulaState(saved.state).seats.find((s) => s.id === other)!.leave).toBe('disconnected');
    expect(since(saved, other)).toBe(longAgo);
    // The views went out after the write that holds the step.
    await until(() => order.includes(`view:${leaves[0].s}`), 2000, 'published');
    const leaveView = gw.frames('h', first).find((f) => f.seq === leaves[0].s)!;
    expect(leaveView.events).toContainEqual({ type: 'leaveReserved', player: other, reason: 'disconnected' });
    expect(leaveView.view.seats.find((s: { id: string }) => s.id === other).leaveReserved).toBe(true);

    // Not again: the connected player plays on, and no second reservation is made.
    expect((await gw.act('h', first, 'd1', { type: 'draw', from: 'stock' })).ok).toBe(true);
    const after = await load(store, 'h');
    expect(after.steps.filter((s) => s.a === other && s.x?.type === 'reserveLeave')).toHaveLength(1);
    const v = verifyRecord(hula, w2.room('h')!.record());
    expect(v.problems).toEqual([]);
    expect(v.steps).toBe(after.steps.length);
  });

  it('a player who comes back before 60 s has the clock cleared and nothing is reserved for them', async (ctx) => {
    const { bus, store, w } = await env(ctx);
    const gw = new FakeGateway(bus, 'gw');
    const { first, other } = await table(bus, w.id, 'h', gw);
    gw.presence('h', other, false);
    await until(async () => typeof since((await load(store, 'h')).data, other) === 'number', 2000, 'clock started');
    expect((await gw.join('h', other)).ok).toBe(true);
    const back = await load(store, 'h');
    expect(since(back.data, other)).toBeNull();
    expect(hula.substitute!.due(back.data.state, other, since(back.data, other))).toBeNull();
    expect((await gw.act('h', first, 'd1', { type: 'draw', from: 'stock' })).ok).toBe(true);
    const { steps, data } = await load(store, 'h');
    expect(steps.filter((s) => s.a === other)).toEqual([]);
    expect(hulaState(data.state).seats.find((s) => s.id === other)!.leave).toBeNull();
  });
});
