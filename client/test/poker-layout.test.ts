import { describe, expect, it } from 'vitest';
import { computePokerLayout, grid, inside, namedRects, overlaps } from '../src/games/poker/layout.ts';
import { raisePanelRects } from '../src/games/poker/raise-slider.ts';
import type { Rect } from '../src/table-kit/rect.ts';

const SCREENS: [number, number][] = [
  [390, 844],
  [1440, 900],
  [414, 896],
  [360, 640],
  [430, 932],
  [844, 390],
  [932, 430],
  [820, 1180],
  // What is left beside the open chat panel (styles.css --chat-band / --chat-side, issue 41 §1).
  [390, 644],
  [980, 800],
  [1180, 820],
];

describe('poker table layout', () => {
  for (const [width, height] of SCREENS)
    for (let seats = 2; seats <= 10; seats++)
      for (const spectator of [false, true])
        it(`${width}×${height}, ${seats} seats${spectator ? ', spectator' : ''}: nothing overlaps or leaves the screen`, () => {
          const opponents = spectator ? seats : seats - 1;
          for (const [myCards, board, usedPanel] of (spectator ? [0] : [2, 4, 5, 7]).flatMap((c) => [
            [c, true, false] as const,
            [c, false, false] as const,
            // 인디언 (1 or 2 cards, no board) with its used-card panel (§9).
            ...(c <= 2 ? [[c, false, true] as const] : []),
          ])) {
            const l = computePokerLayout({ width, height, opponents, myCards, spectator, board, usedPanel });
            // A phone on its side trades size for fit: smaller cards, seats and buttons (still tappable).
            const short = (width > height && height < 520) || height < 700;
            const screen = { x: 0, y: 0, w: width, h: height };
            const rects = namedRects(l, spectator);
            expect(l.seats).toHaveLength(opponents);
            for (const [name, r] of rects) {
              expect(inside(r, screen), `${name} on screen: ${JSON.stringify(r)}`).toBe(true);
              expect(r.w > 0 && r.h > 0, `${name} has a size`).toBe(true);
            }
            // A phone with three rows of seats has no middle to spare: its toasts stand on my hand's name.
            const byDesign = (a: string, b: string) => a === 'toasts' && b === 'hint';
            for (let i = 0; i < rects.length; i++)
              for (let j = i + 1; j < rects.length; j++)
                if (!byDesign(rects[i][0], rects[j][0]))
                  expect(
                    overlaps(rects[i][1], rects[j][1]),
                    `${rects[i][0]} overlaps ${rects[j][0]}: ${JSON.stringify(rects[i][1])} ${JSON.stringify(rects[j][1])}`,
                  ).toBe(false);
            for (const b of l.board) expect(inside(b, l.boardArea)).toBe(true);
            // The felt oval holds the middle and stays clear of seats, my strip and the bar.
            expect(inside(l.felt, screen)).toBe(true);
            for (const k of ['pot', 'board', 'status'] as const)
              expect(inside(k === 'board' ? l.boardArea : l[k], l.felt), `${k} on the felt`).toBe(true);
            for (const [name, r] of rects)
              if (!['pot', 'board', 'status', 'toasts', 'used'].includes(name))
                expect(overlaps(l.felt, r), `felt overlaps ${name}`).toBe(false);
            // My cards: inside the hand strip, at least 96 px tall (§9), each with a tappable part.
            expect(l.cards).toHaveLength(myCards);
            for (const c of l.cards) {
              expect(inside(c.rect, l.hand)).toBe(true);
              expect(c.rect.h).toBeGreaterThanOrEqual(short ? 64 : 96);
              expect(c.visible.w).toBeGreaterThanOrEqual(30);
            }
            // Seats are big enough for a name, a stack and a row of small cards.
            for (const s of l.seats) {
              expect(s.w).toBeGreaterThanOrEqual(short ? 76 : 100);
              expect(s.h).toBeGreaterThanOrEqual(short ? 64 : 80);
            }
            // poker §9 PC: the hand log and the 족보표 beside the round table, both right of the felt.
            if (width === 1440) {
              expect(l.log, 'hand log on a 1440 px screen').not.toBeNull();
              expect(l.ranks, '족보표 on a 1440 px screen').not.toBeNull();
              for (const r of [l.log!, l.ranks!]) expect(r.x).toBeGreaterThanOrEqual(l.felt.x + l.felt.w);
              // Tall enough for 13 rows of the Korean ranking at 16 px and wide enough for a name and an example.
              expect(l.ranks!.h).toBeGreaterThanOrEqual(13 * 16 + 32);
              expect(l.ranks!.w).toBeGreaterThanOrEqual(240);
            }
            if (width < 1000) expect(l.ranks, 'no 족보표 column on a phone or tablet').toBeNull();
            // poker §9 인디언: the used-card panel sits on the felt, clear of the foreheads, wide enough for 10 columns.
            if (usedPanel) {
              expect(l.used).not.toBeNull();
              expect(inside(l.used!, l.felt), 'used panel on the felt').toBe(true);
              expect(overlaps(l.used!, l.boardArea), 'used panel clear of the foreheads').toBe(false);
              // One row of the ten numbers, or (beside the foreheads, when the middle is short) two rows of five.
              expect(l.used!.w / (l.used!.h >= 44 ? 5 : 10)).toBeGreaterThanOrEqual(20);
              expect(l.used!.h).toBeGreaterThanOrEqual(26);
            } else expect(l.used).toBeNull();
            // Action bar: rows of buttons at least 56 px tall (§9).
            const rowH = (l.actions.h - (l.actionRows - 1) * 8) / l.actionRows;
            expect(rowH).toBeGreaterThanOrEqual(short ? 40 : 56);
            expect(l.boardArea.h).toBeGreaterThanOrEqual(short ? 36 : 56);
            // poker §9 NL/PL 슬라이더: the open raise panel's track and buttons stay in the bar, apart, and
            // off the table; the track is long enough to drag.
            if (!spectator) {
              const p = raisePanelRects(l.actions, l.actionRows, 4);
              const parts: [string, Rect][] = [
                ['slider', p.slider],
                ...p.cells.map((c, i): [string, Rect] => [`cell${i}`, c]),
              ];
              for (const [name, r] of parts) {
                expect(inside(r, l.actions), `${name} inside the bar`).toBe(true);
                expect(r.h).toBeGreaterThanOrEqual(short ? 40 : 56);
              }
              for (let i = 0; i < parts.length; i++)
                for (let j = i + 1; j < parts.length; j++)
                  expect(overlaps(parts[i][1], parts[j][1]), `${parts[i][0]} overlaps ${parts[j][0]}`).toBe(false);
              for (const [name, r] of rects)
                if (name !== 'actions') expect(overlaps(p.slider, r), `slider overlaps ${name}`).toBe(false);
              expect(p.slider.w).toBeGreaterThanOrEqual(130);
            }
          }
        });

  it('grid splits an area into cells that stay inside it and do not overlap', () => {
    const area = { x: 10, y: 20, w: 370, h: 184 };
    const cells = grid(area, 8, 4, 3);
    expect(cells).toHaveLength(8);
    for (const c of cells) expect(inside(c, area)).toBe(true);
    for (let i = 0; i < cells.length; i++)
      for (let j = i + 1; j < cells.length; j++) expect(overlaps(cells[i], cells[j])).toBe(false);
  });
});

describe('action bar cells', () => {
  it('a short last row spreads over the whole width', async () => {
    const { barCells } = await import('../src/games/poker/layout.ts');
    const area = { x: 8, y: 600, w: 374, h: 184 };
    const cells = barCells(area, 9, 4);
    expect(cells).toHaveLength(9);
    expect(cells[8].w).toBeCloseTo(374);
    expect(cells[8].y).toBeGreaterThan(cells[4].y);
    for (const c of cells) expect(inside(c, area)).toBe(true);
    for (let i = 0; i < cells.length; i++)
      for (let j = i + 1; j < cells.length; j++) expect(overlaps(cells[i], cells[j])).toBe(false);
  });
});
