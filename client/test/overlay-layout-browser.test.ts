/**
 * Issue 41 §1 "a layout that never covers", in Chromium: for every table
 * (원카드 classic and colour mode, 홀덤, 7포커, 인디언, 훌라), its fewest and
 * most seats, and every supported size (360×640, 390×844 at DPR 3, 844×390,
 * 1280×800), the test hook's `overlayCheck` lists where each overlay stands —
 * the chat button, the chat panel once opened, the toast area, the emote
 * bubble of every seat, the rules button and the result sheet — and what it
 * must not cover: cards, seats, piles, community cards and buttons. No
 * overlay rectangle may meet one of those.
 *
 * Allowances, by design: an emote pops on its sender's own seat (it is that
 * player's face for 2.5 s); the result sheet is modal (it dims the table), so
 * while it is up only what floats over it — the chat button, the chat panel
 * and the rules button — is checked against it; and on a portrait phone with
 * no height to spare for the panel's band (360×640) the open chat panel is a
 * sheet over the dimmed table too, which only the chat button is checked
 * against. Everywhere else the open panel has its band and the table lays
 * itself out beside it.
 *
 * Tables run from engines in the page (harness, `chat=1` adds the chat
 * overlay); every wait is on the hook. One page per table, seat count and
 * device pixel ratio (a context's ratio is fixed) is turned to each of its
 * sizes with `setViewportSize`, as a phone turning: a turned page lays out as
 * a fresh load at that size does (every rectangle of the hook compared,
 * docs/measurements/tests.md 2026-12-07), and a load cost 5–10 s here. A
 * size is checked once the table has laid itself out for the page's box
 * (`laidOut`), not after a sleep. Screenshots of each table at 390×844
 * and 844×390 land in test-results/screenshots/overlay-<table>-<size>.png.
 *
 * Failure modes: a test that fails leaves its page to the next size of the
 * group; each size first closes a chat panel left open, so a failure stays in
 * its own test. A page whose load failed is loaded again by the next size.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { overlaps, type Rect } from '../src/table-kit/rect.ts';
import type { Named, OverlayReport } from '../src/table-kit/overlay-report.ts';
import type { HarnessServer } from './support/harness-server.ts';
import { onHarnessBrowser, SHOTS } from './support/browser-stack.ts';
import { waitFor } from './support/table-driver.ts';

/** The sizes of one device pixel ratio stand together: their tests share a page, opened and closed once. */
const SIZES = {
  '360x640': { width: 360, height: 640, dpr: 2 },
  '844x390': { width: 844, height: 390, dpr: 2 },
  '390x844': { width: 390, height: 844, dpr: 3 },
  '1280x800': { width: 1280, height: 800, dpr: 1 },
} as const;
type Size = keyof typeof SIZES;
const SHOT_SIZES: Size[] = ['390x844', '844x390'];

/** Each table's harness query (without players) and its fewest and most seats. */
const TABLES = {
  onecard: { scene: 'table', query: 'mode=classic&bots=0&seed=overlay&warmup=6', seats: [2, 10] },
  'onecard-color': { scene: 'table', query: 'mode=uno-style&bots=0&seed=overlay&warmup=6', seats: [2, 10] },
  holdem: { scene: 'poker', query: 'game=poker&mode=holdem&bots=0&seed=overlay', seats: [2, 10] },
  sevenpoker: { scene: 'poker', query: 'game=poker&mode=sevenPoker&bots=0&seed=overlay', seats: [2, 6] },
  indian: { scene: 'poker', query: 'game=poker&mode=indian&bots=0&seed=overlay', seats: [2, 6] },
  hula: { scene: 'hula', query: 'game=hula&bots=0&seed=overlay', seats: [2, 5] },
} as const;
type Table = keyof typeof TABLES;

/** Games played out by bots to their result sheet (my seat autoplays too). */
const RESULTS = {
  onecard: { scene: 'table', query: 'mode=classic&players=2&bots=15&autoplay=1&seed=overlay-end&scenario=onecard' },
  hula: { scene: 'hula', query: 'game=hula&players=2&bots=15&autoplay=1&o.rounds=1&seed=overlay-end' },
} as const;

let server: HarnessServer;
let browser: Browser;
onHarnessBrowser((s, b) => {
  server = s;
  browser = b;
});

type Hook = Record<string, unknown> & {
  scene: string;
  width: number;
  height: number;
  frames: number;
  canvas?: { width: number; height: number };
  /** The page area the game fills (#game): the viewport, less the chat panel's band when it is open. */
  box: { width: number; height: number };
};
type Checked = Hook & { overlayCheck: OverlayReport };

const hookOf = async (page: Page) =>
  (await page.evaluate(() => {
    const b = document.getElementById('game')!.getBoundingClientRect();
    return { ...window.__joke!.layout(), box: { width: b.width, height: b.height } };
  })) as Hook;

/**
 * The table has laid itself out for the box it has now: its layout and canvas are the box's size. A turn
 * or the chat band resizes the box at once and the table follows a frame or more later (a ResizeObserver),
 * so reading the hook before that would check the old layout against the new overlays.
 */
function laidOut(h: Hook): boolean {
  const near = (a: number | undefined, b: number) => a !== undefined && Math.abs(a - b) < 1;
  const { width, height } = h.box;
  return (
    near(h.width, width) && near(h.height, height) && near(h.canvas?.width, width) && near(h.canvas?.height, height)
  );
}

const MODAL_OVER = ['chatButton', 'chatPanel', 'rulesButton'];

