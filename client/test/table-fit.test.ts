/**
 * All three tables at the smallest phone portrait (360×640) and phone
 * landscape (844×390) sizes, at every player count the game allows (issue 16
 * §2), rendered in Chromium from engines running in the page: every label
 * the scene shows (window.__joke.labels()) stays on the screen, no two labels
 * lie on top of each other, no word-wrap leaves a lone bracket on its own
 * line, and for the poker table every layout rectangle is clear of the
 * others. One page per player count, turned from portrait to landscape; every
 * wait is on the hook's state.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inside, overlaps } from '../src/table/layout.ts';
import { namedRects, type PokerLayout } from '../src/poker/layout.ts';
import type { ShownLabel } from '../src/table/labels.ts';
import { launchBrowser } from './support/browser.ts';
import { startHarnessServer, type HarnessServer } from './support/harness-server.ts';
import { waitFor } from './support/table-driver.ts';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
const PORTRAIT = { width: 360, height: 640 };
const LANDSCAPE = { width: 844, height: 390 };

let server: HarnessServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;

/** Frozen tables (bots=0) a few moves in: every seat dealt, the bar showing my choices. */
const TABLES = {
  onecard: { scene: 'table', players: [2, 3, 4, 5, 6, 7, 8, 9, 10], query: 'mode=classic&bots=0&warmup=6' },
  poker: { scene: 'poker', players: [2, 3, 4, 5, 6, 7, 8, 9, 10], query: 'game=poker&mode=holdem&bots=0' },
  // 7포커 seats at most 6.
  seven: { scene: 'poker', players: [2, 4, 6], query: 'game=poker&mode=sevenPoker&bots=0' },
  hula: { scene: 'hula', players: [2, 3, 4, 5], query: 'game=hula&bots=0' },
} as const;

type Hook = Record<string, any> & { labels: ShownLabel[]; width: number; height: number };

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startHarnessServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
}, 120_000);

afterAll(async () => {
  await closeBrowser?.();
  await server?.close();
});

const hookOf = async (page: Page) =>
  (await page.evaluate(() => ({ ...window.__joke!.layout(), labels: window.__joke!.labels() }))) as Hook;

/** Waits until the table is drawn at this viewport (the hook's size follows the resize). */
async function drawnAt(page: Page, scene: string, vp: { width: number; height: number }, what: string) {
  return waitFor(
    what,
    async () => {
      const s = await hookOf(page);
      return s.scene === scene && s.frames > 0 && s.width === vp.width && s.height === vp.height ? s : null;
    },
    120_000,
  );
}

/** What a player would see wrong: a label off the screen, two labels on top of each other, a lone bracket line. */
function labelProblems(hook: Hook): string[] {
  const screen = { x: 0, y: 0, w: hook.width, h: hook.height };
  // Half a pixel of font rounding is not an overlap.
  const shrink = (l: ShownLabel) => ({ x: l.x + 0.5, y: l.y + 0.5, w: l.w - 1, h: l.h - 1 });
  const grow = { x: -1, y: -1, w: screen.w + 2, h: screen.h + 2 };
  const out: string[] = [];
  const labels = hook.labels;
  for (const l of labels) {
    if (!inside(shrink(l), grow)) out.push(`off screen: "${l.text}" ${JSON.stringify(shrink(l))}`);
    for (const line of l.lines)
      if (line !== '' && !/[\p{L}\p{N}]/u.test(line)) out.push(`lone "${line}" in "${l.text.replace(/\n/g, '⏎')}"`);
  }
  for (let i = 0; i < labels.length; i++)
    for (let j = i + 1; j < labels.length; j++)
      if (overlaps(shrink(labels[i]), shrink(labels[j])))
        out.push(`"${labels[i].text.replace(/\n/g, '⏎')}" × "${labels[j].text.replace(/\n/g, '⏎')}"`);
  return out;
}

function pokerRectProblems(hook: Hook): string[] {
  const l = hook.layoutRects as PokerLayout;
  const screen = { x: 0, y: 0, w: l.width, h: l.height };
  const rects = namedRects(l, false);
  const out: string[] = [];
  for (const [name, r] of rects) if (!inside(r, screen)) out.push(`${name} off screen`);
  for (let i = 0; i < rects.length; i++)
    for (let j = i + 1; j < rects.length; j++)
      if (overlaps(rects[i][1], rects[j][1])) out.push(`${rects[i][0]} × ${rects[j][0]}`);
  return out;
}

describe('every table fits the phone at every player count (portrait 360×640, landscape 844×390)', () => {
  for (const game of Object.keys(TABLES) as (keyof typeof TABLES)[]) {
    const t = TABLES[game];
    it(`${game}: ${t.players.join(', ')} players`, async () => {
      const problems: string[] = [];
      for (const players of t.players) {
        const page = await browser.newPage({ viewport: PORTRAIT, deviceScaleFactor: 1 });
        page.on('pageerror', (e) => console.error(`[page error] ${e.stack ?? e.message}`));
        try {
          await page.goto(`${server.base}/harness.html?${t.query}&players=${players}&seed=fit-${players}`);
          for (const [name, vp] of [
            ['portrait', PORTRAIT],
            ['landscape', LANDSCAPE],
          ] as const) {
            await page.setViewportSize(vp);
            const hook = await drawnAt(page, t.scene, vp, `${game} ${players}p ${name}`);
            expect(hook.labels.length, `${game} ${players}p ${name}: labels shown`).toBeGreaterThan(3);
            const found = [...labelProblems(hook), ...(t.scene === 'poker' ? pokerRectProblems(hook) : [])];
            for (const p of found) problems.push(`${players}p ${name}: ${p}`);
            if (found.length || players === t.players[t.players.length - 1])
              await page.screenshot({ path: `${SHOTS}fit-${game}-${players}p-${name}.png` });
          }
        } finally {
          await page.close();
        }
      }
      expect(problems).toEqual([]);
    }, 300_000);
  }
});
