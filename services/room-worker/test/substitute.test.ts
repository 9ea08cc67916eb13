/**
 * The engine's optional runtime hooks, through a real worker on the in-process
 * bus and memory store (as in worker.test.ts), with 훌라 — the game that has
 * them: the AI substitute for disconnected players (hula §8.6) and the action
 * fields only the runtime may set.
 */
import { describe, expect, it, type TestContext } from 'vitest';
import { games as engineGames, verifyRecord, type AnyGame } from '@joke/engine';
import { contract, listen } from '@joke/protocol';
import type { SnapshotStore, SnapshotWrite } from '@joke/stores';
import { FakeClock } from '@joke/bus/clock';
import { raceGame } from './fixtures/race-game.ts';
import {
  advanceUntil,
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

/**
 * A bus, a store whose writes are logged into `order`, and a fresh worker whose timers run on `clock`
 * (fake time: nothing here waits for a real substitute delay); all closed after the test.
 */
async function env({ onTestFinished }: TestContext, order: string[] = [], g = games, clock = new FakeClock()) {
  const { bus, store } = setup();
  const logged: SnapshotStore = Object.create(store);
  logged.write = async (roomId: string, epoch: number, owner: string, wr: SnapshotWrite, ttl: number) => {
    const r = await store.write(roomId, epoch, owner, wr, ttl);
    if (r === 'ok') order.push(`write:${wr.seq}`);
    return r;
  };
  const w = await worker(bus, logged, {}, g, clock);
  onTestFinished(async () => {
    await w.close();
    await bus.close();
  });
  return { bus, store, w, order, clock };
}

const seatOf = (snap: { data: { seats: { id: string; disconnectedSince?: number | null }[] } }, id: string) =>
  snap.data.seats.find((s) => s.id === id)!;

const load = async (store: SnapshotStore, roomId: string) => {
  const r = await storedRoom(store, roomId, games);
  if (!r) throw new Error(`no snapshot for ${roomId}`);
  return r;
};

/** Opens a 2-player 괴물 훌라 room, joins both players, returns whose draw it is and the other one. */
async function table(bus: Parameters<typeof openRoom>[0], workerId: string, roomId: string, gw: FakeGateway) {
  expect((await openRoom(bus, workerId, roomId, [seat('a'), seat('b')], { mode: 'monster' }, 'hula')).ok).toBe(true);
  const a = await gw.join(roomId, 'a');
  await gw.join(roomId, 'b');
  expect(a.view.view.phase.kind).toBe('draw');
  const first: string = a.view.view.phase.player;
  return { first, other: first === 'a' ? 'b' : 'a' };
}

describe('runtime-only action fields', () => {
  it('a client action carrying `substitute` or `auto` is refused in Korean and the room is untouched', async (ctx) => {
    const { bus, store, w } = await env(ctx);
    const gw = new FakeGateway(bus, 'gw');
    const { first, other } = await table(bus, w.id, 'h', gw);
    const before = await load(store, 'h');
    const refused = [
      { type: 'draw', from: 'stock', substitute: true },
      { type: 'draw', from: 'stock', substitute: false },
      { type: 'discard', cardId: 'S13', substitute: true },
      { type: 'reserveLeave', on: true, auto: true },
    ];
    for (const [i, action] of refused.entries())
      expect(await gw.act('h', first, `bad${i}`, action)).toEqual({
        ok: false,
        code: 'malformed',
        reason: '잘못된 요청이에요',
      });
    expect(await gw.act('h', other, 'bad-other', { type: 'reserveLeave', on: true, auto: false })).toEqual({
      ok: false,
      code: 'malformed',
      reason: '잘못된 요청이에요',
    });
    expect(await load(store, 'h')).toEqual(before);
    expect(w.room('h')!.seq).toBe(before.seq);
    // The same moves without the markers are ordinary client actions.
    expect(await gw.act('h', first, 'good', { type: 'draw', from: 'stock' })).toEqual({
      ok: true,
      seq: before.seq + 1,
    });
    expect(await gw.act('h', other, 'leave', { type: 'reserveLeave', on: true })).toEqual({
      ok: true,
      seq: before.seq + 2,
    });
  });
});

/** The race fixture with a substitute that moves whoever is to play 30 ms into their turn, logging whom it was asked for. */
function substitutedRace(move: { type: 'add'; n: 1 } | null) {
  const asked: string[] = [];
  const game: AnyGame = {
    ...raceGame,
    substitute: {
      due: (s: any, p: string) => (s.winner === null && s.players[s.current].id === p ? s.turnStartedAt + 30 : null),
      action: (_s: unknown, p: string) => {
        asked.push(p);
        return move;
      },
    },
  };
  return { game, asked };
}

describe('substitute timers', () => {
  it('a due time that yields no move is not retried in a loop', async (ctx) => {
    const { game, asked } = substitutedRace(null);
    const { bus, w, clock } = await env(ctx, [], { race: game });
    await openRoom(bus, w.id, 'r', [seat('a'), seat('b')], { target: 100 });
    await clock.advance(29);
    expect(asked).toEqual([]);
    await clock.advance(1);
    await until(() => asked.length > 0, 5000, 'the substitute asked');
    // Ten times its delay later it has still been asked once: the fired due time is not re-armed.
    await clock.advance(300);
    expect(asked).toHaveLength(1);
  });

  it('bot seats play for themselves and are never substituted; disconnected humans are, to the end', async (ctx) => {
    const { game, asked } = substitutedRace({ type: 'add', n: 1 });
    const { bus, w, clock } = await env(ctx, [], { race: game });
    const finished: any[] = [];
    listen(bus, contract.roomFinished, (m) => finished.push(m));
    await openRoom(bus, w.id, 'r', [seat('bot1', true), seat('a'), seat('b')], { target: 9 });
    await advanceUntil(clock, () => finished.length === 1, 5000, 'RoomFinished');
    expect(new Set(asked)).toEqual(new Set(['a', 'b']));
    const { record } = finished[0];
    expect(record.actions.filter((x: any) => x.actor === 'a' || x.actor === 'b').length).toBe(asked.length);
    expect(verifyRecord(game, record).problems).toEqual([]);
  });
});

// hula's 5 s substitute delay passes on fake time: each case moves the clock to just before `due`, checks
// nothing moved yet, then on past it.
describe('AI substitute for disconnected players (hula §8.6)', () => {
  it('moves a disconnected player at `due` through the room queue: written before published, recorded, replayable', async (ctx) => {
    const { bus, store, w, order, clock } = await env(ctx);
    const gw = new FakeGateway(bus, 'gw');
    listen(bus, contract.gatewayDeliver.at('gw'), (d) => order.push(`view:${d.seq}`));
    const { first, other } = await table(bus, w.id, 'h', gw);
    // Transitions while everyone is connected: no substitute timer is left over from before the joins,
    // so only the disconnection itself can arm one.
    expect((await gw.act('h', other, 'l1', { type: 'reserveLeave', on: true })).ok).toBe(true);
    expect((await gw.act('h', other, 'l2', { type: 'reserveLeave', on: false })).ok).toBe(true);
    const start = await load(store, 'h');
    const due = hula.substitute!.due(start.data.state, first)!;
    expect(due).toBeGreaterThan(clock.now());
    gw.presence('h', first, false);
    await until(
      async () => seatOf(await load(store, 'h'), first).disconnectedSince != null,
      5000,
      'disconnect written',
    );
    await clock.advanceTo(due - 1);
    expect((await load(store, 'h')).steps.filter((s) => s.a === first)).toEqual([]);
    await advanceUntil(
      clock,
      async () => (await load(store, 'h')).steps.some((s) => s.a === first && s.x?.type === 'discard'),
      2000,
      'the substitute draw and discard',
    );
    const { steps, data } = await load(store, 'h');
    const mine = steps.filter((s) => s.a === first);
    expect(mine[0].n).toBe(due);
    expect(mine.map((s) => s.x)).toEqual([
      { type: 'draw', from: 'stock', substitute: true },
      { type: 'discard', cardId: expect.any(String), substitute: true },
    ]);
    for (const s of mine) {
      expect(s.n).toBeGreaterThanOrEqual(due);
      expect(s.i).toBeUndefined();
      // Snapshot first, then the views.
      expect(order.indexOf(`write:${s.s}`)).toBeGreaterThanOrEqual(0);
      expect(order.indexOf(`view:${s.s}`)).toBeGreaterThan(order.indexOf(`write:${s.s}`));
    }
    expect(gw.frames('h', other).some((f) => f.seq === mine[1].s)).toBe(true);
    expect(gw.frames('h', first).some((f) => f.seq >= mine[0].s)).toBe(false);
    // Substitute moves are not the player's own: no timeout count reset, no 자리 비움 cleared, shown disconnected.
    expect(data.seats.find((s: { id: string }) => s.id === first)).toMatchObject({ away: false, timeouts: 0 });
    expect(gw.presenceOf('h', other)!.find((p) => p.id === first)).toMatchObject({ connected: false });
    const v = verifyRecord(hula, w.room('h')!.record());
    expect(v.problems).toEqual([]);
    expect(v.steps).toBe(steps.length);
  }, 20_000);

  it('stops substituting when the player reconnects', async (ctx) => {
    const { bus, store, w, clock } = await env(ctx);
    const gw = new FakeGateway(bus, 'gw');
    const { first } = await table(bus, w.id, 'h', gw);
    const due = hula.substitute!.due((await load(store, 'h')).data.state, first)!;
    gw.presence('h', first, false);
    // The room has counted the seat as disconnected (and written it) before the player comes back.
    await until(
      async () => seatOf(await load(store, 'h'), first).disconnectedSince != null,
      5000,
      'the seat marked disconnected',
    );
    await clock.advanceTo(due - 100);
    expect((await gw.join('h', first)).ok).toBe(true);
    await clock.advanceTo(due + 700);
    await gw.barrier('h', first); // whatever the timers queued has been handled and written
    expect((await load(store, 'h')).steps.filter((s) => s.a === first)).toEqual([]);
    expect(await gw.act('h', first, 'mine', { type: 'draw', from: 'stock' })).toMatchObject({ ok: true });
  }, 20_000);

  it('re-arms after a takeover: the new owner moves the disconnected player', async (ctx) => {
    const { bus, store, w, clock } = await env(ctx);
    const w2 = await worker(bus, store, {}, games, clock);
    ctx.onTestFinished(() => w2.close());
    const gw = new FakeGateway(bus, 'gw');
    const { first } = await table(bus, w.id, 'h', gw);
    gw.presence('h', first, false);
    await until(
      async () => (await load(store, 'h')).data.viewers.some((v: any) => v.userId === first && !v.connected),
      2000,
      'disconnect persisted',
    );
    await w.close(); // the old owner dies before the move is due
    const open = await restoreRoomOn(bus, w2.id, 'h');
    expect(open).toMatchObject({ ok: true, epoch: 2 });
    const due = hula.substitute!.due((await load(store, 'h')).data.state, first)!;
    await clock.advanceTo(due - 1);
    expect((await load(store, 'h')).steps.filter((s) => s.a === first)).toEqual([]);
    await advanceUntil(
      clock,
      async () => (await load(store, 'h')).steps.some((s) => s.a === first),
      2000,
      'substitute after restore',
    );
    const saved = await store.load('h');
    expect(saved!.epoch).toBe(2);
    expect(verifyRecord(hula, w2.room('h')!.record()).ok).toBe(true);
  }, 20_000);
});
