/**
 * Card concepts shared by every game on the platform. Each game keeps its own
 * card shape and rank convention as its spec writes it (one-card: A=1,
 * poker: A=14), but suits, their symbols and the Korean names live here once.
 */
export type Suit = 'S' | 'H' | 'D' | 'C';
export const SUITS: readonly Suit[] = ['S', 'H', 'D', 'C'];

export const SUIT_SYMBOL: Record<Suit, string> = { S: '♠', H: '♥', D: '♦', C: '♣' };
export const SUIT_NAME_KO: Record<Suit, string> = {
  S: '스페이드',
  H: '하트',
  D: '다이아몬드',
  C: '클로버',
};

/** Rank labels with A as 1 (one-card, hula). Poker's A=14 maps through `rank % 13 || 13`-style helpers there. */
export const RANK_LABEL: Record<number, string> = {
  1: 'A',
  2: '2',
  3: '3',
  4: '4',
  5: '5',
  6: '6',
  7: '7',
  8: '8',
  9: '9',
  10: '10',
  11: 'J',
  12: 'Q',
  13: 'K',
  14: 'A',
};

export function isRed(suit: Suit): boolean {
  return suit === 'H' || suit === 'D';
}
