/**
 * The game's fixed view members (engine `viewParts.fixed`) travel as a view frame's `fixed`
 * member only to viewers that may not have them: every join reply (player or spectator), the
 * first frame to each viewer after a worker took the room over, and every frame of a transition
 * whose fixed members changed. Every other frame leaves them out. Played with the race fixture
 * given view parts: fixed = game, seedCommit, players (+ `era`, which the test game changes once
 * the total passes 5 to stand for a new game in the room). The presence list follows the same rule
 * (last describe): in every join reply and presence frame, in a view only while a viewer may lack it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyGame } from '@joke/engine';
import {
  FakeGateway,
  openRoom,
  parseFrame,
  restoreRoom,
  seat,
  setup,
  storedRoom,
  until,
  worker,
  type Frame,
} from './harness.ts';
import { raceGame, type RaceState } from './fixtures/race-game.ts';

const FIXED = ['game', 'seedCommit', 'players'];
const OWN = ['viewer', 'mySecret', 'canAdd'];
const pick = (v: object, keys: string[], keep: boolean) =>
  Object.fromEntries(Object.entries(v).filter(([k]) => keys.includes(k) === keep));
const era = (s: RaceState) => (s.options.target === 1000 && s.total > 5 ? 2 : 1);

function partsGame(eraChanges: boolean): AnyGame {
  const view = raceGame.view;
  return {
    ...raceGame,
    view: (s: RaceState, viewer: string | null) => ({ ...view(s, viewer), ...(eraChanges ? { era: era(s) } : {}) }),
    viewParts: {
      fixed: (s: RaceState) => ({ ...pick(view(s, null), FIXED, true), ...(eraChanges ? { era: era(s) } : {}) }),
      shared: (s: RaceState) => pick(view(s, null), [...FIXED, ...OWN], false),
      own: (s: RaceState, viewer: string | null) => pick(view(s, viewer), OWN, true),
    },
  } as unknown as AnyGame;
}

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function table(eraChanges = false) {
  const { bus, store } = setup();
  const games = { race: partsGame(eraChanges) };
  const w1 = await worker(bus, store, { workerId: 'w1' }, games);
  const w2 = await worker(bus, store, { workerId: 'w2' }, games);
  cleanup.push(
    () => bus.close(),
    () => w1.close(),
    () => w2.close(),
  );
  await openRoom(bus, 'w1', 'r', [seat('a'), seat('b')], { target: 1000 });
  const g1 = new FakeGateway(bus, 'g1');
  const g2 = new FakeGateway(bus, 'g2');
  return { bus, store, w1, w2, g1, g2, game: games.race };
}

/** `view` frames of one seq for every viewer that gateway got, by viewer (null = spectators). */
function framesAt(gw: FakeGateway, seq: number): Map<string | null, Frame & { fixed?: any }> {
  const out = new Map<string | null, Frame>();
  for (const d of gw.deliveries)
    if (d.seq === seq) for (const f of d.frames) if (f.kind === 'view') out.set(f.viewer, parseFrame(f));
  return out;
}

/** One move by whoever's turn it is (the other's try is refused), then a barrier on a player's join. */
async function actOnce(gw: FakeGateway, n: 1 | 2, id: string) {
  let r = await gw.act('r', 'a', id, { type: 'add', n });
  if (!r.ok) r = await gw.act('r', 'b', id, { type: 'add', n });
  expect(r.ok).toBe(true);
  await gw.barrier('r', 'a');
  return r.seq!;
}

