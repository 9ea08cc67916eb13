/**
 * 훌라 cards and view shapes for the client, straight from the engine, plus
 * the two purely visual helpers the table needs: the card art's shape for a
 * 훌라 card and the hand order (by suit or by rank; never sent anywhere).
 */
import {
  RANK_LABEL,
  SUIT_SYMBOL,
  type Suit,
  type HulaCard as Card,
  type HulaAction,
  type HulaView,
  type Meld,
} from '@joke/engine/client';
import type { Card as ArtCard } from '../../cards/model.ts';

export type { Card, HulaAction, HulaView, Meld };

/** The shared card art draws trump cards and jokers; 훌라's two jokers get its two joker faces. */
export function artCard(c: Card): ArtCard {
  if (c.suit === 'X') return { id: c.id, kind: 'joker', joker: c.id === 'X2' ? 'color' : 'black' };
  return { id: c.id, kind: 'std', suit: c.suit, rank: c.rank };
}

export function cardName(c: Card): string {
  if (c.suit === 'X') return '조커';
  return `${SUIT_SYMBOL[c.suit]}${RANK_LABEL[c.rank] ?? String(c.rank)}`;
}

const SUIT_ORDER: Record<Suit | 'X', number> = { S: 0, H: 1, D: 2, C: 3, X: 4 };

export type HulaSort = 'suit' | 'rank';

export function sortCards(cards: readonly Card[], mode: HulaSort): Card[] {
  const rank = (c: Card) => (c.suit === 'X' ? 99 : c.rank);
  const suit = (c: Card) => SUIT_ORDER[c.suit];
  return [...cards].sort((a, b) =>
    mode === 'suit'
      ? suit(a) - suit(b) || rank(a) - rank(b) || (a.id < b.id ? -1 : 1)
      : rank(a) - rank(b) || suit(a) - suit(b) || (a.id < b.id ? -1 : 1),
  );
}

export function nameOf(view: HulaView, id: string | null | undefined): string {
  if (!id) return '';
  return view.seats.find((s) => s.id === id)?.name ?? id;
}

/** Points with a thousands separator and the room's unit, "점" (never money). */
export function points(n: number, signed = false): string {
  const s = Math.abs(n).toLocaleString('ko-KR');
  return `${signed ? (n > 0 ? '+' : n < 0 ? '−' : '±') : n < 0 ? '−' : ''}${s}점`;
}
