/**
 * The 족보 picture examples of the 포커 rules sheet (poker.md §9 규칙 보기):
 * every example hand is scored by the engine's own evaluators and must land in
 * the category its row names, and each table must run strictly best first, so
 * a wrong or misplaced picture fails here rather than teaching a wrong 족보.
 */
import { describe, expect, it } from 'vitest';
import {
  badugiHand,
  badugiName,
  bestLowHand,
  scoreOf,
  CATEGORY_NAME_KO,
  INTL_CATEGORIES,
  KOREAN_CATEGORIES,
  intlCategory,
  koreanCategory,
  indianScore,
} from '@joke/engine/client';
import { rankExamples, type ExampleRow } from '../src/games/poker/rank-examples.ts';

/** Strictly decreasing: the table is best first and no two rows tie. */
function expectDescending(scores: number[]): void {
  for (let i = 1; i < scores.length; i++) expect(scores[i], `row ${i} below row ${i - 1}`).toBeLessThan(scores[i - 1]);
}

describe('poker §9 규칙 보기: 족보표 그림 예시', () => {
  it('international: the 9 categories of the engine, each example really that category, best first', () => {
    const [table] = rankExamples('world');
    expect(table.rows.map((r) => r.name)).toEqual([...INTL_CATEGORIES].reverse().map((c) => CATEGORY_NAME_KO[c]));
    const scores = table.rows.map((r) => scoreOf(false, r.cards));
    expect(scores.map(intlCategory)).toEqual([...INTL_CATEGORIES].reverse());
    for (const r of table.rows) expect(r.cards).toHaveLength(5);
    expectDescending(scores);
  });

  it('Korean (7포커): the 13 categories of the engine, each example really that category, best first', () => {
    const [table] = rankExamples('korean');
    expect(table.rows).toHaveLength(13);
    const scores = table.rows.map((r) => scoreOf(true, r.cards));
    expect(scores.map(koreanCategory)).toEqual([...KOREAN_CATEGORIES].reverse());
    // The names are the engine's (its Korean 하이카드 reads 탑, as the table's hand names do).
    expect(table.rows.map((r) => r.name)).toEqual(
      [...KOREAN_CATEGORIES].reverse().map((c) => (c === 'highCard' ? '탑' : CATEGORY_NAME_KO[c])),
    );
    expectDescending(scores);
  });

  it('하이로우 low side: named as the engine names each low, best first, and the straight is no low', () => {
    expect(rankExamples('korean')).toHaveLength(1);
    const [, low] = rankExamples('korean', true);
    const lows = low.rows.filter((r) => r.name !== '로우 아님');
    const hands = lows.map((r) => bestLowHand(r.cards, 'korean', 'none'));
    expect(hands.map((h) => h?.name)).toEqual(lows.map((r) => r.name));
    expect(lows[0].name).toBe('6탑 로우'); // A-2-3-4-6 is the best Korean low
    expectDescending(hands.map((h) => h!.score));
    const none = low.rows.find((r) => r.name === '로우 아님')!;
    expect(bestLowHand(none.cards, 'korean', 'none')).toBeNull();
  });

  it('바둑이: named by the engine, grades 골프 … 노베이스, best first', () => {
    const [table] = rankExamples('badugi');
    const hands = table.rows.map((r: ExampleRow) => badugiHand(r.cards.map((c) => c.id)));
    expect(hands.map(badugiName)).toEqual(table.rows.map((r) => r.name));
    expect(table.rows.map((r) => r.name)).toEqual([
      '골프',
      '세컨드',
      '써드',
      'K 메이드',
      '3 베이스',
      '투베이스',
      '노베이스',
    ]);
    expect(hands.map((h) => h.size)).toEqual([4, 4, 4, 4, 3, 2, 1]);
    expectDescending(hands.map((h) => h.score));
  });

  it('인디언: the single-card strip runs high to low, and a pair beats a no-pair', () => {
    const [table] = rankExamples('indian');
    const [single, pair, noPair] = table.rows;
    expect(single.cards.map((c) => c.rank)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    expectDescending(single.cards.map((c) => indianScore([c])));
    expect(pair.cards[0].rank).toBe(pair.cards[1].rank);
    expect(indianScore(pair.cards)).toBeGreaterThan(indianScore(noPair.cards));
  });
});
