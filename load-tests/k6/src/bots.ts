/**
 * The engine's bot policy of each game (`engine/src/games/<id>/bot.ts`, the very function behind
 * `games[id].bot(view, rng)`), loaded the first time a VU plays that game. Each k6 VU evaluates the
 * whole bundle in its own runtime: the three games with their rules and zod schemas cost ≈ 0.3 s of
 * CPU and ≈ 20 MB per VU, so a game a VU never plays is never evaluated. esbuild turns each
 * `require` into a lazily run module of the bundle (nothing is loaded at run time). The game
 * catalogue check (modes, seats) also runs once, in `setup()`, not in every VU.
 * Failure modes: a game of the engine without a loader here is refused by checkMix in setup(), and
 * load-tests/test/k6.test.ts checks that every engine game has one; a loader's wrong path fails the
 * build (esbuild resolves it).
 */
import type { Rng } from '@joke/engine/core/rng';
import type { AnyGame } from '@joke/engine/core/types';
import type { MixEntry } from '../../src/scenario.ts';

declare const require: (id: string) => Record<string, unknown>;

/**
 * A game's bot, as the seat calls it: the view is the frame's (`{ ...fixed, ...view }`) of the game the
 * policy was loaded for, not checked here (the policy reads its own game's view type).
 */
export type BotPolicy = (view: Readonly<Record<string, unknown>>, rng: Rng) => unknown;

export const BOT_LOADERS: Record<string, () => BotPolicy> = {
  'one-card': () => require('@joke/engine/games/one-card/bot').bot as BotPolicy,
  poker: () => require('@joke/engine/games/poker/bot').bot as BotPolicy,
  hula: () => require('@joke/engine/games/hula/bot').bot as BotPolicy,
};

const loaded = new Map<string, BotPolicy>();

export function botOf(game: string): BotPolicy {
  let bot = loaded.get(game);
  if (!bot) {
    const load = BOT_LOADERS[game];
    if (!load) throw new Error(`no bot policy for game "${game}"`);
    bot = load();
    loaded.set(game, bot);
  }
  return bot;
}

/** Each game and mode of the mix checked against the engine's catalogue (what the matchmaker would refuse). */
export function checkMix(mix: MixEntry[]): void {
  const { games } = require('@joke/engine/games/index') as { games: Record<string, AnyGame> };
  for (const m of mix) {
    const game = games[m.game];
    if (!game) throw new Error(`MIX: no game "${m.game}" (${Object.keys(games).join(', ')})`);
    if (!game.modes.some((x) => x.id === m.mode))
      throw new Error(`MIX: ${m.game} has no mode "${m.mode}" (${game.modes.map((x) => x.id).join(', ')})`);
    if (m.players < game.minPlayers || m.players > game.maxPlayers)
      throw new Error(`MIX: ${m.game} seats ${game.minPlayers}–${game.maxPlayers}, not ${m.players}`);
    if (!BOT_LOADERS[m.game]) throw new Error(`MIX: no bot policy for game "${m.game}"`);
  }
}
