/**
 * The view split (core/types.ts `ViewParts`) of every game and mode, over
 * bot-played games from many seeds: the shared part is the same for every
 * viewer — each seat's view and the spectator's carry exactly its members —
 * it and each viewer's own part have no member in common and together make
 * `view`, and the shared part leaks nothing hidden from any viewer (no hand,
 * no draw pile, no seed or RNG state). The room worker encodes the shared
 * part once per transition for all viewers, so this is what keeps that safe.
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

function checkState(game: AnyGame, state: any, viewers: (PlayerId | null)[]): void {
  const parts = game.viewParts!;
  const adapter = simAdapters[game.id];
  const shared = parts.shared(state) as Record<string, unknown>;
  const sharedKeys = Object.keys(shared);
  expect(findStateLeaks(shared, state.seed, state.rng)).toEqual([]);
  for (const viewer of viewers) {
    const own = parts.own(state, viewer) as Record<string, unknown>;
    const ownKeys = Object.keys(own);
    expect(ownKeys.filter((k) => Object.hasOwn(shared, k))).toEqual([]);
    expect(ownKeys).toContain('viewer');
    const view = game.view(state, viewer) as Record<string, unknown>;
    expect(Object.keys(view).sort()).toEqual([...sharedKeys, ...ownKeys].sort());
    // Every viewer's view carries the shared members exactly: nothing in them depends on who looks.
    for (const k of sharedKeys)
      if (!isDeepStrictEqual(plain(view[k]), plain(shared[k]))) expect([k, view[k]]).toEqual([k, shared[k]]);
    for (const k of ownKeys) expect(plain(view[k])).toEqual(plain(own[k]));
    // Nothing any viewer may not see: the shared part goes to all of them.
    expect(findLeaks(adapter, hiddenSet(adapter, state, viewer), shared)).toEqual([]);
  }
}

const SIZES: Record<string, number[]> = { 'one-card': [2, 4, 6], hula: [2, 4, 5], poker: [2, 4] };

describe('view parts', () => {
  for (const game of Object.values(games))
    for (const mode of game.modes)
      it(`${game.id} ${mode.id}: shared for all viewers, disjoint from each own part, secret-free`, () => {
        expect(game.viewParts).toBeDefined();
        fc.assert(
          fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom(...SIZES[game.id]), (seed, n) => {
            const options = game.optionsSchema.parse({ mode: mode.id });
            const range = game.playerRange(options);
            const players = simPlayers(Math.min(Math.max(n, range.min), range.max));
            const viewers = [...players.map((p) => p.id), null, 'stranger'];
            let steps = 0;
            for (const t of botTransitions(game, {
              seed: `view-parts-${seed}`,
              players,
              options: { mode: mode.id },
              timeoutRate: 0.03,
              maxSteps: game.id === 'poker' ? 40 : 200,
            })) {
              checkState(game, t.state, viewers);
              steps++;
            }
            expect(steps).toBeGreaterThan(1);
          }),
          { numRuns: 3, seed: 9 },
        );
      }, 120_000);
});
