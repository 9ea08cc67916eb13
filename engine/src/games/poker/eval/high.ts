/**
 * High-hand evaluators over integer card codes (code = rank index * 4 + suit).
 * A hand of up to seven cards becomes four 13-bit suit masks; pairs, trips and
 * quads fall out of and/or combinations of those masks, straights and top
 * cards out of the lookup tables. No allocation on the hot path.
 *
 * Scores: higher beats lower, equal splits.
 *  - international: category << 20 | five 4-bit rank slots.
 *  - korean (7포커): category << 22 | rank slots << 2 | deciding suit (♠=3 best).
 */
import { HB, HI, LO, POP, ROYAL, STRAIGHT, TOP5, WHEEL } from './tables.ts';

export const INTL = {
  highCard: 0,
  pair: 1,
  twoPair: 2,
  trips: 3,
  straight: 4,
  flush: 5,
  fullHouse: 6,
  quads: 7,
  straightFlush: 8,
} as const;

export const KOREAN = {
  highCard: 0,
  pair: 1,
  twoPair: 2,
  trips: 3,
  straight: 4,
  backStraight: 5,
  mountain: 6,
  flush: 7,
  fullHouse: 8,
  quads: 9,
  straightFlush: 10,
  backStraightFlush: 11,
  royalStraightFlush: 12,
} as const;

export type Category = keyof typeof KOREAN;

export const INTL_CATEGORIES: Category[] = [
  'highCard',
  'pair',
  'twoPair',
  'trips',
  'straight',
  'flush',
  'fullHouse',
  'quads',
  'straightFlush',
];
export const KOREAN_CATEGORIES: Category[] = [
  'highCard',
  'pair',
  'twoPair',
  'trips',
  'straight',
  'backStraight',
  'mountain',
  'flush',
  'fullHouse',
  'quads',
  'straightFlush',
  'backStraightFlush',
  'royalStraightFlush',
];

export const CATEGORY_NAME_KO: Record<Category, string> = {
  highCard: '하이카드',
  pair: '원페어',
  twoPair: '투페어',
  trips: '트리플',
  straight: '스트레이트',
  backStraight: '백 스트레이트',
  mountain: '마운틴',
  flush: '플러시',
  fullHouse: '풀하우스',
  quads: '포카드',
  straightFlush: '스트레이트 플러시',
  backStraightFlush: '백 스트레이트 플러시',
  royalStraightFlush: '로열 스트레이트 플러시',
};

/** International score of a hand given as suit masks (5 to 7 cards; fewer work for hints). */
export function intlFromMasks(s0: number, s1: number, s2: number, s3: number): number {
  // With at most seven cards a flush leaves no room for quads or a full house, so it can return at once.
  let f = 0;
  if (POP[s0] >= 5) f = s0;
  else if (POP[s1] >= 5) f = s1;
  else if (POP[s2] >= 5) f = s2;
  else if (POP[s3] >= 5) f = s3;
  if (f !== 0) {
    const sf = STRAIGHT[f];
    return sf !== 0 ? (8 << 20) | (sf << 16) : (5 << 20) | TOP5[f];
  }
  const any = s0 | s1 | s2 | s3;
  const four = s0 & s1 & s2 & s3;
  if (four !== 0) return (7 << 20) | (HB[four] << 16) | (HB[any ^ four] << 12);
  const two = (s0 & s1) | (s2 & s3) | ((s0 | s1) & (s2 | s3));
  const three = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1));
  if (three !== 0) {
    const t = HB[three];
    const rest = two & ~(1 << t);
    if (rest !== 0) return (6 << 20) | (t << 16) | (HB[rest] << 12);
  }
  const st = STRAIGHT[any];
  if (st !== 0) return (4 << 20) | (st << 16);
  if (three !== 0) {
    const t = HB[three];
    return (3 << 20) | (t << 16) | ((TOP5[any & ~(1 << t)] >> 4) & 0xff00);
  }
  if (two !== 0) {
    const hp = HB[two];
    const rest = two & ~(1 << hp);
    if (rest !== 0) {
      const lp = HB[rest];
      const kick = any & ~(1 << hp) & ~(1 << lp);
      return (2 << 20) | (hp << 16) | (lp << 12) | (kick !== 0 ? HB[kick] << 8 : 0);
    }
    return (1 << 20) | (hp << 16) | ((TOP5[any & ~(1 << hp)] >> 4) & 0xfff0);
  }
  return TOP5[any];
}

function bestSuit(s0: number, s1: number, s2: number, s3: number, r: number): number {
  const bit = 1 << r;
  return s3 & bit ? 3 : s2 & bit ? 2 : s1 & bit ? 1 : 0;
}