describe('fixed view members', () => {
  it("a join reply carries them; the same viewer's next frames leave them out", async () => {
    const { g1, game, store } = await table();
    const a = await g1.join('r', 'a');
    const s = await g1.join('r', 's', true);
    await g1.join('r', 'b');
    for (const r of [a, s]) {
      expect(r.view.fixed).toEqual({ game: 'one-card', seedCommit: expect.any(String), players: expect.any(Array) });
      // The frame's view with the fixed members is the whole view.
      const state = (await storedRoom(store, 'r'))!.data.state;
      expect({ ...r.view.fixed, ...r.view.view }).toEqual(
        JSON.parse(JSON.stringify(game.view(state, r.role === 'player' ? 'a' : null))),
      );
    }
    // A frame's view without `fixed`: the fixed members come last in the frame, after the presence list.
    expect(a.frame.indexOf('"fixed":')).toBeGreaterThan(a.frame.indexOf('"presence":'));
    for (let i = 0; i < 3; i++) {
      const seq = await actOnce(g1, 1, `x${i}`);
      const frames = framesAt(g1, seq);
      expect([...frames.keys()].sort()).toEqual([null, 'a', 'b'].sort());
      for (const f of frames.values()) expect(f).not.toHaveProperty('fixed');
    }
    // Nothing of it in the snapshot.
    expect(JSON.stringify((await storedRoom(store, 'r'))!.data)).not.toContain('"fixed"');
  });

  it('a viewer joining later gets them in its reply, on another gateway too; the others do not get them again', async () => {
    const { g1, g2 } = await table();
    await g1.join('r', 'a');
    await g1.join('r', 's', true);
    await actOnce(g1, 1, 'x1');
    const b = await g2.join('r', 'b');
    const t = await g2.join('r', 't', true);
    expect(b.view.fixed).toBeDefined();
    expect(t.view.fixed).toBeDefined();
    const seq = await actOnce(g1, 1, 'x2');
    await g2.barrier('r', 't', true);
    for (const gw of [g1, g2]) for (const f of framesAt(gw, seq).values()) expect(f).not.toHaveProperty('fixed');
  });

  it('the shared spectator frame carries them only while a connected spectator lacks them', async () => {
    const { g1 } = await table();
    await g1.join('r', 'a');
    await g1.join('r', 's', true);
    // A spectator whose socket was gone and came back (presence) without a join: the next frame carries them.
    g1.presence('r', 's', false);
    await g1.barrier('r', 'a');
    g1.presence('r', 's', true);
    await g1.barrier('r', 'a');
    const seq = await actOnce(g1, 1, 'x1');
    expect(framesAt(g1, seq).get(null)!.fixed).toBeDefined();
    expect(framesAt(g1, seq).get('a')).not.toHaveProperty('fixed');
    const next = await actOnce(g1, 1, 'x2');
    expect(framesAt(g1, next).get(null)).not.toHaveProperty('fixed');
  });

  it("a spectator joining in the batch of a command whose frames ride on its reply: only the join's reply carries them", async () => {
    const { w1, g1 } = await table();
    const a = await g1.join('r', 'a');
    await g1.join('r', 'b');
    await g1.join('r', 's', true);
    const current: string = a.view.view.current;
    // Both items wait in the held room's queue, so that one batch takes them: the join, then the command,
    // whose frames for this gateway are built before any reply (they travel as the command's reply).
    const room = w1.room('r')!;
    room.hold();
    const joining = g1.join('r', 't', true);
    const acting = g1.act('r', current, 'x1', { type: 'add', n: 1 }, true);
    await until(() => room.queued === 2, 10_000, 'the join and the command queued');
    room.unhold();
    const [t, r] = await Promise.all([joining, acting]);
    expect(t.view.fixed).toBeDefined();
    expect(r.ok).toBe(true);
    expect(t.seq).toBe(r.seq);
    const folded = r.delivery!.frames.map(parseFrame);
    expect(folded.map((f) => f.view.viewer).sort()).toEqual([null, 'a', 'b'].sort());
    for (const f of folded) expect(f).not.toHaveProperty('fixed');
    // Nobody's presence changed, and t's reply carries the list: no frame of the batch carries it.
    for (const f of folded) expect(f).not.toHaveProperty('presence');
  });

  it("after a failover the new owner's first frame to every viewer carries them, and only that one", async () => {
    const { bus, g1, g2 } = await table();
    await g1.join('r', 'a');
    await g1.join('r', 's', true);
    await g2.join('r', 'b');
    await actOnce(g1, 1, 'x1');
    const open = await restoreRoom(bus, 'w2', 'r');
    expect(open).toMatchObject({ ok: true, epoch: 2 });
    // The republished views (the first frames from w2) at the restored seq.
    const first = framesAt(g1, open.seq!);
    await g2.barrier('r', 'b');
    const firstG2 = framesAt(g2, open.seq!);
    const republished = [...g1.deliveries, ...g2.deliveries].filter(
      (d) => d.seq === open.seq && d.owner.startsWith('w2'),
    );
    expect(republished.length).toBeGreaterThan(0);
    for (const d of republished)
      for (const f of d.frames) if (f.kind === 'view') expect(parseFrame(f)).toHaveProperty('fixed');
    expect(first.size + firstG2.size).toBeGreaterThan(0);
    const seq = await actOnce(g1, 2, 'x2');
    await g2.barrier('r', 'b');
    const after = [...framesAt(g1, seq).values(), ...framesAt(g2, seq).values()];
    expect(after.length).toBe(3);
    for (const f of after) expect(f).not.toHaveProperty('fixed');
    // The presence list: a gateway may have dropped the republished views (their seq was not new to its
    // sockets), so the first frame after them carries it once more to a viewer that has not joined since
    // (a and the spectator; b joined again, as a barrier, and its reply carried it), the next ones do not.
    expect(framesAt(g1, seq).get(null)).toHaveProperty('presence');
    expect(framesAt(g1, seq).get('a')).toHaveProperty('presence');
    expect(framesAt(g2, seq).get('b')).not.toHaveProperty('presence');
    const next = await actOnce(g1, 1, 'x3');
    await g2.barrier('r', 'b');
    const later = [...framesAt(g1, next).values(), ...framesAt(g2, next).values()];
    expect(later.length).toBe(3);
    for (const f of later) expect(f).not.toHaveProperty('presence');
  });

  it('when the fixed members change (a new game), every frame of that transition carries the new ones', async () => {
    const { g1, g2 } = await table(true);
    await g1.join('r', 'a');
    await g1.join('r', 's', true);
    await g2.join('r', 'b');
    let changed = false;
    for (let i = 0; i < 8; i++) {
      const seq = await actOnce(g1, 1, `x${i}`);
      await g2.barrier('r', 'b');
      const frames = [...framesAt(g1, seq).values(), ...framesAt(g2, seq).values()];
      expect(frames.length).toBe(3);
      const eraNow = frames[0].view.total > 5 ? 2 : 1;
      const carried = frames.filter((f) => f.fixed !== undefined);
      if (eraNow === 2 && !changed) {
        changed = true;
        expect(carried.length).toBe(3);
        for (const f of carried) expect(f.fixed.era).toBe(2);
      } else expect(carried).toEqual([]);
    }
    expect(changed).toBe(true);
  });
});

