/**
 * The pot row holds two things that must not share a place: the pot's words ("팟 300", and at a hand's
 * end the winner line "봇 민수 +300 · 4 원페어") and the chip stacks that fly in from the bettors and leave
 * for the winners. The words keep to the middle of the row; the chips gather at the row's right end, low
 * in it, where the felt oval is wide enough to hold them. A pure function of the layout; a layout whose
 * felt is flatter than the pot row still gets a spot inside the row (never NaN, never off the row).
 */
import type { PokerLayout, Rect } from './layout.ts';

/** Room the chip stack takes either side of its centre (three 11 px chips, the amount under them). */
const CHIP_HALF = 22;

/** Half the width of the felt oval at height `y` (0 above or below it). */
function feltHalfWidth(felt: Rect, y: number): number {
  const a = felt.w / 2;
  const b = felt.h / 2;
  const dy = (y - (felt.y + b)) / b;
  return dy * dy >= 1 ? 0 : a * Math.sqrt(1 - dy * dy);
}

export function potPlaces(l: Pick<PokerLayout, 'pot' | 'felt'>): { words: Rect; chips: Rect } {
  const { pot } = l;
  const cx = pot.x + pot.w / 2;
  const y = pot.y + pot.h * 0.8;
  const half = Math.max(2 * CHIP_HALF, Math.min(pot.w / 2, feltHalfWidth(l.felt, y)));
  const chipsX = cx + half - CHIP_HALF;
  // The stack's chips reach 11 px and its amount ≈ 15 px either side of its centre: the words stop 3 px short.
  const wordsHalf = Math.max(CHIP_HALF, half - CHIP_HALF - 18);
  return {
    words: { x: cx - wordsHalf, y: pot.y, w: 2 * wordsHalf, h: pot.h },
    chips: { x: chipsX - 11, y: y - 11, w: 22, h: 22 },
  };
}
