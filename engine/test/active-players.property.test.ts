/**
 * `activePlayers(state)` (core/types.ts) of every game and mode, over
 * bot-played games from many seeds: at every state it is exactly the set of
 * players for whom the game's own legal-action helpers (the `legal` members
 * each view carries) offer an awaited move, and empty once there is a result.
 * The room worker counts timeouts and arms bot timers from it instead of
 * asking a bot, so a drift here would mark the wrong people away.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AnyGame, PlayerId } from '../src/core/index.ts';
import { Rng } from '../src/core/rng.ts';
import { games } from '../src/games/index.ts';
import type { HulaView } from '../src/games/hula/types.ts';
import type { OneCardView } from '../src/games/one-card/types.ts';
import type { PokerView } from '../src/games/poker/types.ts';
import { simPlayers } from '../src/sim/runner.ts';
import { botTransitions } from '../src/sim/transitions.ts';

/** Whether the viewer has a move the game waits for, read from their view's legal-action members only. */
const awaited: Record<string, (view: any) => boolean> = {
  'one-card': (v: OneCardView) => {
    const L = v.legal;
    return L.canPlay || L.canDraw || L.canPass || L.canChallenge || L.canAcceptWild4 || L.mustChooseColor;
  },
  // Leaving is always allowed and never awaited; legalActions lists only the rest.
  poker: (v: PokerView) => v.legalActions.length > 0,
  hula: (v: HulaView) => {
    if (!v.me) return false;
    if (v.me.mustAct) return true;
    // The 조커 race: anyone still eligible may claim or pass (bot.ts reads the same members).
    const p = v.phase;
    return (
      p.kind === 'thankYouRace' &&
      p.discarder !== v.viewer &&
      !p.passed.includes(v.viewer!) &&
      !p.claimants.includes(v.viewer!)
    );
  },
};

/** Out-of-turn moves a bot may make without being awaited (they never make anyone active). */
const OPTIONAL: Record<string, string[]> = { 'one-card': ['declareOneCard'], poker: ['leave'], hula: ['reserveLeave'] };

function check(game: AnyGame, state: unknown, players: PlayerId[]): void {
  const active = game.activePlayers(state);
  expect(new Set(active).size).toBe(active.length);
  const expected = players.filter((p) => awaited[game.id](game.view(state, p)));
  if ([...active].sort().join() !== expected.sort().join()) expect([...active].sort()).toEqual(expected.sort());
  expect(typeof game.phase(state)).toBe('string');
  if (game.result(state) !== null) expect(active).toEqual([]);
}

const SIZES: Record<string, number[]> = { 'one-card': [2, 4, 6], hula: [2, 3, 5], poker: [2, 3, 5] };

describe('activePlayers', () => {
  for (const game of Object.values(games))
    for (const mode of game.modes)
      it(`${game.id} ${mode.id}: exactly the players with an awaited legal move, at every state`, () => {
        fc.assert(
          fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.constantFrom(...SIZES[game.id]), (seed, n) => {
            const options = game.optionsSchema.parse({ mode: mode.id });
            const range = game.playerRange(options);
            const players = simPlayers(Math.min(Math.max(n, range.min), range.max)).map((p) => p.id);
            let steps = 0;
            for (const t of botTransitions(game, {
              seed: `active-${seed}`,
              players: players.map((id) => ({ id, name: id })),
              options: { mode: mode.id },
              timeoutRate: 0.05,
              maxSteps: game.id === 'poker' ? 150 : 400,
            })) {
              check(game, t.state, players);
              steps++;
            }
            expect(steps).toBeGreaterThan(1);
          }),
          { numRuns: game.id === 'poker' ? 5 : 12, seed: 39 },
        );
      }, 300_000);

  it('a bot outside activePlayers only ever makes an optional out-of-turn move', () => {
    for (const game of Object.values(games))
      for (const mode of game.modes) {
        const players = simPlayers(4).map((p) => p.id);
        for (const t of botTransitions(game, {
          seed: `active-bot-${mode.id}`,
          players: players.map((id) => ({ id, name: id })),
          options: { mode: mode.id },
          timeoutRate: 0.05,
          maxSteps: 300,
        })) {
          const active = game.activePlayers(t.state);
          for (const p of players) {
            if (active.includes(p)) continue;
            const a = game.bot(game.view(t.state, p), Rng.fromSeed(`probe-${t.seq}-${p}`)) as { type: string } | null;
            if (a !== null) expect([game.id, a.type]).toEqual([game.id, expect.toBeOneOf(OPTIONAL[game.id])]);
          }
        }
      }
  }, 300_000);
});
