/**
 * The side panels of the 포커 table (spec §9): the hand-rank table (족보표)
 * of the PC layout, for the mode being played, and 인디언's used-card panel
 * (each number of the deck with one box per copy, filled as copies are used).
 * Both are pure models here, drawn by panels-draw.ts; the models read only
 * the view, so they cannot disagree with the engine about the deck or the
 * used pile. Failure modes: an option the table does not know falls back to
 * the default ranking's names (never throws); a used card whose rank is not in
 * the deck (cannot happen with the engine's decks) is ignored.
 */
import { CATEGORY_NAME_KO, INTL_CATEGORIES, KOREAN_CATEGORIES, type Category } from '@joke/engine/client';
import type { Card, PokerView } from './model.ts';

export interface RankTable {
  title: string;
  /** Best first: a name and a short example. */
  rows: { name: string; example: string }[];
  /** 하이로우: the low side, best first. */
  low?: { title: string; rows: { name: string; example: string }[] };
}

/** A short example of each high category (§6.1, §6.2); the names and the order come from the engine's evaluator. */
const EXAMPLE: Record<Category, string> = {
  royalStraightFlush: 'A♠K♠Q♠J♠10♠',
  backStraightFlush: 'A♠2♠3♠4♠5♠',
  straightFlush: '9♥8♥7♥6♥5♥',
  quads: '9 9 9 9',
  fullHouse: '8 8 8 K K',
  flush: '같은 무늬 5장',
  mountain: 'A K Q J 10',
  backStraight: 'A 2 3 4 5',
  straight: '5-6-7-8-9',
  trips: '7 7 7',
  twoPair: 'J J 4 4',
  pair: 'Q Q',
  highCard: 'A 탑',
};

/** Best first, as the engine ranks them: §6.1 international (suits never break a tie) or §6.2 Korean. */
const highRows = (korean: boolean) =>
  [...(korean ? KOREAN_CATEGORIES : INTL_CATEGORIES)].reverse().map((c) => ({
    name: CATEGORY_NAME_KO[c],
    example: c === 'straightFlush' && !korean ? 'A♠K♠Q♠J♠10♠ 포함' : EXAMPLE[c],
  }));

/** §6.4 바둑이: more cards of different suits and numbers win; then the lower cards. */
const BADUGI = [
  ['골프', 'A 2 3 4 (무늬 모두 다름)'],
  ['세컨드', 'A 2 3 5'],
  ['써드', 'A 2 4 5'],
  ['메이드', '4장 모두 다른 무늬·숫자'],
  ['베이스', '3장만 다름'],
  ['투베이스', '2장만 다름'],
  ['노베이스', '모두 같은 무늬/숫자'],
] as const;

const rows = (list: readonly (readonly [string, string])[]) => list.map(([name, example]) => ({ name, example }));

/** The ranking a player of this table needs on the side panel (§6 of the mode being played). */
export function rankTable(v: Pick<PokerView, 'mode' | 'options'>): RankTable {
  switch (v.mode) {
    case 'sevenPoker':
      return { title: '족보표 · 한국식 (무늬 ♠>◆>♥>♣)', rows: highRows(true) };
    case 'sevenHiLo': {
      const korean = v.options.hiLoLow !== 'aceToFive';
      const eight = v.options.hiLoQualifier === 'eight';
      return {
        title: '족보표 · 하이',
        rows: highRows(true),
        low: {
          title: `로우${eight ? ' (8 이하)' : ''}`,
          rows: rows([
            korean ? ['최고 로우', 'A 2 3 4 6'] : ['최고 로우', 'A 2 3 4 5'],
            ['낮은 탑이 이김', '7탑 > 8탑 > 9탑'],
            korean ? ['안 되는 로우', '스트레이트·플러시'] : ['스트레이트·플러시', '상관없음'],
          ]),
        },
      };
    }
    case 'badugi':
      return { title: '족보표 · 바둑이 (낮을수록 좋음)', rows: rows(BADUGI) };
    case 'indian': {
      const top = v.options.indianDeck === 'd52' ? 'A > K > … > 2' : '10 > 9 > … > 1';
      const two = v.options.indianCards === 2;
      return {
        title: '족보표 · 인디언',
        rows: rows([
          ...(two
            ? ([
                ['페어', '같은 숫자 2장'],
                ['노페어', '높은 카드부터'],
                ['숫자', top],
              ] as const)
            : ([['높은 숫자', top]] as const)),
          ['비기면', v.options.indianTie === 'split' ? '나눠 가짐' : '다음 판으로 이월'],
          ...(v.options.indianFoldPenalty ? ([['최고 숫자 달고 다이', '벌칙 10배']] as const) : []),
        ]),
      };
    }
    default:
      return { title: '족보표', rows: highRows(false) };
  }
}

export type UsedBox = 'empty' | 'used' | 'table';

export interface UsedColumn {
  rank: number;
  label: string;
  /** One box per copy of this number in the deck: used in an earlier hand, on the table now, or still unseen. */
  boxes: UsedBox[];
}

/** What the deck holds per number: d20 is 1..10 twice (§3), d52 is 2..A in four suits. */
function deckRanks(deck: 'd20' | 'd52'): { rank: number; label: string; copies: number }[] {
  if (deck === 'd52') {
    const face: Record<number, string> = { 11: 'J', 12: 'Q', 13: 'K', 14: 'A' };
    return Array.from({ length: 13 }, (_, i) => ({ rank: i + 2, label: face[i + 2] ?? String(i + 2), copies: 4 }));
  }
  return Array.from({ length: 10 }, (_, i) => ({ rank: i + 1, label: String(i + 1), copies: 2 }));
}

/**
 * 인디언 used-card panel (§9, §5.4.7): cards of finished hands since the last
 * reshuffle fill their boxes ('used'); the cards I can see on the table this
 * hand are marked apart ('table'), so what is left for my own forehead reads
 * off the empty boxes. The used pile empties when the engine reshuffles (every
 * hand with `everyHand`), so the panel does too.
 */
export function usedColumns(v: Pick<PokerView, 'options' | 'indianUsed' | 'hand' | 'viewer'>): UsedColumn[] {
  const seen: Card[] = [];
  for (const p of v.hand?.players ?? []) {
    for (const c of [p.forehead, ...p.hole]) if (c && 'rank' in c) seen.push(c);
  }
  const usedIds = new Set(v.indianUsed.map((c) => c.id));
  const count = (list: Card[], rank: number) => list.filter((c) => c.rank === rank).length;
  return deckRanks(v.options.indianDeck).map(({ rank, label, copies }) => {
    const used = Math.min(copies, count(v.indianUsed, rank));
    const table = Math.min(
      copies - used,
      count(
        seen.filter((c) => !usedIds.has(c.id)),
        rank,
      ),
    );
    const boxes: UsedBox[] = Array.from({ length: copies }, (_, i) =>
      i < used ? 'used' : i < used + table ? 'table' : 'empty',
    );
    return { rank, label, boxes };
  });
}
