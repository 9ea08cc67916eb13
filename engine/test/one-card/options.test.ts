/** §2 options: defaults per mode, the create-room form, Korean validation messages, seat bounds. */
import { describe, expect, it } from 'vitest';
import { oneCard } from '../../src/games/one-card/index.ts';
import { fresh, options } from './helpers.ts';

const messages = (o: unknown) => {
  const r = oneCard.optionsSchema.safeParse(o);
  return r.success ? [] : r.error.issues.map((i) => i.message);
};

describe('§2 options', () => {
  it('§2 — defaults follow the table, with mode-dependent oneCardPenalty, bankruptLimit and playAfterDraw', () => {
    expect(options()).toEqual({
      mode: 'classic',
      handSize: 7,
      deckCount: 'auto',
      attack2: 2,
      attackA: 3,
      attackSpadeA: 5,
      attackBlackJoker: 5,
      attackColorJoker: 7,
      threeDefense: 'same-suit',
      kEffect: 'extra-turn',
      qInTwoPlayer: 'no-effect',
      lastCardRule: 'joker',
      afterJoker: 'previous',
      multiPlay: false,
      oneCardPenalty: 1,
      autoDeclare: false,
      bankruptLimit: 20,
      voluntaryDraw: true,
      playAfterDraw: false,
      endCondition: 'first-out',
      botLevel: 'normal',
      turnSeconds: 20,
      unoStacking: false,
      unoWild4Rule: 'strict',
      unoTargetScore: null,
    });
    expect(options({ mode: 'uno-style' })).toMatchObject({
      oneCardPenalty: 2,
      bankruptLimit: null,
      playAfterDraw: true,
      voluntaryDraw: true,
    });
  });

  it('§2 — every option is a form field with a Korean label, Korean choice labels and per-mode defaults; mode-only options say so', () => {
    const keys = oneCard.optionFields.map((f) => f.key);
    expect(keys).toEqual([
      'mode',
      'handSize',
      'deckCount',
      'attack2',
      'attackA',
      'attackSpadeA',
      'attackBlackJoker',
      'attackColorJoker',
      'threeDefense',
      'kEffect',
      'qInTwoPlayer',
      'lastCardRule',
      'afterJoker',
      'multiPlay',
      'oneCardPenalty',
      'autoDeclare',
      'bankruptLimit',
      'voluntaryDraw',
      'playAfterDraw',
      'endCondition',
      'botLevel',
      'turnSeconds',
      'unoStacking',
      'unoWild4Rule',
      'unoTargetScore',
    ]);
    expect(keys).not.toContain('carryScores');
    const hangul = /[가-힣]/;
    for (const f of oneCard.optionFields) {
      expect(f.label).toMatch(hangul);
      for (const c of f.choices ?? []) expect(c.label).toMatch(/[가-힣]|^\d+$|[0-9]/);
    }
    const byKey = Object.fromEntries(oneCard.optionFields.map((f) => [f.key, f]));
    expect(byKey.mode.choices).toEqual([
      { value: 'classic', label: '원카드' },
      { value: 'uno-style', label: '색깔 카드' },
    ]);
    expect(byKey.bankruptLimit.defaultByMode).toEqual({ classic: 20, 'uno-style': null });
    expect(byKey.oneCardPenalty.defaultByMode).toEqual({ classic: 1, 'uno-style': 2 });
    expect(byKey.playAfterDraw.defaultByMode).toEqual({ classic: false, 'uno-style': true });
    for (const k of ['deckCount', 'attack2', 'threeDefense', 'kEffect', 'lastCardRule', 'afterJoker', 'multiPlay'])
      expect(byKey[k].modes).toEqual(['classic']);
    for (const k of ['unoStacking', 'unoWild4Rule', 'unoTargetScore']) expect(byKey[k].modes).toEqual(['uno-style']);
    expect(byKey.handSize.modes).toBeUndefined();
    expect(JSON.stringify(oneCard.optionFields)).not.toMatch(/UNO|우노/);
  });

  it('§2 — bad values and unknown keys are refused with Korean messages', () => {
    expect(messages({ handSize: 4 })).toEqual(["'처음 받는 장수' 값이 올바르지 않아요"]);
    expect(messages({ attack2: 9 })).toEqual(["'2 공격 장수' 값이 올바르지 않아요"]);
    expect(messages({ nope: 1 })[0]).toMatch(/알 수 없는 옵션이에요/);
    expect(messages('x').length).toBe(1);
    expect(messages(null)).toHaveLength(1);
  });

  it('§2 — cross-field rules: ♠A ≥ A, colour joker ≥ black joker, options of the other mode, carryScores', () => {
    expect(messages({ attackA: 5, attackSpadeA: 4 })).toEqual(['♠A 공격 장수는 다른 A보다 적을 수 없어요']);
    expect(messages({ attackBlackJoker: 9, attackColorJoker: 6 })).toEqual([
      '컬러 조커 공격 장수는 흑백 조커보다 적을 수 없어요',
    ]);
    expect(messages({ mode: 'uno-style', multiPlay: true })).toEqual([
      "'같은 숫자 여러 장 내기' 옵션은 원카드 모드에서만 쓸 수 있어요",
    ]);
    expect(messages({ unoStacking: true })).toEqual(["'+2·+4 받아치기' 옵션은 색깔 카드 모드에서만 쓸 수 있어요"]);
    expect(messages({ mode: 'uno-style', unoStacking: true, unoWild4Rule: 'challenge' })).toEqual([]);
    expect(messages({ carryScores: { p1: 10 } })).toEqual([
      '이월 점수는 색깔 카드 모드의 목표 점수제에서만 쓸 수 있어요',
    ]);
    expect(messages({ mode: 'uno-style', unoTargetScore: 200, carryScores: { p1: 200 } })).toEqual([
      '이미 목표 점수에 닿은 사람이 있어요',
    ]);
    expect(messages({ mode: 'uno-style', unoTargetScore: 200, carryScores: { p1: -1 } })).toEqual([
      '이월 점수가 올바르지 않아요',
    ]);
    expect(options({ mode: 'uno-style', unoTargetScore: 500, carryScores: { p1: 120 } }).carryScores).toEqual({
      p1: 120,
    });
  });

  it('§1 — seat bounds: classic 2–9, uno-style 2–10; a forced single deck caps by hand size', () => {
    expect([oneCard.minPlayers, oneCard.maxPlayers]).toEqual([2, 10]);
    expect(oneCard.playerRange(options())).toEqual({ min: 2, max: 9 });
    expect(oneCard.playerRange(options({ mode: 'uno-style' }))).toEqual({ min: 2, max: 10 });
    expect(oneCard.playerRange(options({ deckCount: 1 }))).toEqual({ min: 2, max: 7 });
    expect(oneCard.playerRange(options({ deckCount: 1, handSize: 5 }))).toEqual({ min: 2, max: 9 });
  });

  it('§2 — deckCount auto: one deck up to 5 players, two from 6 (108 cards)', () => {
    const count = (n: number, o = {}) => {
      const s = fresh(o, n);
      return s.drawPile.length + s.discard.length + s.seats.reduce((a, p) => a + s.hands[p].length, 0);
    };
    expect(count(5)).toBe(54);
    expect(count(6)).toBe(108);
    expect(count(9)).toBe(108);
    expect(count(2, { deckCount: 2 })).toBe(108);
    expect(fresh({}, 6).decks).toBe(2);
  });

  it('§2 — handSize deals 5, 6 or 7 cards', () => {
    for (const h of [5, 6, 7])
      for (const p of fresh({ handSize: h }, 4).seats) expect(fresh({ handSize: h }, 4).hands[p]).toHaveLength(h);
  });
});
