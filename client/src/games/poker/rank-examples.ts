/**
 * Picture examples for the 포커 rules sheet's 족보표 (spec §9 "규칙 보기"):
 * one real hand per category of each ranking, best first. Pure data, no DOM;
 * the sheet draws the cards (ui/rules/rule-cards.ts). The high categories'
 * names and order come from the engine's evaluator (the same lists the table's
 * 족보표 panel uses), so a renamed or reordered category shows up here too; the
 * 바둑이 and 로우 row names are the engine's own names of the example hands.
 * Every example is checked against the engine's evaluator by
 * test/poker-rank-examples.test.ts (a wrong example fails there, not here).
 */
import {
  CARDS20,
  parseCards,
  badugiHand,
  badugiName,
  bestLowHand,
  CATEGORY_NAME_KO,
  INTL_CATEGORIES,
  KOREAN_CATEGORIES,
  type Category,
} from '@joke/engine/client';
import type { Card } from './model.ts';

export type RankingKind = 'world' | 'korean' | 'badugi' | 'indian';

export interface ExampleRow {
  name: string;
  cards: Card[];
  /** What the example shows, when the name alone does not say it. */
  note?: string;
}

export interface ExampleTable {
  title: string;
  rows: ExampleRow[];
}

/** One hand of each high category, in the order a player reads it (pairs first, kickers after). */
const HIGH: Record<Category, string> = {
  royalStraightFlush: 'As Ks Qs Js Ts',
  backStraightFlush: 'As 2s 3s 4s 5s',
  straightFlush: '9h 8h 7h 6h 5h',
  quads: '9s 9d 9h 9c Ks',
  fullHouse: '8s 8d 8h Kc Kh',
  flush: 'Ad Jd 8d 6d 3d',
  mountain: 'As Kh Qd Jc Ts',
  backStraight: 'Ad 2s 3h 4c 5s',
  straight: '9c 8d 7s 6h 5c',
  trips: '7s 7h 7d Kc 2s',
  twoPair: 'Js Jh 4d 4c 9s',
  pair: 'Qs Qd 8h 5c 3s',
  highCard: 'As Jd 8h 5c 3s',
};

/** Best first, exactly the engine's categories of that ranking. */
function highTable(korean: boolean): ExampleTable {
  const list = [...(korean ? KOREAN_CATEGORIES : INTL_CATEGORIES)].reverse();
  return {
    title: korean ? '족보 그림 (한국식, 높은 순)' : '족보 그림 (높은 순)',
    rows: list.map((c) => ({
      name: korean && c === 'highCard' ? '탑' : CATEGORY_NAME_KO[c],
      cards: parseCards(HIGH[c]),
    })),
  };
}

/** 7포커 하이로우's low side (Korean low: A is 1, a straight or flush is no low). */
const LOW = ['6s 4c 3h 2d As', '7d 5s 4h 2c Ad', '9s 8d 6h 3c 2s'];
const NO_LOW = '5s 4c 3h 2d As';

function lowTable(): ExampleTable {
  return {
    title: '로우 그림 (좋은 순)',
    rows: [
      ...LOW.map((text) => {
        const cards = parseCards(text);
        return { name: bestLowHand(cards, 'korean', 'none')?.name ?? '', cards };
      }),
      { name: '로우 아님', cards: parseCards(NO_LOW), note: '스트레이트·플러시는 로우로 못 써요' },
    ],
  };
}

/** 바둑이, best first: the three named 메이드, a plain 메이드, then fewer usable cards. */
const BADUGI = [
  'As 2d 3h 4c',
  'As 2d 3h 5c',
  'As 2d 4h 5c',
  '3s 6d 9h Kc',
  'As 2d 3h 3c',
  'As 2s 3d 4d',
  'As 2s 3s 4s',
];

function badugiTable(): ExampleTable {
  return {
    title: '바둑이 그림 (좋은 순)',
    rows: BADUGI.map((text) => {
      const cards = parseCards(text);
      return { name: badugiName(badugiHand(cards.map((c) => c.id))), cards };
    }),
  };
}

/** 인디언 on the 20-card deck (1..10, ♥ and ♠): pairs and no-pairs of the 2-card mode, then the single card. */
const d20 = (rank: number, spade = false) => CARDS20[(rank - 1) * 2 + (spade ? 1 : 0)];

function indianTable(): ExampleTable {
  return {
    title: '인디언 그림 (높은 순)',
    rows: [
      { name: '1장: 높은 숫자', cards: [10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((r) => d20(r)), note: '10이 가장 높아요' },
      { name: '2장: 페어', cards: [d20(5), d20(5, true)] },
      { name: '2장: 노페어', cards: [d20(10, true), d20(9)], note: '높은 카드부터 비교' },
    ],
  };
}

/** The picture tables for a ranking; 하이로우 adds its low side. */
export function rankExamples(kind: RankingKind, withLow = false): ExampleTable[] {
  switch (kind) {
    case 'korean':
      return withLow ? [highTable(true), lowTable()] : [highTable(true)];
    case 'badugi':
      return [badugiTable()];
    case 'indian':
      return [indianTable()];
    default:
      return [highTable(false)];
  }
}
