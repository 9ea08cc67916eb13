/**
 * The reused-member encoders must write exactly what JSON.stringify writes, for
 * every game and mode: each view of each transition (viewers sharing members),
 * each transition's events as each viewer sees them, and the state of every
 * write (members the move did not replace reused from the previous state).
 */
import { describe, expect, it } from 'vitest';
import { games, Rng } from '@joke/engine';
import { ChangedMembers, SharedMembers } from '../src/shared-json.ts';

const SEATS = 4;
const STEPS = 120;

function play(gameId: string, mode: string, seed: string): { checked: number } {
  const game = games[gameId];
  const rng = Rng.fromSeed(seed);
  const range = game.playerRange(game.optionsSchema.parse({ mode }));
  const n = Math.max(range.min, Math.min(SEATS, range.max));
  const players = Array.from({ length: n }, (_, i) => ({ id: `p${i}`, name: `플레이어 ${i}` }));
  const options = game.optionsSchema.parse({ mode });
  let state = game.setup({ seed: seed.padEnd(64, '0'), players, options, now: 0 });
  const snapshot = new ChangedMembers();
  const shared = new SharedMembers();
  const viewers: (string | null)[] = [...players.map((p) => p.id), null];
  let now = 0;
  let checked = 0;
  expect(snapshot.stringify(state)).toBe(JSON.stringify(state));
  for (let step = 0; step < STEPS && game.result(state) === null; step++) {
    now += 1000;
    let moved: { state: unknown; events: unknown[] } | null = null;
    for (const p of players) {
      const action = game.bot(game.view(state, p.id), rng);
      if (action === null) continue;
      const r = game.apply(state, p.id, action, now);
      if (r.ok) {
        moved = r;
        break;
      }
    }
    if (moved === null) {
      const deadline = game.deadline(state);
      if (deadline === null) break;
      now = Math.max(now, deadline);
      const r = game.onTimeout(state, now);
      if (!r.ok) break;
      moved = r;
    }
    state = moved.state as typeof state;
    for (const v of viewers) {
      const view = game.view(state, v);
      expect(shared.stringify(view)).toBe(JSON.stringify(view));
      const events = (moved.events as Parameters<typeof game.eventView>[0][])
        .map((e) => game.eventView(e, v))
        .filter((e) => e !== null);
      expect(shared.stringifyList(events)).toBe(JSON.stringify(events));
    }
    shared.clear();
    expect(snapshot.stringify(state)).toBe(JSON.stringify(state));
    checked++;
  }
  return { checked };
}

describe('shared-json encoders write exactly JSON.stringify', () => {
  for (const [id, game] of Object.entries(games))
    for (const { id: mode } of game.modes)
      it(`${id} ${mode}`, () => {
        let checked = 0;
        for (const seed of ['a1', 'b2']) checked += play(id, mode, seed).checked;
        expect(checked).toBeGreaterThan(10);
      }, 120_000);

  it('omits undefined members and writes non-finite numbers as null, as JSON.stringify does', () => {
    const shared = new SharedMembers();
    const snapshot = new ChangedMembers();
    const inner = { a: [1, undefined, () => 1], b: undefined };
    const odd = { x: undefined, y: NaN, z: -0, w: Infinity, s: 'é"\n', o: inner, o2: inner, f: () => 1, n: null };
    expect(shared.stringify(odd)).toBe(JSON.stringify(odd));
    expect(snapshot.stringify(odd)).toBe(JSON.stringify(odd));
    expect(snapshot.stringify({ ...odd, y: 2 })).toBe(JSON.stringify({ ...odd, y: 2 }));
    expect(shared.stringifyList([inner, undefined, 3, inner])).toBe(JSON.stringify([inner, undefined, 3, inner]));
    const dated = { toJSON: () => 'd', a: 1 };
    expect(shared.stringify(dated)).toBe(JSON.stringify(dated));
    expect(shared.stringify([1, { a: 2 }])).toBe(JSON.stringify([1, { a: 2 }]));
  });

  it('re-encodes a member the next state replaced, even under the same key', () => {
    const snapshot = new ChangedMembers();
    const keep = { k: 1 };
    expect(snapshot.stringify({ keep, m: { v: 1 } })).toBe('{"keep":{"k":1},"m":{"v":1}}');
    expect(snapshot.stringify({ keep, m: { v: 2 } })).toBe('{"keep":{"k":1},"m":{"v":2}}');
    expect(snapshot.stringify({ m: keep, keep: { k: 3 } })).toBe('{"m":{"k":1},"keep":{"k":3}}');
  });
});

describe('ChangedMembers one level down', () => {
  it('reuses an untouched inner member and re-encodes a replaced one', () => {
    const snapshot = new ChangedMembers();
    const a = [1, 2];
    const s1 = { hands: { a, b: [3] }, n: 1 };
    expect(snapshot.stringify(s1)).toBe(JSON.stringify(s1));
    const s2 = { hands: { ...s1.hands, b: [3, 4] }, n: 2 };
    expect(snapshot.stringify(s2)).toBe(JSON.stringify(s2));
    const s3 = { hands: { b: a, a: s2.hands.b }, n: 3 };
    expect(snapshot.stringify(s3)).toBe(JSON.stringify(s3));
    const s4 = { hands: [a], n: 4 };
    expect(snapshot.stringify(s4)).toBe(JSON.stringify(s4));
    const s5 = { hands: { a }, n: 5 };
    expect(snapshot.stringify(s5)).toBe(JSON.stringify(s5));
  });
});
