/**
 * The two decks of §3 and what each card is worth. Cards are immutable objects
 * shared between states; only the arrays holding them are copied on write.
 */
import { RANK_LABEL, SUIT_SYMBOL, SUITS } from '../../core/index.ts';
import type { Card, ClassicCard, Color, OneCardOptions, UnoCard } from './types.ts';

export const COLORS: readonly Color[] = ['R', 'Y', 'G', 'B'];
export const COLOR_NAME_KO: Record<Color, string> = { R: '빨강', Y: '노랑', G: '초록', B: '파랑' };

function buildClassicDeck(decks: 1 | 2): readonly ClassicCard[] {
  const cards: ClassicCard[] = [];
  let n = 0;
  for (let d = 0; d < decks; d++) {
    for (const suit of SUITS)
      for (let rank = 1; rank <= 13; rank++) cards.push({ id: `c${n++}`, kind: 'std', suit, rank });
    cards.push({ id: `c${n++}`, kind: 'joker', joker: 'black' });
    cards.push({ id: `c${n++}`, kind: 'joker', joker: 'color' });
  }
  return Object.freeze(cards.map((c) => Object.freeze(c)));
}

function buildUnoDeck(): readonly UnoCard[] {
  const cards: UnoCard[] = [];
  let n = 0;
  for (const color of COLORS) {
    cards.push({ id: `c${n++}`, kind: 'num', color, value: 0 });
    for (let copy = 0; copy < 2; copy++) {
      for (let value = 1; value <= 9; value++) cards.push({ id: `c${n++}`, kind: 'num', color, value });
      cards.push({ id: `c${n++}`, kind: 'skip', color });
      cards.push({ id: `c${n++}`, kind: 'reverse', color });
      cards.push({ id: `c${n++}`, kind: 'draw2', color });
    }
  }
  for (let i = 0; i < 4; i++) cards.push({ id: `c${n++}`, kind: 'wild' });
  for (let i = 0; i < 4; i++) cards.push({ id: `c${n++}`, kind: 'wild4' });
  return Object.freeze(cards.map((c) => Object.freeze(c)));
}

/**
 * The card objects of each deck are built once and frozen, and every game deals the same objects (as
 * hula does): a card's identity is its id and nothing mutates one, so a room worker holding thousands
 * of tables keeps one copy of each card instead of 54 objects and 54 id strings per table (its heap
 * is what each major GC has to mark).
 */
const CLASSIC_DECKS = { 1: buildClassicDeck(1), 2: buildClassicDeck(2) } as const;
const UNO_DECK = buildUnoDeck();

/** A new array, to shuffle, of the shared cards of `decks` standard decks with their jokers. */
export function classicDeck(decks: 1 | 2): ClassicCard[] {
  return CLASSIC_DECKS[decks].slice();
}

/** A new array, to shuffle, of the shared cards of the colour-card deck. */
export function unoDeck(): UnoCard[] {
  return UNO_DECK.slice();
}

export function rankOf(c: Card): number {
  return c.kind === 'std' ? c.rank : 0;
}

export function suitOf(c: Card): string | null {
  return c.kind === 'std' ? c.suit : null;
}

export function colorOf(c: Card): Color | null {
  return 'color' in c ? c.color : null;
}

/** §3 special-card table (clarification 3: "special" is every card there, whatever the effect options). */
export function isClassicSpecial(c: Card): boolean {
  if (c.kind === 'joker') return true;
  if (c.kind !== 'std') return false;
  const r = c.rank;
  return r === 1 || r === 2 || r === 3 || r === 7 || r >= 11;
}

export function isClassicAttack(c: Card): boolean {
  return c.kind === 'joker' || (c.kind === 'std' && (c.rank === 1 || c.rank === 2));
}

export function attackAmount(c: Card, o: OneCardOptions): number {
  if (c.kind === 'joker') return c.joker === 'black' ? o.attackBlackJoker : o.attackColorJoker;
  if (c.kind === 'std') {
    if (c.rank === 2) return o.attack2;
    if (c.rank === 1) return c.suit === 'S' ? o.attackSpadeA : o.attackA;
  }
  return 0;
}

/** §6 card points: classic for tie-breaks and the summary, uno-style for the winner's score. */
export function cardPoints(c: Card): number {
  switch (c.kind) {
    case 'std':
      return c.rank >= 11 ? 10 : c.rank;
    case 'joker':
      return 20;
    case 'num':
      return c.value;
    case 'skip':
    case 'reverse':
    case 'draw2':
      return 20;
    default:
      return 50;
  }
}

export function handPoints(hand: readonly Card[]): number {
  let sum = 0;
  for (const c of hand) sum += cardPoints(c);
  return sum;
}

/** Korean label for logs and summaries ("♥A", "흑백 조커", "빨강 +2"). */
export function cardLabel(c: Card): string {
  switch (c.kind) {
    case 'std':
      return `${SUIT_SYMBOL[c.suit]}${RANK_LABEL[c.rank]}`;
    case 'joker':
      return c.joker === 'black' ? '흑백 조커' : '컬러 조커';
    case 'num':
      return `${COLOR_NAME_KO[c.color]} ${c.value}`;
    case 'skip':
      return `${COLOR_NAME_KO[c.color]} 건너뛰기`;
    case 'reverse':
      return `${COLOR_NAME_KO[c.color]} 방향 바꾸기`;
    case 'draw2':
      return `${COLOR_NAME_KO[c.color]} +2`;
    case 'wild':
      return '색 바꾸기';
    default:
      return '색 바꾸기+4';
  }
}
