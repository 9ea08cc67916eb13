/**
 * 7포커 하이로우 low hands (§6.3). The ace counts 1. `korean` forbids five
 * cards that form a straight (A-2-3-4-5 is the only one with an ace,
 * clarification 14) or a flush; `aceToFive` ignores both. Lower is better,
 * compared from the highest card down; the suit of the highest card breaks a
 * tie in both styles (clarification 15), so lows never tie.
 *
 * Score: higher is better; -1 means "no low".
 */
import { combos } from './tables.ts';

export type LowStyle = 'korean' | 'aceToFive';
export type LowQualifier = 'none' | 'eight';

const C75 = combos(7, 5);
const C65 = combos(6, 5);

/** Low value of a card code: A=1, 2=2 … K=13. */
const LV = new Uint8Array(52);
for (let code = 0; code < 52; code++) LV[code] = (((code >> 2) + 1) % 13) + 1;

/** Score of five codes at `idx`, or -1 if they are not a valid low. */
function lowOfFive(
  codes: ArrayLike<number>,
  idx: ArrayLike<number>,
  at: number,
  korean: boolean,
  eight: boolean,
): number {
  let seen = 0;
  let suitAll = -2;
  for (let i = 0; i < 5; i++) {
    const c = codes[idx[at + i]];
    const bit = 1 << LV[c];
    if (seen & bit) return -1;
    seen |= bit;
    const s = c & 3;
    suitAll = suitAll === -2 ? s : suitAll === s ? s : -1;
  }
  // seen has 5 bits among 1..13; the highest is the top card.
  let top = 13;
  while (!(seen & (1 << top))) top--;
  if (eight && top > 8) return -1;
  if (korean) {
    if (suitAll >= 0) return -1;
    const low = seen & -seen;
    if (seen === low * 0b11111) return -1;
  }
  // Pack the five values high-to-low, invert so lower lows score higher, then the top card's suit.
  let packed = 0;
  for (let v = 13; v >= 1; v--) if (seen & (1 << v)) packed = (packed << 4) | v;
  let topSuit = 0;
  for (let i = 0; i < 5; i++) {
    const c = codes[idx[at + i]];
    if (LV[c] === top) topSuit = c & 3;
  }
  return ((0xfffff - packed) << 2) | topSuit;
}

const IDENTITY = Uint8Array.from([0, 1, 2, 3, 4]);

/** Best low among 5 to 7 card codes; returns the score and writes the chosen indices to `out` if given. */
export function lowScore(codes: ArrayLike<number>, style: LowStyle, qualifier: LowQualifier, out?: number[]): number {
  const n = codes.length;
  const table = n === 7 ? C75 : n === 6 ? C65 : n === 5 ? IDENTITY : null;
  if (!table) return -1;
  const korean = style === 'korean';
  const eight = qualifier === 'eight';
  let best = -1;
  let bestAt = -1;
  for (let at = 0; at < table.length; at += 5) {
    const s = lowOfFive(codes, table, at, korean, eight);
    if (s > best) {
      best = s;
      bestAt = at;
    }
  }
  if (out && bestAt >= 0) {
    out.length = 0;
    for (let i = 0; i < 5; i++) out.push(table[bestAt + i]);
  }
  return best;
}

/** Low value (A=1 … K=13) of a code, for sorting and naming. */
export function lowValue(code: number): number {
  return LV[code];
}

const LOW_LABEL = ['', 'A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];

/** "7탑 로우" style name from the top low value. */
export function lowName(topValue: number): string {
  return `${LOW_LABEL[topValue]}탑 로우`;
}
