/** §4 classic setup and §8.4 use of the seeded RNG. */
import { describe, expect, it } from 'vitest';
import { oneCard } from '../../src/games/one-card/index.ts';
import { seedCommitment } from '../../src/core/index.ts';
import { fresh, NOW, options, players } from './helpers.ts';

describe('§4 setup', () => {
  it('§4 — state carries game, seq 0, the seed commitment, plain-JSON RNG state and the players', () => {
    const s = fresh({}, 3, 'abc');
    expect(s).toMatchObject({ game: 'one-card', seq: 0, seedCommit: seedCommitment('abc'), seed: 'abc', direction: 1 });
    expect(s.players).toEqual(players(3));
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    expect(
      new Set(
        Object.values(s.hands)
          .flat()
          .map((c) => c.id),
      ).size,
    ).toBe(21);
    expect(s.turnStartedAt).toBe(NOW);
    expect(s.timeoutsInRow).toEqual({ p1: 0, p2: 0, p3: 0 });
  });

  it('§4 — the first player is drawn by the RNG (every seat starts in some game) and everyone gets handSize cards', () => {
    const firsts = new Set<string>();
    for (let i = 0; i < 80; i++) firsts.add(fresh({}, 4, `first-${i}`).current);
    expect(firsts).toEqual(new Set(['p1', 'p2', 'p3', 'p4']));
  });

  it('§4 — card ids are short unique strings and cards are the §8.1 objects', () => {
    const s = fresh({ deckCount: 2 }, 3);
    const all = [...s.drawPile, ...s.discard, ...s.seats.flatMap((p) => s.hands[p])];
    expect(all.map((c) => c.id).sort()).toEqual(Array.from({ length: 108 }, (_, i) => `c${i}`).sort());
    expect(all.filter((c) => c.kind === 'joker')).toHaveLength(4);
    for (const c of all) if (c.kind === 'std') expect(c.rank >= 1 && c.rank <= 13).toBe(true);
  });

  it('§4 — with a very full single deck the start card is never a joker even if no plain card is left', () => {
    let fallback = 0;
    for (let i = 0; i < 250; i++) {
      const s = oneCard.setup({ seed: `full-${i}`, players: players(7), options: options({ deckCount: 1 }), now: NOW });
      const start = s.discard[0];
      expect(start.kind).toBe('std');
      if (start.kind === 'std' && ![4, 5, 6, 8, 9, 10].includes(start.rank)) fallback++;
      expect(s.drawPile).toHaveLength(54 - 49 - 1);
    }
    expect(fallback).toBeGreaterThan(0);
  });

  it('§8.4 — setup is a pure function of its inputs', () => {
    const input = { seed: 'x', players: players(5), options: options({ mode: 'uno-style' }), now: NOW };
    expect(JSON.stringify(oneCard.setup(input))).toBe(JSON.stringify(oneCard.setup(input)));
  });
});
