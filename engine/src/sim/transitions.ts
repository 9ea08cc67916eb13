/**
 * A bot-played game as its sequence of transitions, for tests and benchmarks
 * that need real states: every seat is driven by the game's own bot, and a
 * seat-less moment (or, with `timeoutRate`, a random one) runs the deadline.
 * Deterministic for a given seed; pure like the engine.
 */
import { Rng } from '../core/rng.ts';
import type { AnyGame, GameEvent, GameStateBase, PlayerInfo } from '../core/types.ts';

export interface BotTransition {
  seq: number;
  /** The state after the transition. */
  state: GameStateBase;
  events: GameEvent[];
}

export interface BotGameInput {
  seed: string;
  players: PlayerInfo[];
  /** Raw options, parsed with the game's schema. */
  options: Record<string, unknown>;
  /** Share of transitions run as a timeout while some seat could act (default 0). */
  timeoutRate?: number;
  maxSteps?: number;
}

export function* botTransitions(game: AnyGame, input: BotGameInput): Generator<BotTransition> {
  const rng = Rng.fromSeed(`transitions:${input.seed}`);
  const timeoutRate = input.timeoutRate ?? 0;
  let now = 1_800_000_000_000;
  let state = game.setup({
    seed: input.seed,
    players: input.players,
    options: game.optionsSchema.parse(input.options),
    now,
  });
  yield { seq: 0, state, events: [] };
  for (let seq = 1; seq <= (input.maxSteps ?? 5000) && game.result(state) === null; seq++) {
    const movers = input.players.filter((p) => game.bot(game.view(state, p.id), rng) !== null);
    let r;
    if (movers.length === 0 || rng.float() < timeoutRate) {
      now = Math.max(now, game.deadline(state) ?? now);
      r = game.onTimeout(state, now);
    } else {
      const actor = movers[rng.int(movers.length)];
      now += 1 + rng.int(500);
      r = game.apply(state, actor.id, game.bot(game.view(state, actor.id), rng), now);
    }
    if (!r.ok) return;
    state = r.state;
    yield { seq, state, events: r.events };
  }
}
