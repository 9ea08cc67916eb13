/**
 * Low badugi (§6.4): the largest subset of the four cards with no shared rank
 * and no shared suit decides the grade (made 4 > base 3 > two-base 2 > no-base 1);
 * within a grade, the lowest such subset compared from its highest card wins.
 * The ace is 1 and suits have no order, so equal ranks split.
 */
import { combos } from './tables.ts';
import { lowValue } from './low.ts';

const SUBSETS: Uint8Array[] = [combos(4, 4), combos(4, 3), combos(4, 2), combos(4, 1)];

export interface BadugiHand {
  size: number;
  /** Low values of the chosen cards, highest first. */
  values: number[];
  /** Indices (into the input) of the chosen cards. */
  picked: number[];
  /** Higher is better. */
  score: number;
}

export function badugiScore(codes: ArrayLike<number>, out?: number[]): number {
  for (let g = 0; g < 4; g++) {
    const k = 4 - g;
    const table = SUBSETS[g];
    let bestKey = Infinity;
    let bestAt = -1;
    for (let at = 0; at < table.length; at += k) {
      let ranks = 0;
      let suits = 0;
      let ok = true;
      for (let i = 0; i < k; i++) {
        const c = codes[table[at + i]];
        const rb = 1 << lowValue(c);
        const sb = 1 << (c & 3);
        if (ranks & rb || suits & sb) {
          ok = false;
          break;
        }
        ranks |= rb;
        suits |= sb;
      }
      if (!ok) continue;
      let key = 0;
      for (let v = 13; v >= 1; v--) if (ranks & (1 << v)) key = (key << 4) | v;
      key <<= 4 * (4 - k);
      if (key < bestKey) {
        bestKey = key;
        bestAt = at;
      }
    }
    if (bestAt >= 0) {
      if (out) {
        out.length = 0;
        for (let i = 0; i < k; i++) out.push(table[bestAt + i]);
      }
      return k * 0x10000 + (0xffff - bestKey);
    }
  }
  return 0;
}

export function badugiHand(codes: ArrayLike<number>): BadugiHand {
  const picked: number[] = [];
  const score = badugiScore(codes, picked);
  const values = picked.map((i) => lowValue(codes[i])).sort((a, b) => b - a);
  return { size: picked.length, values, picked, score };
}

const LABEL = ['', 'A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];

export function badugiName(h: BadugiHand): string {
  const v = h.values;
  if (h.size === 4) {
    const key = v.join('-');
    if (key === '4-3-2-1') return '골프';
    if (key === '5-3-2-1') return '세컨드';
    if (key === '5-4-2-1') return '써드';
    return `${LABEL[v[0]]} 메이드`;
  }
  if (h.size === 3) return `${LABEL[v[0]]} 베이스`;
  if (h.size === 2) return '투베이스';
  return '노베이스';
}
