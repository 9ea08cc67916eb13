/**
 * Steps-only snapshot writes (issue 9), without a store: when the encoder sends the whole room, and how
 * `roomFromStore` brings a whole snapshot K steps behind to the stored seq by replaying the steps through
 * the real games (one-card, poker, hula) — or refuses a stored room that does not replay, never guessing.
 */
import { describe, expect, it } from 'vitest';
import { games, type AnyGame } from '@joke/engine';
import { decodeBase, decodeSnapshot, encodeSnapshot, SnapshotEncoder } from '../src/snapshot.ts';
import { roomFromStore } from '../src/stored-room.ts';
import type { SnapshotData } from '../src/room-types.ts';
import { play } from './fixtures/played.ts';

const room = (total: number): SnapshotData => ({
  v: 1,
  roomId: 'r',
  game: 'one-card',
  mode: 'classic',
  options: { mode: 'classic' },
  startedAt: 1,
  state: { total },
  seats: [{ id: 'a', name: 'A', bot: false, away: false, timeouts: 0, disconnectedSince: null }],
  viewers: [],
  finishedAt: null,
  finishedPublished: false,
});

describe('SnapshotEncoder: whole or steps only', () => {
  it('writes whole first, then steps only while at most K steps follow the last whole write', () => {
    const enc = new SnapshotEncoder(4);
    const first = enc.next(room(1), 1, 1);
    expect(first !== null && decodeBase(first)).toEqual({ data: room(1), at: 1 });
    expect(enc.next(room(2), 2, 1)).toBeNull();
    expect(enc.next(room(4), 4, 2)).toBeNull();
    expect(enc.next(room(5), 5, 1)).toBeNull(); // 4 steps since the whole one: a restore replays 4
    const whole = enc.next(room(6), 6, 1); // the 5th would make 5
    expect(whole !== null && decodeBase(whole)).toEqual({ data: room(6), at: 6 });
    expect(enc.next(room(7), 7, 1)).toBeNull();
    // A batch of more steps than K is written whole at once.
    expect(enc.next(room(12), 12, 5)).not.toBeNull();
  });

  it('writes whole after a metadata change (the steps do not carry it) and when no step moved the seq', () => {
    const enc = new SnapshotEncoder(32);
    enc.next(room(1), 1, 1);
    expect(enc.next(room(2), 2, 1)).toBeNull();
    const seated = room(3);
    seated.seats[0].away = true;
    enc.metaChanged();
    const text = enc.next(seated, 3, 1);
    expect(text !== null && decodeSnapshot(text)!.seats[0].away).toBe(true);
    expect(enc.next(seated, 4, 1)).toBeNull();
    // A seq moved by metadata alone has no step: whole (the room also marks its metadata changed then).
    expect(enc.next(seated, 5, 0)).not.toBeNull();
  });

  it('with K = 0 writes every write whole, in the v2 layout workers from before steps-only writes read', () => {
    const enc = new SnapshotEncoder(0);
    for (let s = 1; s <= 5; s++) {
      const text = enc.next(room(s), s, 1)!;
      expect(JSON.parse(text).v).toBe(2);
      expect(decodeBase(text)).toEqual({ data: room(s), at: null });
    }
  });

  it('reads v3 with its seq, v2 and v1 as written whole at the stored seq, and nothing else', () => {
    const d = room(9);
    const { v: _v, state, ...meta } = d;
    expect(decodeBase(encodeSnapshot(d, 9))).toEqual({ data: d, at: 9 });
    expect(decodeBase(JSON.stringify({ v: 2, meta, state }))).toEqual({ data: d, at: null });
    expect(decodeBase(JSON.stringify(d))).toEqual({ data: d, at: null });
    expect(decodeBase(JSON.stringify({ v: 3, meta, state }))).toBeNull(); // v3 without its seq
    expect(decodeBase(JSON.stringify({ v: 4, at: 1, meta, state }))).toBeNull();
    expect(decodeBase('{"v":3,')).toBeNull();
  });

  it("keeps the room's chat policy, which only its spec gave it", () => {
    const d: SnapshotData = { ...room(3), chat: { freeText: true, spectators: false } };
    expect(decodeSnapshot(new SnapshotEncoder(16).whole(d, 3))?.chat).toEqual({ freeText: true, spectators: false });
    expect(decodeSnapshot(new SnapshotEncoder(0).whole(d, 3))?.chat).toEqual({ freeText: true, spectators: false });
  });
});

const GAMES: [string, unknown][] = [
  ['one-card', { mode: 'classic' }],
  ['poker', {}],
  ['hula', {}],
];
describe.each(GAMES)('roomFromStore, %s', (name, options) => {
  const game = games[name as keyof typeof games] as unknown as AnyGame;
  const played = play(game, options, `room-${name}`, 40);
  // 40 steps, or fewer if the game ended first.
  const N = played.steps.length;
  const stepTexts = played.steps.map((s) => JSON.stringify(s));
  const stored = (base: number, steps = stepTexts, seq = N) => ({
    roomId: `room-${name}`,
    seq,
    data: played.snapshotAt(base),
    steps,
  });

  it('replays the steps after the whole snapshot, timeouts included, to the state the game was in', () => {
    expect(N).toBeGreaterThanOrEqual(30);
    expect(played.steps.filter((s) => s.t && s.s > 17).length).toBeGreaterThan(0);
    const want = JSON.stringify(played.states[N]);
    for (const base of [0, 1, 17, N - 1, N]) {
      const r = roomFromStore(stored(base), games as unknown as Record<string, AnyGame>);
      if (!r.ok) throw new Error(`base ${base}: ${r.problem}`);
      // The exact text, key order included: it is what the room's next whole snapshot writes.
      expect(JSON.stringify(r.data.state)).toBe(want);
      expect(r.seq).toBe(N);
      expect(r.replayed).toBe(N - base);
      expect(r.steps).toEqual(played.steps);
    }
  });

  it('refuses a step the game refuses, a missing step, steps short of the stored seq, a base ahead of it', () => {
    const g = games as unknown as Record<string, AnyGame>;
    const actionAt = played.steps.find((s) => s.s > 20 && !s.t)!.s;
    const tampered = stepTexts.map((t, i) =>
      i + 1 === actionAt ? JSON.stringify({ ...played.steps[i], x: { type: 'nonsense' } }) : t,
    );
    expect(roomFromStore(stored(17, tampered), g)).toMatchObject({
      ok: false,
      code: 'badSnapshot',
      problem: expect.stringMatching(new RegExp(`^step ${actionAt} refused on replay: `)),
    });
    // The same step before the whole snapshot is record only: not replayed, not judged.
    expect(roomFromStore(stored(actionAt, tampered), g).ok).toBe(true);
    const gap = stepTexts.filter((_, i) => i + 1 !== 25);
    expect(roomFromStore(stored(17, gap), g)).toMatchObject({
      ok: false,
      problem: 'step 25 missing (next stored step is 26)',
    });
    expect(roomFromStore(stored(17, stepTexts, N + 1), g)).toMatchObject({
      ok: false,
      problem: `steps end at seq ${N}, the stored seq is ${N + 1}`,
    });
    expect(roomFromStore(stored(N, stepTexts.slice(0, -1), N - 1), g)).toMatchObject({
      ok: false,
      problem: `snapshot at seq ${N} is ahead of the stored seq ${N - 1}`,
    });
    expect(roomFromStore(stored(17, [...stepTexts.slice(0, 30), '{"s":31,']), g)).toMatchObject({
      ok: false,
      problem: 'a stored step is not JSON',
    });
  });
});
