/**
 * The gateway in front of a real room worker and matchmaker, over the real
 * NATS and Redis: what the worker answers reaches the right sockets, and no
 * client message — repeated, out of turn, forged or malformed — changes a
 * room in a way the game did not allow. A platform test: the stack it starts
 * (`startStack` of @joke/load-tests) is every realtime service, which the
 * gateway's own tests may not depend on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { games, simAdapters, Rng, verifyRecord, type GameRecord } from '@joke/engine';
import { contract, listen, subjects, wireText } from '@joke/protocol';
import type { Stack } from '@joke/load-tests';
import { findLeaks, findStateLeaks, hiddenSet } from '@joke/engine/sim/secrecy';
import type { TestClient } from '@joke/session/test-client';
import {
  createRoom as createRoomOn,
  joined as joinedAt,
  roomOf as roomOn,
  startOneWorkerStack,
} from './support/stack-room.ts';

const game = games['one-card'];
const adapter = simAdapters['one-card'];
let stack: Stack;
let url: string;

const createRoom = (roomId: string, players: { id: string; bot: boolean }[]) =>
  createRoomOn(stack.bus, { roomId, game: 'one-card', options: { mode: 'classic' }, players });
const roomOf = (roomId: string) => roomOn(stack.workers, roomId);
const stateJson = (roomId: string) => JSON.stringify(roomOf(roomId).data.state);
const joined = (userId: string, roomId: string, spectate = false) => joinedAt(url, userId, roomId, { spectate });
const lastView = (c: TestClient) => [...c.messages].reverse().find((m) => m.t === 'view');

beforeAll(async () => {
  stack = await startOneWorkerStack();
  url = stack.urls[0];
});

afterAll(async () => {
  await stack?.close();
});

describe('a two-player table behind the gateway', () => {
  const roomId = `duel-${Date.now().toString(36)}`;
  let alice: TestClient;
  let bob: TestClient;
  const rng = Rng.fromSeed('worker-test');

  /**
   * The room at rest as its players see it: both have the view of its current state (each test waits for
   * the acks of its own actions, so nothing of theirs is in flight; there are no bots here, and the turn
   * timer is 10 s or more), which is also what `mover()` decides from. Returns that state.
   */
  async function atRest(): Promise<string> {
    for (;;) {
      const seq = roomOf(roomId).data.state.seq;
      await Promise.all([alice, bob].map((c) => c.next((m) => m.t === 'view' && m.roomId === roomId && m.seq >= seq)));
      if (roomOf(roomId).data.state.seq === seq) return stateJson(roomId);
    }
  }

  /** The seated client whose policy has something to do now, with that action. */
  const mover = () => {
    for (const c of [alice, bob]) {
      const a = game.bot(lastView(c).view, rng);
      if (a) return { c, other: c === alice ? bob : alice, action: a };
    }
    throw new Error('nobody can move');
  };

  beforeAll(async () => {
    await createRoom(roomId, [
      { id: 'alice', bot: false },
      { id: 'bob', bot: false },
    ]);
    alice = await joined('alice', roomId);
    bob = await joined('bob', roomId);
    expect(lastView(alice).role).toBe('player');
    expect(lastView(alice).view.viewer).toBe('alice');
  });

  afterAll(async () => {
    await alice?.close();
    await bob?.close();
  });

  it('applies a duplicated actionId once and answers every copy with the same ack', async () => {
    await atRest();
    const { c, action } = mover();
    const before = roomOf(roomId).data.state.seq;
    const msg = { v: 1, t: 'action', roomId, actionId: 'dup-1', action };
    c.send(msg);
    c.send(msg);
    await c.next((m) => m.t === 'ack' && c.messages.filter((x) => x.actionId === 'dup-1').length === 2);
    // A copy sent after both answers (no pause needed: the room has already applied and remembered it).
    c.send(msg);
    await c.next((m) => m.t === 'ack' && c.messages.filter((x) => x.actionId === 'dup-1').length === 3);
    const acks = c.messages.filter((m) => m.actionId === 'dup-1');
    expect(acks.map((m) => m.t)).toEqual(['ack', 'ack', 'ack']);
    expect(new Set(acks.map((m) => m.seq)).size).toBe(1);
    expect(roomOf(roomId).data.state.seq).toBe(before + 1);
    // Both players got the view of that one transition.
    for (const p of [alice, bob]) await p.next((m) => m.t === 'view' && m.seq >= acks[0].seq);
  });

  it("takes an accepted action's frames from its reply: the ack right before the view, no separate delivery", async () => {
    await atRest();
    const { c, other, action } = mover();
    const delivered: number[] = [];
    const spy = listen(stack.bus, contract.gatewayDeliver.at(stack.gateways[0].gatewayId), (d) => {
      if (d.roomId === roomId) delivered.push(d.seq);
    });
    const from = c.messages.length;
    c.send({ v: 1, t: 'action', roomId, actionId: 'fold-1', action });
    const ack = await c.next((m) => m.t === 'ack' && m.actionId === 'fold-1');
    const view = await c.next((m) => m.t === 'view' && m.seq === ack.seq, 5000, from);
    const mine = c.messages.slice(from);
    expect(mine.indexOf(view)).toBe(mine.indexOf(ack) + 1);
    await other.next((m) => m.t === 'view' && m.seq === ack.seq);
    // One connection carries the worker's publishes and this flush: a delivery sent would be here by now.
    await stack.bus.flush?.();
    spy.unsubscribe();
    expect(delivered).not.toContain(ack.seq);
  });

  it('rejects an out-of-turn action with a Korean reason and leaves the state unchanged', async () => {
    const before = await atRest();
    const { other } = mover();
    const view = lastView(other).view;
    expect(game.bot(view, rng)).toBeNull();
    other.send({ v: 1, t: 'action', roomId, actionId: 'oot-1', action: { type: 'draw' } });
    const r = await other.next((m) => m.actionId === 'oot-1');
    expect(r.t).toBe('rejected');
    expect(r.reason).toMatch(/[가-힣]/);
    expect(stateJson(roomId)).toBe(before);
  });

  it('refuses any move chosen on an older view `stale` (not `illegal`, whoever sends it) and changes nothing', async () => {
    const before = await atRest();
    const seq: number = lastView(alice).seq;
    expect(seq).toBeGreaterThan(0);
    // Judged before the game is asked, so any move shows it; no policy call (the later tests' rng stays as it was).
    for (const [c, id] of [
      [alice, 'stale-a'],
      [bob, 'stale-b'],
    ] as const) {
      c.send({ v: 1, t: 'action', roomId, actionId: id, action: { type: 'draw' }, seq: seq - 1 });
      const r = await c.next((m) => m.actionId === id);
      expect(r).toMatchObject({ t: 'rejected', code: 'stale', reason: '이미 지난 화면에서 보낸 동작이에요' });
    }
    expect(stateJson(roomId)).toBe(before);
  });

  it('acts as the token user whatever the message claims: a forged player changes nothing', async () => {
    const before = await atRest();
    const { c, other, action } = mover();
    const seen: any[] = [];
    const spy = stack.bus.subscribe(subjects.roomCommand(roomId), (m) => seen.push(JSON.parse(wireText(m.data))));
    const victim = lastView(c).view.viewer;
    // The other player sends the mover's legal move, claiming to be the mover in every way a JSON body can.
    other.send(
      JSON.stringify({
        v: 1,
        t: 'action',
        roomId,
        actionId: 'forged-1',
        userId: victim,
        actor: victim,
        action: { ...action, userId: victim, actor: victim, player: victim },
      }),
    );
    const r = await other.next((m) => m.actionId === 'forged-1');
    spy.unsubscribe();
    expect(r.t).toBe('rejected');
    expect(seen.length).toBeGreaterThan(0);
    for (const cmd of seen) expect(cmd.userId).toBe(lastView(other).view.viewer);
    expect(stateJson(roomId)).toBe(before);
  });

  it('answers malformed, oversize and unknown messages and nonsense actions clearly, state unchanged', async () => {
    const before = await atRest();
    const { c } = mover();
    const from = c.messages.length;
    const bad: unknown[] = [
      '{"v":1,"t":"action"',
      { v: 9, t: 'action', roomId, actionId: 'b1', action: { type: 'draw' } },
      { v: 1, t: 'steal', roomId },
      JSON.stringify({ v: 1, t: 'action', roomId, actionId: 'b2', action: { type: 'play', pad: 'x'.repeat(5000) } }),
    ];
    for (const b of bad) c.send(b);
    const nonsense = [null, 'draw', 42, { type: 'teleport' }, { type: 'play', cardIds: ['no-such-card'] }, {}];
    nonsense.forEach((action, i) => c.send({ v: 1, t: 'action', roomId, actionId: `nonsense-${i}`, action }));
    for (let i = 0; i < nonsense.length; i++) {
      const r = await c.next((m) => m.actionId === `nonsense-${i}`, 5000, from);
      expect(r.t, JSON.stringify(nonsense[i])).toBe('rejected');
      expect(r.reason).toMatch(/[가-힣]/);
    }
    const errors = c.messages.slice(from).filter((m) => m.t === 'error');
    expect(errors.map((e) => e.code).sort()).toEqual(['malformed', 'malformed', 'tooLarge', 'versionMismatch']);
    for (const e of errors) expect(e.message).toMatch(/[가-힣]/);
    expect(stateJson(roomId)).toBe(before);
  });

  it('reconnect-and-resume: the seat shows disconnected, a new socket gets the latest view and plays on', async () => {
    await atRest();
    const seat = mover();
    const userId = lastView(seat.c).view.viewer as string;
    const watcher = seat.other;
    await seat.c.close();
    const gone = await watcher.next(
      (m) => (m.t === 'view' || m.t === 'presence') && m.presence?.some((p: any) => p.id === userId && !p.connected),
      5000,
    );
    expect(gone).toBeTruthy();
    const again = await joined(userId, roomId);
    const v = lastView(again);
    const room = roomOf(roomId);
    expect(v.view.seq).toBe(room.data.state.seq);
    expect(v.view.hand).toEqual(game.view(room.data.state, userId).hand);
    // The join reply carries the list; a later view leaves it out while it is unchanged.
    const held = [...again.messages].reverse().find((m) => m.t === 'view' && m.presence)!.presence;
    expect(held.find((p: any) => p.id === userId).connected).toBe(true);
    const action = game.bot(v.view, rng);
    expect(action).not.toBeNull();
    again.send({ v: 1, t: 'action', roomId, actionId: 'resumed-1', action });
    const ack = await again.next((m) => m.actionId === 'resumed-1');
    expect(ack.t).toBe('ack');
    await again.next((m) => m.t === 'view' && m.seq >= ack.seq);
    if (seat.c === alice) alice = again;
    else bob = again;
  });
});

