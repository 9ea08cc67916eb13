/**
 * Poker's card model. A 52-card card's id doubles as the evaluator's integer
 * code, (rank - 2) * 4 + suit index with suits in the Korean order ♣0 < ♥1 <
 * ◆2 < ♠3, so evaluating a hand never converts anything and comparing suit
 * indices is comparing suits the Korean way.
 */
import { RANK_LABEL, SUIT_SYMBOL, type Suit } from '../../core/cards.ts';
import type { Card } from './types.ts';

/** Korean suit order, weakest first: index = suit strength. */
export const SUIT_ORDER: readonly Suit[] = ['C', 'H', 'D', 'S'];
export const SUIT_INDEX: Record<Suit, number> = { C: 0, H: 1, D: 2, S: 3 };

/** The 52 cards, indexed by id (shared, frozen: cards are never mutated). */
export const CARDS52: readonly Card[] = Object.freeze(
  Array.from({ length: 52 }, (_, id) => Object.freeze({ id, rank: (id >> 2) + 2, suit: SUIT_ORDER[id & 3] })),
);

/** Indian d20: A(=1)..10 in ♠ and ♥. */
export const CARDS20: readonly Card[] = Object.freeze(
  Array.from({ length: 20 }, (_, id) => Object.freeze({ id, rank: (id >> 1) + 1, suit: (id & 1 ? 'S' : 'H') as Suit })),
);

export function deck52(): Card[] {
  return CARDS52.slice();
}

export function deck20(): Card[] {
  return CARDS20.slice();
}

/**
 * A rank as players read it. Aces are 14 in poker, so rank 1 is only ever the 인디언 20-card deck's
 * lowest number, written "1" (issue 15), not "A".
 */
export function rankText(rank: number): string {
  return rank === 1 ? '1' : RANK_LABEL[rank];
}

export function cardLabel(c: Card): string {
  return `${SUIT_SYMBOL[c.suit]}${rankText(c.rank)}`;
}

export function cardsLabel(cards: readonly Card[]): string {
  return cards.map(cardLabel).join(' ');
}

const RANK_CHARS: Record<string, number> = {
  '2': 2,
  '3': 3,
  '4': 4,
  '5': 5,
  '6': 6,
  '7': 7,
  '8': 8,
  '9': 9,
  T: 10,
  J: 11,
  Q: 12,
  K: 13,
  A: 14,
};
const SUIT_CHARS: Record<string, Suit> = { s: 'S', h: 'H', d: 'D', c: 'C' };

/** "As Td 9h 2c" (also "10d") → cards of the 52-card deck. Throws on anything else. */
export function parseCards(text: string): Card[] {
  const tokens = text
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean);
  return tokens.map((t) => {
    const m = /^(10|[2-9TJQKA])([shdc])$/i.exec(t);
    if (!m) throw new Error(`알 수 없는 카드: ${t}`);
    const rank = m[1] === '10' ? 10 : RANK_CHARS[m[1].toUpperCase()];
    const suit = SUIT_CHARS[m[2].toLowerCase()];
    return CARDS52[(rank - 2) * 4 + SUIT_INDEX[suit]];
  });
}

/** Inverse of parseCards, for other libraries ("Ts", "2c"). */
export function cardText(c: Card): string {
  const r = c.rank === 10 ? 'T' : c.rank === 14 || c.rank === 1 ? 'A' : RANK_LABEL[c.rank];
  return `${r}${c.suit.toLowerCase()}`;
}
