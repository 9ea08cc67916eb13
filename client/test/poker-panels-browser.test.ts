/**
 * The 포커 side panels of spec poker.md §9 in Chromium, on tables run from the
 * engine in the page (harness): 인디언's used-card panel on a phone (portrait
 * and on its side) and on PC, filled from the hands the bots played; and the
 * PC column with the hand log and the 족보표 of the mode being played, clear
 * of the seats, the felt and the action bar. Every wait is on the test hook;
 * screenshots land in test-results/screenshots/panels-*.png to be looked at.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Rect } from '../src/table-kit/rect.ts';
import { inside, overlaps } from '../src/table-kit/rect.ts';
import type { ShownLabel } from '../src/table-kit/labels.ts';
import type { HarnessServer } from './support/harness-server.ts';
import { onHarnessBrowser, SHOTS } from './support/browser-stack.ts';
import { labelProblems } from './support/label-check.ts';
import { waitFor } from './support/table-driver.ts';

let server: HarnessServer;
let browser: Browser;
onHarnessBrowser((s, b) => {
  server = s;
  browser = b;
});

interface Hook {
  scene: string;
  frames: number;
  width: number;
  phase: string | null;
  handNo: number;
  labels: ShownLabel[];
  height: number;
  layoutRects: Record<string, Rect | Rect[] | null> & { seats: Rect[]; felt: Rect; actions: Rect };
  used: { label: string; boxes: string[] }[] | null;
  ranks: { title: string; rows: { name: string }[]; low?: unknown } | null;
}

async function open(query: string, viewport: { width: number; height: number }, until: (h: Hook) => boolean) {
  const page = await browser.newPage({ viewport, deviceScaleFactor: 2 });
  page.on('pageerror', (e) => console.error(`[page error] ${e.stack ?? e.message}`));
  await page.goto(`${server.base}/harness.html?${query}`);
  const hook = await waitFor(
    `poker table (${query}) at ${viewport.width}×${viewport.height}`,
    async () => {
      const s = (await page.evaluate(() => ({
        ...window.__joke!.layout(),
        labels: window.__joke!.labels(),
      }))) as unknown as Hook;
      return s.scene === 'poker' && s.frames > 0 && s.width === viewport.width && until(s) ? s : null;
    },
    120_000,
  ).catch(async (e: unknown) => {
    await page.close();
    throw e;
  });
  return [page, hook] as [Page, Hook];
}

/** Bots play every seat (mine too) and stop in a hand being bet once two hands' cards are used. */
const INDIAN = 'game=poker&mode=indian&players=4&bots=15&autoplay=1&pause=indianUsed&seed=panels';
const used = (h: Hook) => h.used?.reduce((n, c) => n + c.boxes.filter((b) => b === 'used').length, 0) ?? 0;

describe('poker §9 인디언: 사용된 카드 패널 in the browser', () => {
  const SIZES = [
    { width: 390, height: 844, name: 'phone' },
    { width: 844, height: 390, name: 'landscape' },
    { width: 1440, height: 900, name: 'pc' },
  ];
  for (const size of SIZES)
    it(`${size.name} ${size.width}×${size.height}: 1–10 with two boxes each, the used cards filled, clear of everything`, async () => {
      const [page, hook] = await open(INDIAN, size, (h) => h.phase === 'betting' && used(h) >= 8);
      try {
        await page.screenshot({ path: `${SHOTS}panels-indian-${size.name}.png` });
        expect(hook.used!.map((c) => c.label)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
        expect(hook.used!.every((c) => c.boxes.length === 2)).toBe(true);
        // Three opponents' foreheads are on the table now and marked apart from the used pile.
        expect(hook.used!.flatMap((c) => c.boxes).filter((b) => b === 'table')).toHaveLength(3);
        const r = hook.layoutRects;
        const panel = r.used as Rect;
        expect(inside(panel, r.felt), 'on the felt').toBe(true);
        for (const [name, other] of [
          ['foreheads', r.boardArea as Rect],
          ['actions', r.actions],
          ['me', r.me as Rect],
          ...r.seats.map((s, i) => [`seat${i}`, s] as const),
        ] as const)
          expect(overlaps(panel, other), `used panel × ${name}`).toBe(false);
        // Its numbers and legend are on screen and on nothing else (the large-text rules of table-fit).
        const mine = hook.labels.filter((l) => inside({ x: l.x + 1, y: l.y + 1, w: l.w - 2, h: l.h - 2 }, panel));
        expect(mine.map((l) => l.text)).toEqual(expect.arrayContaining(['1', '10', '지난 판', '이번 판']));
        expect(labelProblems(hook.labels, hook.width, hook.height)).toEqual([]);
      } finally {
        await page.close();
      }
    });
});

describe('poker §9 PC: 핸드 기록·족보표 beside the round table', () => {
  const MODES: [string, string, number][] = [
    ['holdem', '족보표', 9],
    ['sevenPoker', '한국식', 13],
    ['sevenHiLo', '하이', 13],
    ['badugi', '바둑이', 7],
  ];
  for (const [mode, title, rows] of MODES)
    it(`${mode}: the ranking of the mode right of the felt, under the hand log, clear of seats and buttons`, async () => {
      const [page, hook] = await open(
        `game=poker&mode=${mode}&players=6&bots=0&seed=panels`,
        { width: 1440, height: 900 },
        (h) => h.ranks !== null,
      );
      try {
        await page.screenshot({ path: `${SHOTS}panels-pc-${mode}.png` });
        expect(hook.ranks!.title).toContain(title);
        expect(hook.ranks!.rows).toHaveLength(rows);
        if (mode === 'sevenHiLo') expect(hook.ranks!.low).toBeTruthy();
        const r = hook.layoutRects;
        const [log, ranks, felt] = [r.log as Rect, r.ranks as Rect, r.felt];
        expect(log.y + log.h).toBeLessThanOrEqual(ranks.y);
        for (const p of [log, ranks]) {
          expect(p.x).toBeGreaterThanOrEqual(felt.x + felt.w);
          expect(overlaps(p, r.actions)).toBe(false);
          for (const s of r.seats) expect(overlaps(p, s)).toBe(false);
        }
        // Every row name is drawn inside the panel, and no label of the table is clipped or on another.
        const shown = hook.labels.filter((l) => inside({ x: l.x + 1, y: l.y + 1, w: l.w - 2, h: l.h - 2 }, ranks));
        for (const row of hook.ranks!.rows)
          expect(
            shown.some((l) => l.text.includes(row.name)),
            row.name,
          ).toBe(true);
        expect(labelProblems(hook.labels, hook.width, hook.height)).toEqual([]);
      } finally {
        await page.close();
      }
    });
});