describe('secrecy through the gateway', () => {
  it('a spectator (and a player) never receives a card hidden from them, over a whole game', async () => {
    const roomId = `watch-${Date.now().toString(36)}`;
    const finished = new Promise<GameRecord>((resolve) => {
      const s = stack.bus.subscribe(subjects.roomFinished, (m) => {
        const f = JSON.parse(wireText(m.data));
        if (f.roomId !== roomId) return;
        s.unsubscribe();
        resolve(f.record);
      });
    });
    await createRoom(roomId, [
      { id: 'hero', bot: false },
      { id: 'bot-1', bot: true },
      { id: 'bot-2', bot: true },
      { id: 'bot-3', bot: true },
    ]);
    const spectator = await joined('watcher', roomId);
    const hero = await joined('hero', roomId);
    const rng = Rng.fromSeed('hero');
    // The hero plays from its own view as soon as it may; the worker plays the bot seats.
    let acted = -1;
    let done = false;
    const played = (async () => {
      for (let i = 0; i < 5000 && !done; i++) {
        const v = lastView(hero);
        if (v.result !== undefined || v.view.finished) break;
        const a = v.seq > acted ? game.bot(v.view, rng) : null;
        if (a) {
          acted = v.seq;
          hero.send({ v: 1, t: 'action', roomId, actionId: `h${i}`, action: a });
          await hero.next((m) => m.actionId === `h${i}`, 15_000);
        } else {
          // Nothing to do on this view (not its turn, or its move is in): the next view says what changed.
          await hero.next((m) => m.t === 'view' && m.seq > v.seq, 60_000);
        }
      }
    })();
    const record = await finished;
    done = true;
    await played;
    await spectator.next((m) => m.t === 'view' && m.result !== undefined, 5000);
    expect(verifyRecord(game, record).ok).toBe(true);

    // Replay the record to know the exact state behind every frame (views carry the state's seq).
    const states = new Map<number, any>();
    let state = game.setup({
      seed: record.seed,
      players: record.players,
      options: game.optionsSchema.parse(record.options),
      now: record.startedAt,
    });
    states.set(state.seq, state);
    for (const step of record.actions) {
      const r =
        'timeout' in step ? game.onTimeout(state, step.now) : game.apply(state, step.actor, step.action, step.now);
      if (!r.ok) throw new Error(r.reason);
      state = r.state;
      states.set(state.seq, state);
    }
    const check = (c: TestClient, viewer: string | null) => {
      const frames = c.messages.filter((m) => m.t === 'view');
      expect(frames.length).toBeGreaterThan(10);
      // The join's reply carried the game's fixed view members. A later frame may carry them again — the
      // reply to a join the gateway retried on a loaded box does — but always the same ones. That no
      // delivered frame repeats them is the worker's to show (room-worker test/fixed-members.test.ts).
      expect(frames[0].fixed).toMatchObject({ game: 'one-card', options: { mode: 'classic' } });
      for (const f of frames.slice(1)) if (f.fixed !== undefined) expect(f.fixed).toEqual(frames[0].fixed);
      expect(c.fixedMissing).toEqual([]);
      for (const f of frames) {
        expect(f.role).toBe(viewer === null ? 'spectator' : 'player');
        expect(f.view.viewer).toBe(viewer);
        const s = states.get(f.view.seq);
        expect(s, `state ${f.view.seq}`).toBeDefined();
        const payload = { view: f.view, events: f.events };
        expect(findLeaks(adapter, hiddenSet(adapter, s, viewer), payload)).toEqual([]);
        expect(findStateLeaks(payload, record.seed, s.rng)).toEqual([]);
      }
    };
    check(spectator, null);
    check(hero, 'hero');
    await spectator.close();
    await hero.close();
  }, 90_000);
});
