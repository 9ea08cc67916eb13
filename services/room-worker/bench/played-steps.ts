/**
 * The transitions of bot-played games at one table, recorded for the frame benchmarks
 * (views.ts, frame-bytes.ts): each game is set up from its own seed and played by the game's
 * bot policy (or its timeout when no seat acts) to the end, at most 2,000 steps.
 */
import { Rng, type AnyGame, type GameEvent } from '@joke/engine';

export interface Step {
  seq: number;
  state: unknown;
  events: GameEvent[];
  resultJson: string | null;
}

export function playedSteps(
  game: AnyGame,
  mode: string,
  players: { id: string; name: string }[],
  gameCount: number,
  seedPrefix: string,
): Step[] {
  const steps: Step[] = [];
  const options = game.optionsSchema.parse({ mode });
  for (let g = 0; g < gameCount; g++) {
    let state = game.setup({ seed: `${seedPrefix}-${g}`, players, options, now: 0 });
    const rng = Rng.fromSeed(`${seedPrefix}-${g}`);
    for (let seq = 1; seq < 2000 && game.result(state) === null; seq++) {
      const actor = players.find((p) => game.bot(game.view(state, p.id), rng) !== null);
      const r = actor
        ? game.apply(state, actor.id, game.bot(game.view(state, actor.id), rng), seq)
        : game.onTimeout(state, game.deadline(state) ?? 0);
      if (!r.ok) break;
      state = r.state;
      const result = game.result(state);
      steps.push({ seq, state, events: r.events, resultJson: result === null ? null : JSON.stringify(result) });
    }
  }
  return steps;
}
