/**
 * The view split (core/types.ts `ViewParts`) of every game and mode, over
 * bot-played games from many seeds: the fixed and shared parts are the same
 * for every viewer — each seat's view and the spectator's carry exactly their
 * members — the three parts have no member in common and together make
 * `view`, neither the fixed nor the shared part leaks anything hidden from any
 * viewer (no hand, no draw pile, no seed or RNG state), and the fixed part is
 * the same in every state of one game. The room worker encodes the shared
 * part once per transition for all viewers and sends the fixed part only to
 * viewers that do not have it yet, so this is what keeps that safe.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnyGame, PlayerId } from '../src/core/index.ts';
import { games } from '../src/games/index.ts';
import { simAdapters } from '../src/games/sims.ts';
import { findLeaks, findStateLeaks, hiddenSet } from '../src/sim/secrecy.ts';
import { simPlayers } from '../src/sim/runner.ts';
import { botTransitions } from '../src/sim/transitions.ts';

const plain = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

/** Checks one state's split; returns its fixed part's JSON (the caller compares it across the game). */
function checkState(game: AnyGame, state: any, viewers: (PlayerId | null)[]): string {
  const parts = game.viewParts!;
  const adapter = simAdapters[game.id];
  const fixed = parts.fixed(state) as Record<string, unknown>;
  const shared = parts.shared(state) as Record<string, unknown>;
  const fixedKeys = Object.keys(fixed);
  const sharedKeys = Object.keys(shared);
  expect(fixedKeys).toContain('game');
  expect(fixedKeys.filter((k) => Object.hasOwn(shared, k))).toEqual([]);
  expect(findStateLeaks(shared, state.seed, state.rng)).toEqual([]);
  expect(findStateLeaks(fixed, state.seed, state.rng)).toEqual([]);
  for (const viewer of viewers) {
    const own = parts.own(state, viewer) as Record<string, unknown>;
    const ownKeys = Object.keys(own);
    expect(ownKeys.filter((k) => Object.hasOwn(shared, k) || Object.hasOwn(fixed, k))).toEqual([]);
    expect(ownKeys).toContain('viewer');
    const view = game.view(state, viewer) as Record<string, unknown>;
    expect(Object.keys(view).sort()).toEqual([...fixedKeys, ...sharedKeys, ...ownKeys].sort());
    // What a client rebuilds from a frame and the fixed members it holds is the whole view.
    if (!isDeepStrictEqual(plain({ ...fixed, ...shared, ...own }), plain(view)))
      expect(plain({ ...fixed, ...shared, ...own })).toEqual(plain(view));
    // Every viewer's view carries the fixed and shared members exactly: nothing in them depends on who looks.
    for (const [part, keys] of [
      [fixed, fixedKeys],
      [shared, sharedKeys],
    ] as const)
      for (const k of keys)
        if (!isDeepStrictEqual(plain(view[k]), plain(part[k]))) expect([k, view[k]]).toEqual([k, part[k]]);
    for (const k of ownKeys) expect(plain(view[k])).toEqual(plain(own[k]));
    // Nothing any viewer may not see: the fixed and shared parts go to all of them.
    const hidden = hiddenSet(adapter, state, viewer);
    expect(findLeaks(adapter, hidden, shared)).toEqual([]);
    expect(findLeaks(adapter, hidden, fixed)).toEqual([]);
  }
  return JSON.stringify(fixed);
}

const SIZES: Record<string, number[]> = { 'one-card': [2, 4, 6], hula: [2, 4, 5], poker: [2, 4] };

describe('view parts', () => {
  for (const game of Object.values(games))
    for (const mode of game.modes)
      it(`${game.id} ${mode.id}: fixed for the game, shared for all viewers, disjoint, secret-free`, () => {
        expect(game.viewParts).toBeDefined();
        fc.assert(
          fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom(...SIZES[game.id]), (seed, n) => {
            const options = game.optionsSchema.parse({ mode: mode.id });
            const range = game.playerRange(options);
            const players = simPlayers(Math.min(Math.max(n, range.min), range.max));
            const viewers = [...players.map((p) => p.id), null, 'stranger'];
            let steps = 0;
            let fixed: string | null = null;
            for (const t of botTransitions(game, {
              seed: `view-parts-${seed}`,
              players,
              options: { mode: mode.id },
              timeoutRate: 0.03,
              maxSteps: game.id === 'poker' ? 40 : 200,
            })) {
              const f = checkState(game, t.state, viewers);
              // The fixed members are sent once per viewer: no transition of a game may change them.
              if (fixed !== null && f !== fixed) expect(f).toBe(fixed);
              fixed = f;
              steps++;
            }
            expect(steps).toBeGreaterThan(1);
          }),
          { numRuns: 3, seed: 9 },
        );
      }, 120_000);
});

describe('fixed view members', () => {
  for (const game of Object.values(games))
    for (const mode of game.modes)
      it(`${game.id} ${mode.id}: the same in every state of whole games`, () => {
        const options = game.optionsSchema.parse({ mode: mode.id });
        const range = game.playerRange(options);
        for (const [i, n] of SIZES[game.id].entries()) {
          const players = simPlayers(Math.min(Math.max(n, range.min), range.max));
          let first: string | null = null;
          let steps = 0;
          for (const t of botTransitions(game, {
            seed: `fixed-${game.id}-${mode.id}-${i}`,
            players,
            options: { mode: mode.id },
            timeoutRate: 0.05,
          })) {
            const f = JSON.stringify(game.viewParts!.fixed(t.state));
            if (first === null) first = f;
            else if (f !== first) expect([t.seq, f]).toEqual([t.seq, first]);
            steps++;
          }
          expect(steps).toBeGreaterThan(1);
        }
      }, 120_000);
});