/** Every overlay × solid pair that meets, as "overlay × solid" lines with both rectangles. */
export function coverings(rep: OverlayReport): string[] {
  // A chat panel opened as a sheet over the dimmed table (360×640): only the chat button may stand on it.
  if (rep.chatModal) {
    const panel = rep.overlays.find((o) => o.name === 'chatPanel')!;
    const button = rep.overlays.find((o) => o.name === 'chatButton');
    return button && overlaps(button.rect, panel.rect) ? ['chatButton × chatPanel (sheet)'] : [];
  }
  const sheet = rep.overlays.find((o) => o.name === 'resultSheet');
  const overlays = rep.modal
    ? rep.overlays.filter((o) => MODAL_OVER.includes(o.name))
    : rep.overlays.filter((o) => o.name !== 'resultSheet');
  const solids: Named[] = rep.modal && sheet ? [sheet] : rep.solids;
  const out: string[] = [];
  const show = (r: Rect) => `(${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.w)}×${Math.round(r.h)})`;
  for (const o of overlays)
    for (const s of solids) {
      if (o.name.startsWith('emote:') && s.name === `seat:${o.name.slice(6)}`) continue;
      if (o.name === 'rulesButton' && s.name === 'button:rules') continue;
      if (overlaps(o.rect, s.rect)) out.push(`${o.name}${show(o.rect)} × ${s.name}${show(s.rect)}`);
    }
  return out;
}

/** A new page in a context of its own at `size` and its ratio (a first visit), loading the harness with `query`. */
async function load(query: string, size: Size): Promise<Page> {
  const s = SIZES[size];
  const page = await browser.newPage({ viewport: { width: s.width, height: s.height }, deviceScaleFactor: s.dpr });
  page.on('pageerror', (e) => console.error(`[page error] ${e.stack ?? e.message}`));
  await page.goto(`${server.base}/harness.html?${query}&chat=1`);
  return page;
}

/** The hook once the page shows `scene`, drawn and laid out for its box, and `until` holds. */
function settled(page: Page, what: string, scene: string, until: (h: Checked) => boolean): Promise<Checked> {
  return waitFor(
    what,
    async () => {
      const h = await hookOf(page);
      return h.scene === scene && h.frames > 0 && h.overlayCheck && laidOut(h) && until(h as Checked)
        ? (h as Checked)
        : null;
    },
    120_000,
  );
}

const hasChatButton = (h: Checked) => h.overlayCheck.overlays.some((o) => o.name === 'chatButton');
const hasChatPanel = (h: Checked) => h.overlayCheck.overlays.some((o) => o.name === 'chatPanel');

/** Each table's pages by table, seat count and ratio, turned from size to size; a failed load is dropped. */
const pages = new Map<string, Promise<Page>>();

function tablePage(key: string, query: string, size: Size): Promise<Page> {
  let page = pages.get(key);
  if (!page) {
    pages.set(key, (page = load(query, size)));
    page.catch(() => pages.delete(key));
  }
  return page;
}

/** The last size of a ratio: its test closes the page the ratio's sizes shared. */
const lastOfRatio = (size: Size) =>
  (Object.keys(SIZES) as Size[]).filter((z) => SIZES[z].dpr === SIZES[size].dpr).at(-1) === size;

describe('no overlay covers a card, a seat, a pile or a button', () => {
  for (const table of Object.keys(TABLES) as Table[])
    for (const n of TABLES[table].seats)
      for (const size of Object.keys(SIZES) as Size[])
        it(`${table}, ${n} seats, ${size}`, async () => {
          const t = TABLES[table];
          const s = SIZES[size];
          const query = `${t.query}&players=${n}`;
          const key = `${table}/${n}/${s.dpr}`;
          const page = await tablePage(key, query, size);
          try {
            // The panel the size before opened (or a failed test left open) is closed, then the page turns.
            if (await page.getByTestId('chat-panel').isVisible()) await page.click('[data-testid=chat-toggle]');
            await page.setViewportSize({ width: s.width, height: s.height });
            const hook = await settled(
              page,
              `${query} at ${size}`,
              t.scene,
              (h) => hasChatButton(h) && !hasChatPanel(h) && h.box.width === s.width && h.box.height === s.height,
            );
            if (n === t.seats[1] && SHOT_SIZES.includes(size))
              await page.screenshot({ path: `${SHOTS}overlay-${table}-${size}.png` });
            const closed = coverings(hook.overlayCheck);
            await page.click('[data-testid=chat-toggle]');
            const opened = await settled(
              page,
              'the chat panel open and the table laid out around it',
              t.scene,
              hasChatPanel,
            );
            if (n === t.seats[1] && size === '390x844')
              await page.screenshot({ path: `${SHOTS}overlay-${table}-${size}-chat.png` });
            const withPanel = coverings(opened.overlayCheck).map((l) => `[chat open] ${l}`);
            expect([...closed, ...withPanel]).toEqual([]);
          } finally {
            if (lastOfRatio(size)) {
              pages.delete(key);
              await page.close();
            }
          }
        });
});

describe('the result sheet: nothing floats over it', () => {
  for (const table of Object.keys(RESULTS) as (keyof typeof RESULTS)[])
    for (const size of SHOT_SIZES)
      it(`${table} at ${size}`, async () => {
        const t = RESULTS[table];
        const page = await load(t.query, size);
        try {
          const hook = await settled(
            page,
            `${t.query} at ${size}`,
            t.scene,
            (h) =>
              hasChatButton(h) && h.overlayCheck.modal && (h.result as { final?: boolean } | null)?.final !== false,
          );
          await page.screenshot({ path: `${SHOTS}overlay-${table}-result-${size}.png` });
          expect(coverings(hook.overlayCheck)).toEqual([]);
        } finally {
          await page.close();
        }
      });
});
