/**
 * 인디언 포커 hands (§6.5). One card: the higher rank wins (the d20 ace is 1,
 * the d52 ace 14, which is exactly the card's rank). Two cards: a pair beats
 * no pair; pairs by rank, otherwise the high card then the low card. Suits never count.
 */
import type { Card } from '../types.ts';
import { rankText } from '../cards.ts';

export function indianScore(cards: readonly Card[]): number {
  if (cards.length === 1) return cards[0].rank;
  const [a, b] = cards[0].rank >= cards[1].rank ? [cards[0].rank, cards[1].rank] : [cards[1].rank, cards[0].rank];
  return a === b ? 1000 + a : a * 16 + b;
}

export function indianName(cards: readonly Card[]): string {
  if (cards.length === 1) return `${rankText(cards[0].rank)}`;
  const [a, b] = cards[0].rank >= cards[1].rank ? [cards[0], cards[1]] : [cards[1], cards[0]];
  if (a.rank === b.rank) return `${rankText(a.rank)} 페어`;
  return `${rankText(a.rank)}·${rankText(b.rank)}`;
}
