/**
 * Lookup tables over 13-bit rank masks (bit r = rank index r, 0 = deuce …
 * 12 = ace), built once at import. Evaluating a hand is then a handful of
 * bitwise operations and table reads with no allocation.
 */

/** Number of set bits. */
export const POP = new Uint8Array(8192);
/** Index of the highest set bit (0 for an empty mask; callers never ask). */
export const HB = new Uint8Array(8192);
/** The top five set bits packed as r1<<16 | r2<<12 | r3<<8 | r4<<4 | r5 (fewer bits: missing slots are 0). */
export const TOP5 = new Int32Array(8192);
/** 1 + top rank index of the highest straight in the mask (wheel A-5 → 4), 0 if none. */
export const STRAIGHT = new Uint8Array(8192);

/** Per card code: its bit in a 26-bit word holding suits 0,1 (LO) or suits 2,3 (HI). */
export const LO = new Int32Array(52);
export const HI = new Int32Array(52);

export const WHEEL = 0b1_0000_0000_1111; // A,5,4,3,2
export const ROYAL = 0b1_1111_0000_0000; // A,K,Q,J,T

for (let m = 1; m < 8192; m++) {
  POP[m] = POP[m >> 1] + (m & 1);
  HB[m] = m === 1 ? 0 : HB[m >> 1] + 1;
  let packed = 0;
  let taken = 0;
  for (let r = 12; r >= 0 && taken < 5; r--) {
    if (m & (1 << r)) {
      packed |= r << (16 - 4 * taken);
      taken++;
    }
  }
  TOP5[m] = packed;
  let st = 0;
  for (let top = 12; top >= 4; top--) {
    const run = 0b11111 << (top - 4);
    if ((m & run) === run) {
      st = top + 1;
      break;
    }
  }
  if (st === 0 && (m & WHEEL) === WHEEL) st = 4;
  STRAIGHT[m] = st;
}
for (let code = 0; code < 52; code++) {
  const r = code >> 2;
  const s = code & 3;
  if (s < 2) LO[code] = 1 << (r + 13 * s);
  else HI[code] = 1 << (r + 13 * (s - 2));
}

/** All k-subsets of n indices, as flat arrays (built once). */
export function combos(n: number, k: number): Uint8Array {
  const out: number[] = [];
  const pick: number[] = [];
  const rec = (start: number): void => {
    if (pick.length === k) {
      out.push(...pick);
      return;
    }
    for (let i = start; i < n; i++) {
      pick.push(i);
      rec(i + 1);
      pick.pop();
    }
  };
  rec(0);
  return Uint8Array.from(out);
}
