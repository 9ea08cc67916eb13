/**
 * All three tables at the smallest phone portrait (360×640) and phone
 * landscape (844×390) sizes, at every player count the game allows (issue 16
 * §2), rendered in Chromium from engines running in the page: every label
 * the scene shows (window.__joke.labels()) stays on the screen, no two labels
 * lie on top of each other, no word-wrap leaves a lone bracket on its own
 * line, and for the poker table every layout rectangle is clear of the
 * others. The 훌라 table's HTML 규칙 button is checked against the title's
 * drawn bounds, every label and the top buttons, also at 390×844 and a
 * desktop size for 2 and 5 players. One page per player count, turned from portrait to landscape; every
 * wait is on the hook's state.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { inside, overlaps } from '../src/table-kit/rect.ts';
import { namedRects, type PokerLayout } from '../src/games/poker/layout.ts';
import type { ShownLabel } from '../src/table-kit/labels.ts';
import type { HarnessServer } from './support/harness-server.ts';
import { onHarnessBrowser, SHOTS } from './support/browser-stack.ts';
import { waitFor } from './support/table-driver.ts';

const PORTRAIT = { width: 360, height: 640 };
const LANDSCAPE = { width: 844, height: 390 };
type Viewport = { width: number; height: number };
const PHONE_SIZES: [string, Viewport][] = [
  ['portrait', PORTRAIT],
  ['landscape', LANDSCAPE],
];
/** The 훌라 table's HTML 규칙 button is also checked on a bigger phone and a desktop, at 2 and 5 players. */
const HULA_RULES_SIZES: [string, Viewport][] = [
  ['portrait', PORTRAIT],
  ['portrait390', { width: 390, height: 844 }],
  ['landscape', LANDSCAPE],
  ['desktop', { width: 1280, height: 800 }],
];

let server: HarnessServer;
let browser: Browser;
onHarnessBrowser((s, b) => {
  server = s;
  browser = b;
});

/** Frozen tables (bots=0) a few moves in: every seat dealt, the bar showing my choices. */
const TABLES = {
  onecard: { scene: 'table', players: [2, 3, 4, 5, 6, 7, 8, 9, 10], query: 'mode=classic&bots=0&warmup=6' },
  poker: { scene: 'poker', players: [2, 3, 4, 5, 6, 7, 8, 9, 10], query: 'game=poker&mode=holdem&bots=0' },
  // 7포커 seats at most 6.
  seven: { scene: 'poker', players: [2, 4, 6], query: 'game=poker&mode=sevenPoker&bots=0' },
  // The longest title the 훌라 top bar holds: points in five figures and the 등록 mark.
  hula: { scene: 'hula', players: [2, 3, 4, 5], query: 'game=hula&bots=0&prepare=longTitle' },
} as const;

type Hook = Record<string, any> & { labels: ShownLabel[]; width: number; height: number };

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

/** What a player would see wrong: a label off the screen, two labels on top of each other, a lone bracket line, a word cut in two. */
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
    // A line may break between words, never inside one ("가져오 / 기").
    for (const word of l.text.split(/\s+/).filter(Boolean))
      if (!l.lines.some((line) => line.includes(word))) out.push(`broken word "${word}" in "${l.lines.join('⏎')}"`);
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
  // As in poker-layout.test.ts: a phone with three rows of seats has no middle to spare, and its toasts'
  // band stands on my hand's name (the hint) — by design, the one pair allowed to meet.
  const byDesign = (a: string, b: string) => a === 'toasts' && b === 'hint';
  for (let i = 0; i < rects.length; i++)
    for (let j = i + 1; j < rects.length; j++)
      if (!byDesign(rects[i][0], rects[j][0]) && overlaps(rects[i][1], rects[j][1]))
        out.push(`${rects[i][0]} × ${rects[j][0]}`);
  return out;
}

type Box = { x: number; y: number; w: number; h: number };

/**
 * The HTML 규칙 button over the 훌라 canvas: shown, on the screen, clear of
 * every label the table draws (the title first of all) and of the top bar's
 * canvas buttons; and the title's drawn text keeps to its layout rect.
 */
function rulesButtonProblems(hook: Hook): string[] {
  const rules = hook.rules as Box | null;
  if (!rules) return ['규칙 button not shown'];
  // The hook's table rects are canvas pixels; the button's is the page's.
  const page = (r: Box): Box => ({ ...r, x: r.x + hook.canvas.left, y: r.y + hook.canvas.top });
  const shrink = (r: Box) => ({ x: r.x + 0.5, y: r.y + 0.5, w: r.w - 1, h: r.h - 1 });
  const out: string[] = [];
  if (!inside(shrink(rules), { x: 0, y: 0, w: hook.width, h: hook.height })) out.push('규칙 button off screen');
  for (const l of hook.labels)
    if (overlaps(shrink(rules), shrink(page(l))))
      out.push(`규칙 button × "${l.text.replace(/\n/g, '⏎')}" ${JSON.stringify(rules)}`);
  for (const key of ['sort', 'leave', 'exit']) {
    const b = hook.buttons[key] as Box & { visible: boolean };
    if (b.visible && overlaps(shrink(rules), shrink(page(b)))) out.push(`규칙 button × ${key} button`);
  }
  const title = hook.title as Box & { text: string; box: Box };
  if (!title.text) out.push('no title');
  if (!inside(shrink(title), { x: title.box.x - 1, y: title.box.y - 1, w: title.box.w + 2, h: title.box.h + 2 }))
    out.push(`title "${title.text.replace(/\n/g, '⏎')}" ${JSON.stringify(shrink(title))} outside its rect`);
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
          const edge = players === t.players[0] || players === t.players[t.players.length - 1];
          const sizes = game === 'hula' && edge ? HULA_RULES_SIZES : PHONE_SIZES;
          for (const [name, vp] of sizes) {
            await page.setViewportSize(vp);
            const hook = await drawnAt(page, t.scene, vp, `${game} ${players}p ${name}`);
            expect(hook.labels.length, `${game} ${players}p ${name}: labels shown`).toBeGreaterThan(3);
            const found = [
              ...labelProblems(hook),
              ...(t.scene === 'poker' ? pokerRectProblems(hook) : []),
              ...(game === 'hula' ? rulesButtonProblems(hook) : []),
            ];
            for (const p of found) problems.push(`${players}p ${name}: ${p}`);
            if (found.length || players === t.players[t.players.length - 1] || (game === 'hula' && edge))
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
