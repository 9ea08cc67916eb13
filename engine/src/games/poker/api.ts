/**
 * The public evaluator API, exported from `@joke/engine` as `poker`, so anyone
 * can check these evaluators against another implementation:
 *
 *   poker.parseCards('As Td 9h 2c')
 *   poker.rankHand('korean', cards) → { category, name, best, score }
 *   poker.showdown({ mode: 'holdem', board, hands }) → { winners, hands }
 *   poker.bestLow(cards, { hiLoLow: 'korean', hiLoQualifier: 'none' })
 *   poker.compareBadugi(a, b) → -1 | 0 | 1 (negative: a wins)
 */
import type { Card } from './types.ts';
import { parseCards } from './cards.ts';
import { intlCategory, koreanCategory, type Category } from './eval/high.ts';
import { bestHigh, bestLowHand, holdemHand, omahaHand } from './eval/hands.ts';
import { badugiScore } from './eval/badugi.ts';
import type { LowQualifier, LowStyle } from './eval/low.ts';

export { parseCards, cardText, cardLabel } from './cards.ts';
export type { Card } from './types.ts';
export type { Category } from './eval/high.ts';
export { evalIntl7, evalKorean7 } from './eval/high.ts';

type CardsInput = readonly Card[] | string;

function cardsOf(input: CardsInput): Card[] {
  const cards = typeof input === 'string' ? parseCards(input) : input.slice();
  const seen = new Set<number>();
  for (const c of cards) {
    if (!c || typeof c.id !== 'number' || c.id < 0 || c.id > 51 || !Number.isInteger(c.id))
      throw new Error('잘못된 카드');
    if (seen.has(c.id)) throw new Error('같은 카드가 두 번 있어요');
    seen.add(c.id);
  }
  return cards;
}

export interface RankedHand {
  category: Category;
  /** Korean name shown to players. */
  name: string;
  /** The five cards used, highest first. */
  best: Card[];
  /** Higher beats lower; equal means a split. Comparable within one variant only. */
  score: number;
}

/** Ranks 5 to 7 cards by the international (§6.1) or the Korean 7-poker (§6.2) order. */
export function rankHand(variant: 'international' | 'korean', input: CardsInput): RankedHand {
  const cards = cardsOf(input);
  if (cards.length < 5 || cards.length > 7) throw new Error('5~7장이 필요해요');
  const korean = variant === 'korean';
  const h = bestHigh(korean, cards);
  return {
    category: korean ? koreanCategory(h.score) : intlCategory(h.score),
    name: h.name,
    best: h.best,
    score: h.score,
  };
}

export interface ShowdownInput {
  mode: 'holdem' | 'omaha' | 'fiveDraw' | 'sevenPoker';
  board?: CardsInput;
  hands: CardsInput[];
}

export interface ShowdownOutput {
  winners: number[];
  hands: { category: Category; name: string; best: Card[] }[];
}

export function showdown(input: ShowdownInput): ShowdownOutput {
  const board = input.board === undefined ? [] : cardsOf(input.board);
  const hands = input.hands.map(cardsOf);
  const all = new Set<number>(board.map((c) => c.id));
  for (const h of hands)
    for (const c of h) {
      if (all.has(c.id)) throw new Error('같은 카드가 두 번 있어요');
      all.add(c.id);
    }
  const korean = input.mode === 'sevenPoker';
  const ranked = hands.map((h) => {
    switch (input.mode) {
      case 'holdem':
        return holdemHand(h, board);
      case 'omaha':
        return omahaHand(h, board);
      case 'fiveDraw':
        return bestHigh(false, h);
      case 'sevenPoker':
        return bestHigh(true, h);
      default:
        throw new Error(`지원하지 않는 모드: ${String(input.mode)}`);
    }
  });
  const top = Math.max(...ranked.map((r) => r.score));
  return {
    winners: ranked.flatMap((r, i) => (r.score === top ? [i] : [])),
    hands: ranked.map((r) => ({
      category: korean ? koreanCategory(r.score) : intlCategory(r.score),
      name: r.name,
      best: r.best,
    })),
  };
}

/** The five low cards (highest first) of 5–7 cards by §6.3, or null when there is no (qualifying) low. */
export function bestLow(
  input: CardsInput,
  opts: { hiLoLow?: LowStyle; hiLoQualifier?: LowQualifier } = {},
): Card[] | null {
  const cards = cardsOf(input);
  return bestLowHand(cards, opts.hiLoLow ?? 'korean', opts.hiLoQualifier ?? 'none')?.best ?? null;
}

/** Compares two four-card badugi hands: -1 if `a` wins, 1 if `b` wins, 0 for a split. */
export function compareBadugi(a: CardsInput, b: CardsInput): -1 | 0 | 1 {
  const ca = cardsOf(a);
  const cb = cardsOf(b);
  if (ca.length !== 4 || cb.length !== 4) throw new Error('바둑이는 4장이에요');
  const sa = badugiScore(ca.map((c) => c.id));
  const sb = badugiScore(cb.map((c) => c.id));
  return sa > sb ? -1 : sa < sb ? 1 : 0;
}
