/**
 * The card shapes the one-card view carries (spec §8.1), with the Korean
 * names the table shows. Suit symbols and names come from the engine's shared
 * card module so the client never disagrees with the server about them.
 */
import {
  RANK_LABEL,
  SUIT_NAME_KO,
  SUIT_SYMBOL,
  isRed,
  type Suit,
  COLOR_NAME_KO,
  cardLabel,
  type OneCardCard as Card,
  type Color,
  type UnoCard,
} from '@joke/engine/client';

export type {
  OneCardCard as Card,
  ClassicCard,
  Color,
  LegalActions,
  OneCardAction,
  OneCardView,
  PlayAction,
  PlayerStatus,
} from '@joke/engine/client';
export type ColorCard = UnoCard;
export { SUIT_SYMBOL, SUIT_NAME_KO, isRed, type Suit, COLOR_NAME_KO, cardLabel };
export const SUITS: Suit[] = ['S', 'H', 'D', 'C'];
export const COLORS: Color[] = ['R', 'Y', 'G', 'B'];

/** Saturated enough to tell apart on a phone, paired with a pattern for colour-blind players. */
export const COLOR_HEX: Record<Color, string> = { R: '#d83a34', Y: '#e9b21f', G: '#2f9a4e', B: '#2a6cc9' };
/** §9: dots, stripes, grid, waves — one pattern per colour. */
export const COLOR_PATTERN: Record<Color, 'dots' | 'stripes' | 'grid' | 'waves'> = {
  R: 'dots',
  Y: 'stripes',
  G: 'grid',
  B: 'waves',
};

export function isColorCard(card: Card): card is ColorCard {
  return card.kind !== 'std' && card.kind !== 'joker';
}

export function cardColor(card: Card): Color | null {
  return 'color' in card ? card.color : null;
}

/**
 * A 1 that is a number, not an ace: the 인디언 20-card deck runs 1..10, and its lowest card must read "1"
 * (it ranks below 2), never "A". Poker's art cards carry `numeric: true` for it.
 */
export function isNumericOne(card: Card): boolean {
  return card.kind === 'std' && card.rank === 1 && (card as { numeric?: boolean }).numeric === true;
}

/** The corner index of a standard card: "A", "2"…"10", "J", "Q", "K", or "1" for the numeric one. */
export function indexLabel(card: Card): string {
  return isNumericOne(card) ? '1' : card.kind === 'std' ? rankLabel(card.rank) : '';
}

/** Texture key of a face: equal faces (two decks, duplicate colour cards) share one texture. */
export function faceKey(card: Card): string {
  switch (card.kind) {
    case 'std':
      return `f-${card.suit}${card.rank}${isNumericOne(card) ? 'n' : ''}`;
    case 'joker':
      return `f-joker-${card.joker}`;
    case 'num':
      return `f-${card.color}-n${card.value}`;
    case 'skip':
    case 'reverse':
    case 'draw2':
      return `f-${card.color}-${card.kind}`;
    case 'wild':
    case 'wild4':
      return `f-${card.kind}`;
  }
}

export function rankLabel(rank: number): string {
  return RANK_LABEL[rank] ?? String(rank);
}

/** Classic points for tie-breaks (§6) — also used to order a hand. */
const SUIT_ORDER: Record<Suit, number> = { S: 0, H: 1, D: 2, C: 3 };
const COLOR_ORDER: Record<Color, number> = { R: 0, Y: 1, G: 2, B: 3 };
const KIND_ORDER: Record<string, number> = { num: 0, skip: 10, reverse: 11, draw2: 12, wild: 20, wild4: 21 };

function rankKey(card: Card): number {
  switch (card.kind) {
    case 'std':
      return card.rank;
    case 'joker':
      return card.joker === 'black' ? 20 : 21;
    case 'num':
      return card.value;
    default:
      return KIND_ORDER[card.kind];
  }
}

function suitKey(card: Card): number {
  if (card.kind === 'std') return SUIT_ORDER[card.suit];
  if (card.kind === 'joker') return 9;
  const c = cardColor(card);
  return c ? COLOR_ORDER[c] : 9;
}

export type SortMode = 'suit' | 'rank' | 'none';

/** Sorting is purely visual: it never changes which cards the server thinks we hold. */
export function sortHand<T extends Card>(cards: readonly T[], mode: SortMode): T[] {
  if (mode === 'none') return [...cards];
  const primary = mode === 'suit' ? suitKey : rankKey;
  const secondary = mode === 'suit' ? rankKey : suitKey;
  return [...cards].sort((a, b) => primary(a) - primary(b) || secondary(a) - secondary(b) || (a.id < b.id ? -1 : 1));
}
