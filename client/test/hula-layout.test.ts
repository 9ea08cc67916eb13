/**
 * 훌라 table layout (pure): at 390×844 portrait and 1440×900 landscape, for
 * 2–5 players and 1–14 cards in hand, nothing overlaps and nothing leaves the
 * screen (the HTML 규칙 button's rect included); the title keeps a usable
 * width; hand cards stay ≥ 48×68 with a tap target of their own; melds of a
 * busy table still fit their area.
 */
import { describe, expect, it } from 'vitest';
import { ACTION_SLOTS, barRects, computeHulaLayout, placeMelds, type Rect } from '../src/games/hula/layout.ts';

const SCREENS = [
  { name: 'portrait 390×844', width: 390, height: 844 },
  { name: 'landscape 1440×900', width: 1440, height: 900 },
  { name: 'small phone 360×640', width: 360, height: 640 },
  { name: 'big phone 430×932', width: 430, height: 932 },
  { name: 'phone landscape 844×390', width: 844, height: 390 },
  { name: 'phone landscape 932×430', width: 932, height: 430 },
  { name: 'tablet 820×1180', width: 820, height: 1180 },
  // What is left beside the open chat panel (styles.css --chat-band / --chat-side, issue 41 §1).
  { name: 'portrait beside the chat 390×644', width: 390, height: 644 },
  { name: 'desktop beside the chat 980×800', width: 980, height: 800 },
];

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const inside = (a: Rect, W: number, H: number) => a.x >= 0 && a.y >= 0 && a.x + a.w <= W && a.y + a.h <= H;

describe('hula layout', () => {
  for (const screen of SCREENS)
    it(`${screen.name}: no overlap, nothing off-screen, 2–5 players × 1–14 cards`, () => {
      for (let players = 2; players <= 5; players++)
        for (let handCount = 1; handCount <= 14; handCount++) {
          const l = computeHulaLayout({ ...screen, opponents: players - 1, handCount });
          const where = `${players} players, ${handCount} cards`;
          expect(l.opponents, where).toHaveLength(players - 1);
          expect(l.actions, where).toHaveLength(ACTION_SLOTS);
          expect(l.hand.slots, where).toHaveLength(handCount);
          const regions: [string, Rect][] = [
            ['title', l.title],
            ['rules', l.top.rules],
            ['sort', l.top.sort],
            ['leave', l.top.leave],
            ['exit', l.top.exit],
            ...l.opponents.map((r, i): [string, Rect] => [`opponent${i}`, r]),
            ['stock', l.stock],
            ['discard', l.discard],
            ['status', l.status],
            ['melds', l.melds],
            ['hand', l.hand.area],
            ...l.actions.map((r, i): [string, Rect] => [`action${i}`, r]),
          ];
          for (const [name, r] of regions) {
            expect(inside(r, screen.width, screen.height), `${where}: ${name} on screen`).toBe(true);
            expect(r.w > 0 && r.h > 0, `${where}: ${name} not empty`).toBe(true);
          }
          for (let i = 0; i < regions.length; i++)
            for (let j = i + 1; j < regions.length; j++)
              expect(overlaps(regions[i][1], regions[j][1]), `${where}: ${regions[i][0]} × ${regions[j][0]}`).toBe(
                false,
              );
          // The title keeps room for "괴물 훌라 · 1/1판" at a readable size beside the four top buttons.
          expect(l.title.w, `${where}: title width`).toBeGreaterThanOrEqual(110);
          // Pile labels ("덱 N장" left of the stock, "버린 카드 N장" right of the discard) need room.
          expect(l.stock.x, where).toBeGreaterThanOrEqual(60);
          expect(screen.width - (l.discard.x + l.discard.w), where).toBeGreaterThanOrEqual(80);
          // Hand: big enough cards, each with its own tap strip inside the hand area and screen.
          expect(l.hand.cardW, where).toBeGreaterThanOrEqual(48);
          expect(l.hand.cardH, where).toBeGreaterThanOrEqual(68);
          l.hand.slots.forEach((s, i) => {
            expect(inside(s.visible, screen.width, screen.height), `${where}: card ${i}`).toBe(true);
            expect(s.visible.w, `${where}: card ${i} tap strip`).toBeGreaterThanOrEqual(20);
            const a = l.hand.area;
            expect(s.visible.y >= a.y && s.visible.y + s.visible.h <= a.y + a.h, `${where}: card ${i} in hand`).toBe(
              true,
            );
            if (i > 0) expect(overlaps(s.visible, l.hand.slots[i - 1].visible), `${where}: card ${i}`).toBe(false);
          });
          // Buttons are big enough to hit with a thumb.
          for (const b of l.actions) expect(b.h, where).toBeGreaterThanOrEqual(44);
          // However many buttons the view lights (1–10), the centred bar stays on screen, clear of the hand.
          for (let n = 1; n <= ACTION_SLOTS; n++) {
            const bar = barRects(l, n);
            expect(bar, `${where}: ${n} buttons`).toHaveLength(n);
            bar.forEach((r, i) => {
              expect(inside(r, screen.width, screen.height), `${where}: ${n} buttons, #${i}`).toBe(true);
              expect(overlaps(r, l.hand.area), `${where}: ${n} buttons, #${i} × hand`).toBe(false);
              for (let j = 0; j < i; j++)
                expect(overlaps(r, bar[j]), `${where}: ${n} buttons, #${i} × #${j}`).toBe(false);
            });
          }
        }
    });

  it('melds of a crowded table (5 owners, 3 melds each, up to 6 cards) fit without overlapping', () => {
    for (const screen of SCREENS) {
      const l = computeHulaLayout({ ...screen, opponents: 4, handCount: 8 });
      const groups = Array.from({ length: 5 }, (_, o) => ({
        owner: `p${o}`,
        melds: Array.from({ length: 3 }, (_, m) => ({ id: o * 3 + m + 1, cards: 3 + ((o + m) % 4) })),
      }));
      const p = placeMelds(groups, l.melds);
      expect(p.fits, screen.name).toBe(true);
      const rects = [...p.labels.map((x) => x.rect), ...p.melds.map((x) => x.rect)];
      for (const r of rects) {
        expect(r.x >= l.melds.x && r.x + r.w <= l.melds.x + l.melds.w, screen.name).toBe(true);
        expect(r.y >= l.melds.y && r.y + r.h <= l.melds.y + l.melds.h, screen.name).toBe(true);
      }
      for (let i = 0; i < rects.length; i++)
        for (let j = i + 1; j < rects.length; j++) expect(overlaps(rects[i], rects[j]), screen.name).toBe(false);
    }
  });
});
