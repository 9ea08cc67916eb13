/**
 * The 4 seat frames of one-card transitions built with each viewer's own members reused where
 * their key is unchanged (OwnParts, the game's `viewParts.ownKey`) and without, alternating, on
 * the transitions of one recorded 4-player game: µs per transition, best of the rounds.
 *
 *   node --import tsx services/room-worker/bench/own-parts.ts
 *
 * Figures, not assertions.
 */
import { games, type AnyGame } from '@joke/engine';
import { simPlayers } from '@joke/engine/sim/runner';
import { botTransitions } from '@joke/engine/sim/transitions';
import { OwnParts, StateViews, viewFrameBytes } from '../src/frames.ts';

const game = games['one-card'] as AnyGame;
const players = simPlayers(4);
const viewers = players.map((p) => p.id);
const transitions = [
  ...botTransitions(game, { seed: 'own-parts-bench', players, options: { mode: 'classic' }, timeoutRate: 0 }),
];

function usPerTransition(reuse: boolean, repeats = 200): number {
  const t0 = performance.now();
  for (let r = 0; r < repeats; r++) {
    const owns = reuse ? new OwnParts() : null;
    for (const t of transitions) {
      const c = {
        roomIdJson: '"bench"',
        seq: t.seq,
        events: t.events,
        views: new StateViews(game, t.state, owns),
        presenceJson: '[]',
        resultJson: null,
        fixedJson: null,
      };
      for (const v of viewers) viewFrameBytes(game, c, v);
    }
  }
  return ((performance.now() - t0) * 1000) / (repeats * transitions.length);
}

let best = { reuse: Infinity, none: Infinity };
for (let round = 0; round < 5; round++)
  best = { reuse: Math.min(best.reuse, usPerTransition(true)), none: Math.min(best.none, usPerTransition(false)) };
console.log(
  `one-card, 4 seats, ${transitions.length} transitions: 4 frames per transition ${best.none.toFixed(1)} µs, ` +
    `with own members reused ${best.reuse.toFixed(1)} µs (${(best.reuse / best.none).toFixed(2)}×), best of 5`,
);
