import { describe, expect, it } from 'vitest';
import { MIN_CARD_H, MIN_CARD_W, computeLayout, slotBounds, type TableLayout } from '../src/games/one-card/layout.ts';
import { inside, overlaps, type Rect } from '../src/table-kit/rect.ts';

const SCREENS: [number, number][] = [
  [390, 844],
  [1440, 900],
  [360, 640],
  [414, 896],
  [1280, 720],
  [1920, 1080],
  [768, 1024],
  [430, 932],
  [844, 390],
  [932, 430],
  [1024, 768],
  // What is left beside the open chat panel (styles.css --chat-band / --chat-side, issue 41 §1).
  [390, 644],
  [980, 800],
];

function named(l: TableLayout, spectator: boolean): [string, Rect][] {
  const out: [string, Rect][] = [
    ['rules', l.menu.rules],
    ['settings', l.menu.settings],
    ['leave', l.menu.leave],
    ['chat', l.menu.chat],
    ['title', l.title],
    ...l.opponents.map((o, i) => [`opponent${i}`, o] as [string, Rect]),
    ['drawPile', l.drawPile],
    ['discard', l.discard],
    ['direction', l.direction],
    ['declared', l.declared],
    ['attack', l.attack],
    ['status', l.status],
    ['hint', l.hint],
  ];
  if (!spectator)
    out.push(
      ['me', l.me],
      ['sortSuit', l.sortSuit],
      ['sortRank', l.sortRank],
      ['declareToggle', l.declareToggle],
      ['draw', l.draw],
      ['play', l.play],
      ['oneCard', l.oneCard],
      ['hand', l.hand],
    );
  return out;
}

describe('table layout (§9 mobile portrait and desktop landscape)', () => {
  for (const [w, h] of SCREENS) {
    for (const spectator of [false, true]) {
      it(`${w}×${h}${spectator ? ' spectator' : ''}: nothing overlaps or leaves the screen, 1–9 opponents, 1–25 cards`, () => {
        const screen = { x: 0, y: 0, w, h };
        for (let opponents = 1; opponents <= (spectator ? 10 : 9); opponents++) {
          for (const handCount of spectator ? [0] : [1, 5, 7, 12, 19, 25]) {
            const l = computeLayout({ width: w, height: h, opponents, handCount, spectator });
            const items = named(l, spectator);
            for (const [name, rect] of items) {
              expect(inside(rect, screen), `${name} off-screen (${opponents} opp, ${handCount} cards)`).toBe(true);
              expect(rect.w > 0 && rect.h > 0, `${name} empty`).toBe(true);
            }
            for (let i = 0; i < items.length; i++)
              for (let j = i + 1; j < items.length; j++)
                expect(
                  overlaps(items[i][1], items[j][1]),
                  `${items[i][0]} overlaps ${items[j][0]} (${opponents} opp, ${handCount} cards)`,
                ).toBe(false);
            expect(l.cards).toHaveLength(handCount);
            expect(l.discard.h, 'discard pile too small').toBeGreaterThanOrEqual(MIN_CARD_H);
            expect(inside(l.declared, l.center) && inside(l.direction, l.center), 'pile chips leave the centre').toBe(
              true,
            );
            for (const slot of l.cards) {
              const b = slotBounds(slot, l.cardW, l.cardH);
              const lifted = { ...b, y: b.y - l.raise };
              expect(inside(lifted, screen), 'raised card off-screen').toBe(true);
              for (const [name, rect] of items)
                if (name !== 'hand') expect(overlaps(lifted, rect), `card overlaps ${name}`).toBe(false);
              expect(slot.visible.w).toBeGreaterThan(10);
              expect(slot.visible.h).toBeGreaterThan(10);
            }
          }
        }
      });
    }
  }

  it('§9 — hand cards are at least 48×68 px; phone portrait wraps to two rows, desktop keeps one', () => {
    const phone = computeLayout({ width: 390, height: 844, opponents: 3, handCount: 14, spectator: false });
    expect(phone.cardW).toBeGreaterThanOrEqual(MIN_CARD_W);
    expect(phone.cardH).toBeGreaterThanOrEqual(MIN_CARD_H);
    expect(new Set(phone.cards.map((c) => c.row)).size).toBe(2);
    const desk = computeLayout({ width: 1440, height: 900, opponents: 3, handCount: 25, spectator: false });
    expect(desk.cardW).toBeGreaterThanOrEqual(MIN_CARD_W);
    expect(new Set(desk.cards.map((c) => c.row)).size).toBe(1);
  });

  it('visible tap areas of different cards never overlap (a tap hits exactly one card)', () => {
    for (const [w, h] of SCREENS)
      for (const n of [2, 7, 13, 25]) {
        const l = computeLayout({ width: w, height: h, opponents: 3, handCount: n, spectator: false });
        for (let i = 0; i < n; i++)
          for (let j = i + 1; j < n; j++) expect(overlaps(l.cards[i].visible, l.cards[j].visible)).toBe(false);
      }
  });
});
