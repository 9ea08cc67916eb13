/**
 * 봇 난이도 (issue 17): a room option of every game, and every level plays whole
 * games legally through the simulator (which also checks secrecy and
 * conservation at every step). The poker policies are checked on their own
 * terms: hand groups, Monte-Carlo equity and no shoving trash pre-flop.
 */
import { describe, expect, it } from 'vitest';
import { Rng, games, runSim, simAdapters } from '../../src/index.ts';
import { chenPoints, equity, handGroup } from '../../src/games/poker/equity.ts';
import { runBotMatch } from '../../src/sim/bot-match.ts';
import { CARDS52 } from '../../src/games/poker/cards.ts';
import type { PokerView } from '../../src/games/poker/types.ts';

const card = (text: string) => {
  const rank = '23456789TJQKA'.indexOf(text[0]) + 2;
  return CARDS52.find((c) => c.rank === rank && c.suit === text[1])!;
};

describe('봇 난이도 is a room option of every game', () => {
  for (const [id, game] of Object.entries(games)) {
    it(`${id}: 쉬움/보통/어려움 in the form, 보통 by default, anything else refused`, () => {
      const field = game.optionFields.find((f) => f.key === 'botLevel');
      expect(field?.label).toBe('봇 난이도');
      expect(field?.choices?.map((c) => c.label)).toEqual(['쉬움', '보통', '어려움']);
      expect((game.optionsSchema.parse({}) as { botLevel: string }).botLevel).toBe('normal');
      expect(game.optionsSchema.safeParse({ botLevel: 'genius' }).success).toBe(false);
    });
  }

  for (const [id, players, mode] of [
    ['one-card', 4, 'classic'],
    ['hula', 4, undefined],
    ['poker', 4, 'holdem'],
    ['poker', 3, 'sevenPoker'],
  ] as const)
    for (const botLevel of ['easy', 'hard'] as const)
      it(`${id}${mode ? ` ${mode}` : ''} at ${botLevel}: whole games, no violations`, () => {
        const report = runSim({
          adapter: simAdapters[id],
          options: { ...(mode ? { mode } : {}), botLevel, ...(id === 'poker' ? { handLimit: 10 } : {}) },
          players,
          games: 3,
          seed: `levels-${id}-${botLevel}`,
        });
        expect(report.samples).toEqual([]);
        expect(report).toMatchObject({ finished: 3, invariantViolations: 0, leaks: 0, illegalAccepted: 0 });
      });
});

describe('poker bot: hand strength', () => {
  it('Chen points and hand groups rank the starting hands', () => {
    expect(chenPoints(card('AS'), card('AH'))).toBe(20);
    expect(chenPoints(card('7C'), card('2D'))).toBe(-1);
    expect(handGroup(card('AS'), card('KS'))).toBe(1);
    expect(handGroup(card('9H'), card('8H'))).toBeLessThan(handGroup(card('9H'), card('3C')));
    expect(handGroup(card('7C'), card('2D'))).toBe(8);
  });

  it('Monte-Carlo equity: aces hold ≈ 85% heads-up, a made flush on the river wins against one opponent', () => {
    const view = (hole: string[], board: string[], opponents: number) =>
      ({
        mode: 'holdem',
        hand: {
          board: board.map(card),
          players: [
            { id: 'me', folded: false, hole: hole.map(card), up: [] },
            ...Array.from({ length: opponents }, (_, i) => ({ id: `o${i}`, folded: false, hole: [{}, {}], up: [] })),
          ],
        },
      }) as unknown as PokerView;
    const rng = Rng.fromSeed('equity');
    const aces = view(['AS', 'AH'], [], 1);
    const e = equity(aces, aces.hand!.players[0], 4000, rng);
    expect(e).toBeGreaterThan(0.8);
    expect(e).toBeLessThan(0.9);
    const trash = view(['7C', '2D'], [], 3);
    expect(equity(trash, trash.hand!.players[0], 2000, rng)).toBeLessThan(0.2);
    const flush = view(['AH', '9H'], ['2H', '5H', 'KH', 'JC', '3S'], 1);
    expect(equity(flush, flush.hand!.players[0], 2000, rng)).toBeGreaterThan(0.95);
  });

  it('보통 never raises or shoves group 7–8 hands pre-flop (the all-in-with-trash complaint)', () => {
    const poker = games.poker;
    let seen = 0;
    for (let i = 0; i < 400 && seen < 60; i++) {
      const players = ['p1', 'p2', 'p3', 'p4'].map((id) => ({ id, name: id }));
      const options = poker.optionsSchema.parse({ mode: 'holdem' });
      const state = poker.setup({ seed: `trash-${i}`, players, options, now: 0 });
      const v = poker.view(state, poker.view(state, null).hand!.toAct!) as PokerView;
      const me = v.hand!.players.find((p) => p.id === v.viewer)!;
      const [a, b] = me.hole as { rank: number; suit: string; id: number }[];
      if (handGroup(a as never, b as never) < 7) continue;
      seen++;
      const action = poker.bot(v, Rng.fromSeed(`trash-bot-${i}`));
      expect(['nl.fold', 'nl.call', 'nl.check']).toContain(action?.type);
    }
    expect(seen).toBeGreaterThan(20);
  });

  it('the bot-match simulator counts every hand and seats both policies fairly', () => {
    const r = runBotMatch({ mode: 'holdem', hands: 60, seed: 'vitest', a: 'normal', b: 'easy', players: 2 });
    expect(r.hands).toBeGreaterThanOrEqual(60);
    expect(r.games).toBeGreaterThanOrEqual(1);
    expect(Number.isFinite(r.chipsPer100)).toBe(true);
    expect(r.ci95).toBeGreaterThan(0);
  });
});