/** Korean (7포커) score from suit masks: suit order ♠ > ◆ > ♥ > ♣ breaks ties as §6.2 says. */
export function koreanFromMasks(s0: number, s1: number, s2: number, s3: number): number {
  let f = 0;
  let fs = 0;
  if (POP[s3] >= 5) {
    f = s3;
    fs = 3;
  } else if (POP[s2] >= 5) {
    f = s2;
    fs = 2;
  } else if (POP[s1] >= 5) {
    f = s1;
    fs = 1;
  } else if (POP[s0] >= 5) {
    f = s0;
    fs = 0;
  }
  if (f !== 0) {
    if ((f & ROYAL) === ROYAL) return (12 << 22) | fs;
    if ((f & WHEEL) === WHEEL) return (11 << 22) | fs;
    const sf = STRAIGHT[f];
    if (sf !== 0) return (10 << 22) | (sf << 18) | fs;
    return (7 << 22) | (TOP5[f] << 2) | fs;
  }
  const any = s0 | s1 | s2 | s3;
  const four = s0 & s1 & s2 & s3;
  if (four !== 0) return (9 << 22) | (HB[four] << 18);
  const two = (s0 & s1) | (s2 & s3) | ((s0 | s1) & (s2 | s3));
  const three = (s0 & s1 & (s2 | s3)) | (s2 & s3 & (s0 | s1));
  if (three !== 0 && (two & ~(1 << HB[three])) !== 0) return (8 << 22) | (HB[three] << 18);
  if ((any & ROYAL) === ROYAL) return (6 << 22) | bestSuit(s0, s1, s2, s3, 12);
  if ((any & WHEEL) === WHEEL) return (5 << 22) | bestSuit(s0, s1, s2, s3, 12);
  const st = STRAIGHT[any];
  if (st !== 0) return (4 << 22) | (st << 18) | bestSuit(s0, s1, s2, s3, st - 1);
  if (three !== 0) return (3 << 22) | (HB[three] << 18);
  if (two !== 0) {
    const hp = HB[two];
    const rest = two & ~(1 << hp);
    if (rest !== 0) return (2 << 22) | (hp << 18) | (HB[rest] << 14) | bestSuit(s0, s1, s2, s3, hp);
    return (1 << 22) | (hp << 18) | bestSuit(s0, s1, s2, s3, hp);
  }
  const top = HB[any];
  return (TOP5[any] << 2) | bestSuit(s0, s1, s2, s3, top);
}

/** Hot path: seven card codes, international score. */
export function evalIntl7(a: number, b: number, c: number, d: number, e: number, f: number, g: number): number {
  const lo = LO[a] | LO[b] | LO[c] | LO[d] | LO[e] | LO[f] | LO[g];
  const hi = HI[a] | HI[b] | HI[c] | HI[d] | HI[e] | HI[f] | HI[g];
  return intlFromMasks(lo & 0x1fff, lo >>> 13, hi & 0x1fff, hi >>> 13);
}

/** Hot path: seven card codes, Korean score. */
export function evalKorean7(a: number, b: number, c: number, d: number, e: number, f: number, g: number): number {
  const lo = LO[a] | LO[b] | LO[c] | LO[d] | LO[e] | LO[f] | LO[g];
  const hi = HI[a] | HI[b] | HI[c] | HI[d] | HI[e] | HI[f] | HI[g];
  return koreanFromMasks(lo & 0x1fff, lo >>> 13, hi & 0x1fff, hi >>> 13);
}

/** Any number of codes (indexes `idx` of `codes` if given). */
export function evalCodes(
  korean: boolean,
  codes: ArrayLike<number>,
  idx?: ArrayLike<number>,
  from = 0,
  n = -1,
): number {
  let lo = 0;
  let hi = 0;
  const count = n < 0 ? (idx ? idx.length : codes.length) : n;
  for (let i = 0; i < count; i++) {
    const c = idx ? codes[idx[from + i]] : codes[from + i];
    lo |= LO[c];
    hi |= HI[c];
  }
  return korean
    ? koreanFromMasks(lo & 0x1fff, lo >>> 13, hi & 0x1fff, hi >>> 13)
    : intlFromMasks(lo & 0x1fff, lo >>> 13, hi & 0x1fff, hi >>> 13);
}

export function intlCategory(score: number): Category {
  return INTL_CATEGORIES[score >>> 20];
}

export function koreanCategory(score: number): Category {
  return KOREAN_CATEGORIES[score >>> 22];
}

/** Korean name shown to players for a score of either variant. */
export function highName(korean: boolean, score: number): string {
  if (korean) {
    const cat = koreanCategory(score);
    return cat === 'highCard' ? '탑' : CATEGORY_NAME_KO[cat];
  }
  const cat = intlCategory(score);
  if (cat === 'straightFlush' && ((score >> 16) & 0xf) === 13) return '로열 스트레이트 플러시';
  return CATEGORY_NAME_KO[cat];
}
