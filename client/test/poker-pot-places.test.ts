/**
 * The pot row's words and its chip stacks keep apart (pot-places.ts): on every screen the layout test
 * covers, the chips sit inside the pot row, inside the felt oval, and clear of the words' rectangle.
 */
import { describe, expect, it } from 'vitest';
import { computePokerLayout, inside, overlaps } from '../src/games/poker/layout.ts';
import { potPlaces } from '../src/games/poker/pot-places.ts';

const SCREENS: [number, number][] = [
  [390, 844],
  [1440, 900],
  [360, 640],
  [430, 932],
  [844, 390],
  [1180, 820],
];

describe('pot row: words and chips apart', () => {
  for (const [width, height] of SCREENS)
    it(`${width}×${height}`, () => {
      for (let opponents = 1; opponents <= 9; opponents++)
        for (const board of [true, false]) {
          const l = computePokerLayout({ width, height, opponents, myCards: 2, board });
          const { words, chips } = potPlaces(l);
          const at = `${opponents} opponents, board ${board}: ${JSON.stringify({ words, chips, pot: l.pot })}`;
          expect(overlaps(words, chips), at).toBe(false);
          expect(inside(words, l.pot), at).toBe(true);
          expect(chips.x >= l.pot.x && chips.x + chips.w <= l.pot.x + l.pot.w, at).toBe(true);
          // The chip stack's centre is inside the felt oval.
          const cx = chips.x + chips.w / 2 - (l.felt.x + l.felt.w / 2);
          const cy = chips.y + chips.h / 2 - (l.felt.y + l.felt.h / 2);
          expect((cx / (l.felt.w / 2)) ** 2 + (cy / (l.felt.h / 2)) ** 2, at).toBeLessThan(1);
          // The words keep room for a headline ("봇 민수 +80칩 · K 원페어" ≈ 185 px at 18 px; one line, it shrinks to 15 px in 160 px).
          expect(words.w, at).toBeGreaterThanOrEqual(160);
        }
    });
});
