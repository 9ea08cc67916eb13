/**
 * The incremental state encoder (src/state-json.ts) must write exactly what
 * JSON.stringify writes, for every state every game reaches — and its reuse
 * is only sound while no state is mutated after it was encoded, so the games
 * here run on deep-frozen states: an engine change that mutates in place
 * throws here instead of leaving a stale text in a snapshot.
 */
import { describe, expect, it } from 'vitest';
import { games, Rng, type AnyGame } from '@joke/engine';
import { StateJson } from '../src/state-json.ts';
import { SnapshotEncoder, decodeSnapshot } from '../src/snapshot.ts';
import type { RoomData } from '../src/room-types.ts';

function deepFreeze<T>(o: T): T {
  if (o !== null && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o as object)) deepFreeze(v);
  }
  return o;
}

/** Plays one game with the engine's bots (a timeout every few steps), calling `see` with every state. */
function play(game: AnyGame, seed: string, options: unknown, see: (state: unknown) => void): number {
  const rng = Rng.fromSeed(seed, 'test');
  const players = ['p1', 'p2', 'p3', 'p4'].map((id) => ({ id, name: id }));
  let state = deepFreeze(game.setup({ seed, players, options, now: 0 }));
  see(state);
  let steps = 0;
  for (let now = 1; steps < 400 && game.result(state) === null; now += 1000) {
    let next: unknown = null;
    if (steps % 7 === 6) {
      const deadline = game.deadline(state);
      const r = deadline === null ? null : game.onTimeout(state, deadline);
      if (r?.ok) next = r.state;
    }
    for (const p of players) {
      if (next !== null) break;
      const action = game.bot(game.view(state, p.id), rng);
      if (action === null) continue;
      const r = game.apply(state, p.id, action, now);
      if (r.ok) next = r.state;
    }
    if (next === null) break;
    state = deepFreeze(next);
    see(state);
    steps++;
  }
  return steps;
}

describe('StateJson', () => {
  const cases: [string, unknown][] = [
    ['one-card', { mode: 'classic' }],
    ['one-card', { mode: 'uno-style' }],
    ['hula', {}],
    ['poker', {}],
  ];
  for (const [name, raw] of cases)
    it(`writes JSON.stringify's text for every state of ${name} ${JSON.stringify(raw)} games`, () => {
      const game = games[name as keyof typeof games] as unknown as AnyGame;
      const options = game.optionsSchema.parse(raw);
      let steps = 0;
      for (let g = 0; g < 4; g++) {
        const enc = new StateJson();
        steps += play(game, `state-json-${name}-${g}`.padEnd(64, 'x'), options, (state) => {
          expect(enc.encode(state)).toBe(JSON.stringify(state));
          // The same state again (a write without a transition) gives the same text.
          expect(enc.encode(state)).toBe(JSON.stringify(state));
        });
      }
      expect(steps).toBeGreaterThan(50);
    });

  it('leaves out what JSON.stringify leaves out and keeps its member order', () => {
    const enc = new StateJson();
    const shared = { z: 1, 10: 'ten', 2: 'two', a: [1, undefined, () => 0] };
    const states: unknown[] = [
      { b: 1, a: undefined, f: () => 1, nested: { x: undefined, y: shared }, s: Symbol('s') },
      { b: 2, nested: { y: shared, w: new Date(0) }, k: Object.assign(Object.create(null), { q: '"\u2028' }) },
      { b: 2, nested: { y: { ...shared, z: 2 } }, j: { toJSON: () => 'J' } },
      { 'key "quoted"': '\ud800', nested: null, n: NaN, i: -0 },
      [1, { a: 1 }],
      'text',
      null,
      undefined,
    ];
    for (const s of states) expect(enc.encode(s)).toBe(JSON.stringify(s));
  });

  it('notices a member replaced by another object with the same text and one with a different text', () => {
    const enc = new StateJson();
    const hands = { p1: [1, 2], p2: [3] };
    expect(enc.encode({ hands, seq: 1 })).toBe('{"hands":{"p1":[1,2],"p2":[3]},"seq":1}');
    expect(enc.encode({ hands: { ...hands, p2: [] }, seq: 2 })).toBe('{"hands":{"p1":[1,2],"p2":[]},"seq":2}');
    expect(enc.encode({ hands: { p2: [4] }, seq: 3 })).toBe('{"hands":{"p2":[4]},"seq":3}');
  });
});

describe('SnapshotEncoder', () => {
  it('writes the v2 text with the state encoded as JSON.stringify does, and reads it back', () => {
    const game = games['one-card'] as unknown as AnyGame;
    const options = game.optionsSchema.parse({ mode: 'classic' });
    const data: RoomData = {
      v: 1,
      roomId: 'r1',
      game: 'one-card',
      mode: 'classic',
      options: { mode: 'classic' },
      startedAt: 0,
      state: null,
      seats: [],
      viewers: [],
      finishedAt: null,
      finishedPublished: false,
    };
    const enc = new SnapshotEncoder();
    play(game, 'snapshot-encoder'.padEnd(64, 'x'), options, (state) => {
      data.state = state;
      const text = enc.encode(data);
      const { state: _s, v: _v, ...meta } = data;
      expect(text).toBe(`{"v":2,"meta":${JSON.stringify(meta)},"state":${JSON.stringify(state)}}`);
      expect(decodeSnapshot(text)).toEqual(JSON.parse(JSON.stringify(data)));
    });
  });
});
