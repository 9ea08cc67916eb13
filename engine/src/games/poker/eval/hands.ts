/**
 * Card-level wrappers over the integer evaluators: what the game and the
 * public API call. `best` extraction enumerates subsets and is only used when
 * cards are revealed (showdown, hints), never in tight loops.
 */
import type { Card } from '../types.ts';
import { CARDS52 } from '../cards.ts';
import { evalKorean7, highName, intlFromMasks, koreanFromMasks } from './high.ts';
import { HI, LO, combos } from './tables.ts';
import { lowName, lowScore, lowValue, type LowQualifier, type LowStyle } from './low.ts';

const C = [null, null, null, null, null, combos(5, 5), combos(6, 5), combos(7, 5)];
const OMAHA_HOLE = combos(4, 2);
const OMAHA_BOARD = [null, null, null, combos(3, 3), combos(4, 3), combos(5, 3)];

export function scoreOf(korean: boolean, cards: readonly Card[]): number {
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < cards.length; i++) {
    lo |= LO[cards[i].id];
    hi |= HI[cards[i].id];
  }
  return korean
    ? koreanFromMasks(lo & 0x1fff, lo >>> 13, hi & 0x1fff, hi >>> 13)
    : intlFromMasks(lo & 0x1fff, lo >>> 13, hi & 0x1fff, hi >>> 13);
}

export interface HighHand {
  score: number;
  best: Card[];
  name: string;
}

/** Best five of 5–7 cards (any five): the subset scoring the same as the whole, kickers highest for display. */
export function bestHigh(korean: boolean, cards: readonly Card[]): HighHand {
  const score = scoreOf(korean, cards);
  const table = C[cards.length];
  if (!table) return { score, best: sortHigh(cards.slice()), name: highName(korean, score) };
  let best: Card[] = [];
  let bestTie = -1;
  for (let at = 0; at < table.length; at += 5) {
    const five = [
      cards[table[at]],
      cards[table[at + 1]],
      cards[table[at + 2]],
      cards[table[at + 3]],
      cards[table[at + 4]],
    ];
    if (scoreOf(korean, five) !== score) continue;
    // Among equal subsets (Korean pairs ignore kickers), show the one with the best kickers.
    const tie = scoreOf(false, five);
    if (tie > bestTie) {
      bestTie = tie;
      best = five;
    }
  }
  return { score, best: sortHigh(best), name: highName(korean, score) };
}

/** Hold'em: the best five of hole + board, in any mix. */
export function holdemHand(hole: readonly Card[], board: readonly Card[]): HighHand {
  return bestHigh(false, [...hole, ...board]);
}

/** Omaha: exactly two hole cards and exactly three board cards (4 × 10 = 60 combinations … 6 × 10 with four hole cards). */
export function omahaScore(hole: readonly Card[], board: readonly Card[], out?: Card[]): number {
  const ht = hole.length === 4 ? OMAHA_HOLE : combos(hole.length, 2);
  const bt = OMAHA_BOARD[board.length] ?? combos(board.length, 3);
  let best = -1;
  for (let i = 0; i < ht.length; i += 2) {
    const h0 = hole[ht[i]].id;
    const h1 = hole[ht[i + 1]].id;
    const hlo = LO[h0] | LO[h1];
    const hhi = HI[h0] | HI[h1];
    for (let j = 0; j < bt.length; j += 3) {
      const b0 = board[bt[j]].id;
      const b1 = board[bt[j + 1]].id;
      const b2 = board[bt[j + 2]].id;
      const lo = hlo | LO[b0] | LO[b1] | LO[b2];
      const hi = hhi | HI[b0] | HI[b1] | HI[b2];
      const s = intlFromMasks(lo & 0x1fff, lo >>> 13, hi & 0x1fff, hi >>> 13);
      if (s > best) {
        best = s;
        if (out) {
          out.length = 0;
          out.push(hole[ht[i]], hole[ht[i + 1]], board[bt[j]], board[bt[j + 1]], board[bt[j + 2]]);
        }
      }
    }
  }
  return best;
}

export function omahaHand(hole: readonly Card[], board: readonly Card[]): HighHand {
  const best: Card[] = [];
  const score = omahaScore(hole, board, best);
  return { score, best: sortHigh(best), name: highName(false, score) };
}

/** 7포커 hot path on Card objects. */
export function korean7(cards: readonly Card[]): number {
  return evalKorean7(cards[0].id, cards[1].id, cards[2].id, cards[3].id, cards[4].id, cards[5].id, cards[6].id);
}

export interface LowHand {
  score: number;
  best: Card[];
  name: string;
}

/** Best low of 5–7 cards, or null when none qualifies. `best` runs from the highest card down. */
export function bestLowHand(cards: readonly Card[], style: LowStyle, qualifier: LowQualifier): LowHand | null {
  const codes = cards.map((c) => c.id);
  const idx: number[] = [];
  const score = lowScore(codes, style, qualifier, idx);
  if (score < 0) return null;
  const best = idx.map((i) => cards[i]).sort((a, b) => lowValue(b.id) - lowValue(a.id) || b.id - a.id);
  return { score, best, name: lowName(lowValue(best[0].id)) };
}

/** High to low by rank, then by Korean suit order. */
export function sortHigh(cards: Card[]): Card[] {
  return cards.sort((a, b) => b.rank - a.rank || b.id - a.id);
}

export function toCards(ids: readonly number[]): Card[] {
  return ids.map((id) => CARDS52[id]);
}