/**
 * What a client holds of the presence list after these frames of one viewer, as the gateway passes them on
 * (services/gateway core.ts sendView): its join reply's list, then each later view's and presence frame's.
 */
function heldPresence(gw: FakeGateway, viewer: string | null, reply: { seq: number; view: Frame }): any[] {
  let held = reply.view.presence!;
  let lastSeq = reply.seq;
  for (const d of gw.deliveries)
    for (const f of d.frames) {
      if (d.roomId !== 'r' || f.viewer !== viewer) continue;
      if (f.kind === 'view' ? d.seq <= lastSeq : d.seq < lastSeq) continue;
      if (f.kind === 'view') lastSeq = d.seq;
      held = parseFrame(f).presence ?? held;
    }
  return held;
}

describe('the presence list in view frames', () => {
  it('goes in join replies and presence frames, and in a view only to a viewer that may lack it', async () => {
    const { w1, g1 } = await table();
    const a = await g1.join('r', 'a');
    const s = await g1.join('r', 's', true);
    await g1.join('r', 'b');
    expect(a.view.presence).toHaveLength(2);
    expect(s.view.presence).toHaveLength(2);
    for (const f of framesAt(g1, await actOnce(g1, 1, 'x1')).values()) expect(f).not.toHaveProperty('presence');
    // b's socket goes: a presence frame tells a and the spectators; the views after it leave it out again.
    g1.presence('r', 'b', false);
    await g1.barrier('r', 'a');
    const seq = await actOnce(g1, 1, 'x2');
    expect([...framesAt(g1, seq).keys()].sort()).toEqual([null, 'a'].sort());
    for (const f of framesAt(g1, seq).values()) expect(f).not.toHaveProperty('presence');
    const current = JSON.parse(JSON.stringify(w1.room('r')!.presence()));
    expect(current.find((p: any) => p.id === 'b').connected).toBe(false);
    expect(g1.presenceOf('r', 'a')).toEqual(current);
    expect(g1.presenceOf('r', null)).toEqual(current);
    // b comes back without a join: whatever it gets next holds the list as it is now.
    g1.presence('r', 'b', true);
    await g1.barrier('r', 'a');
    await actOnce(g1, 1, 'x3');
    const back = JSON.parse(JSON.stringify(w1.room('r')!.presence()));
    expect(back.every((p: any) => p.connected)).toBe(true);
    for (const viewer of ['a', 'b', null]) expect(g1.presenceOf('r', viewer)).toEqual(back);
  });

  it("a player back in the batch of a command whose frames ride on its reply holds the room's list after the next move", async () => {
    const { w1, g1 } = await table();
    const a = await g1.join('r', 'a');
    await g1.join('r', 'b');
    g1.presence('r', 'b', false);
    await g1.barrier('r', 'a');
    const current: string = a.view.view.current;
    const room = w1.room('r')!;
    room.hold();
    // b joins again (its socket is back) in the same batch as a move: its reply may be at that move's seq,
    // and then the gateway drops the move's view for b.
    const joining = g1.join('r', 'b');
    const acting = g1.act('r', current, 'x1', { type: 'add', n: 1 }, true);
    await until(() => room.queued === 2, 10_000, 'the join and the command queued');
    room.unhold();
    const [b, r] = await Promise.all([joining, acting]);
    expect(r.ok).toBe(true);
    // The frames that rode on the reply are the gateway's too.
    g1.deliveries.push(r.delivery!);
    await actOnce(g1, 1, 'x2');
    const now = JSON.parse(JSON.stringify(room.presence()));
    expect(now.every((p: any) => p.connected)).toBe(true);
    expect(heldPresence(g1, 'b', b)).toEqual(now);
    expect(heldPresence(g1, 'a', a)).toEqual(now);
  });
});
