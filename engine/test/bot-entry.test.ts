/** The bot entry point (docs/engine.md): the engine's Rng or a plain seed, same choices for the same seed. */
import { describe, expect, it } from 'vitest';
import { Rng, runBot } from '../src/core/rng.ts';
import { games } from '../src/games/index.ts';
import { simPlayers } from '../src/sim/runner.ts';

describe('runBot(game, view, rng | seed)', () => {
  for (const [id, game] of Object.entries(games)) {
    it(`${id}: a plain seed drives the bot exactly like Rng.fromSeed(seed, 'bot'); bot(view, rng) still works`, () => {
      const s = game.setup({
        seed: `bot-${id}`,
        players: simPlayers(3),
        options: game.optionsSchema.parse({}),
        now: 1_800_000_000_000,
      });
      let acted = 0;
      for (const p of s.players) {
        const v = game.view(s, p.id);
        for (const seed of ['a', 'b', 7]) {
          const bySeed = runBot(game, v, seed);
          expect(bySeed).toEqual(game.bot(v, Rng.fromSeed(String(seed), 'bot')));
          if (bySeed) {
            acted++;
            expect(game.apply(s, p.id, bySeed, 1_800_000_000_001).ok).toBe(true);
          }
        }
      }
      expect(acted).toBeGreaterThan(0);
    });
  }
});
