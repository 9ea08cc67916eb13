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
 * overlay); every wait is on the hook. Screenshots of each table at 390×844
 * and 844×390 land in test-results/screenshots/overlay-<table>-<size>.png.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overlaps, type Rect } from '../src/table-kit/rect.ts';
import type { Named, OverlayReport } from '../src/table-kit/overlay-report.ts';
import { launchBrowser } from './support/browser.ts';
import { startHarnessServer, type HarnessServer } from './support/harness-server.ts';
import { waitFor } from './support/table-driver.ts';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

const SIZES = {
  '360x640': { width: 360, height: 640, dpr: 2 },
  '390x844': { width: 390, height: 844, dpr: 3 },
  '844x390': { width: 844, height: 390, dpr: 2 },
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
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  server = await startHarnessServer();
  ({ browser, close: closeBrowser } = await launchBrowser());
});

afterAll(async () => {
  await closeBrowser?.();
  await server?.close();
});

type Hook = Record<string, unknown> & { scene: string; width: number; height: number; frames: number };
type Checked = Hook & { overlayCheck: OverlayReport };

const hookOf = async (page: Page) => (await page.evaluate(() => window.__joke!.layout())) as Hook;

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

async function open(
  scene: string,
  query: string,
  size: Size,
  until: (h: Checked) => boolean,
): Promise<[Page, Checked]> {
  const s = SIZES[size];
  const page = await browser.newPage({ viewport: { width: s.width, height: s.height }, deviceScaleFactor: s.dpr });
  page.on('pageerror', (e) => console.error(`[page error] ${e.stack ?? e.message}`));
  await page.goto(`${server.base}/harness.html?${query}&chat=1`);
  const hook = await waitFor(
    `${query} at ${size}`,
    async () => {
      const h = await hookOf(page);
      return h.scene === scene && h.frames > 0 && h.overlayCheck && until(h as Checked) ? (h as Checked) : null;
    },
    120_000,
  ).catch(async (e: unknown) => {
    await page.close();
    throw e;
  });
  return [page, hook];
}

const hasChatButton = (h: Checked) => h.overlayCheck.overlays.some((o) => o.name === 'chatButton');

describe('no overlay covers a card, a seat, a pile or a button', () => {
  for (const table of Object.keys(TABLES) as Table[])
    for (const n of TABLES[table].seats)
      for (const size of Object.keys(SIZES) as Size[])
        it(`${table}, ${n} seats, ${size}`, async () => {
          const t = TABLES[table];
          const [page, hook] = await open(t.scene, `${t.query}&players=${n}`, size, hasChatButton);
          try {
            if (n === t.seats[1] && SHOT_SIZES.includes(size))
              await page.screenshot({ path: `${SHOTS}overlay-${table}-${size}.png` });
            const closed = coverings(hook.overlayCheck);
            await page.click('[data-testid=chat-toggle]');
            const opened = await waitFor(
              'the chat panel open and the table laid out around it',
              async () => {
                const h = (await hookOf(page)) as Checked;
                const panel = h.overlayCheck?.overlays.find((o) => o.name === 'chatPanel');
                return panel ? h : null;
              },
              60_000,
            );
            if (n === t.seats[1] && size === '390x844')
              await page.screenshot({ path: `${SHOTS}overlay-${table}-${size}-chat.png` });
            const withPanel = coverings(opened.overlayCheck).map((l) => `[chat open] ${l}`);
            expect([...closed, ...withPanel]).toEqual([]);
          } finally {
            await page.close();
          }
        });
});

describe('the result sheet: nothing floats over it', () => {
  for (const table of Object.keys(RESULTS) as (keyof typeof RESULTS)[])
    for (const size of SHOT_SIZES)
      it(`${table} at ${size}`, async () => {
        const t = RESULTS[table];
        const [page, hook] = await open(
          t.scene,
          t.query,
          size,
          (h) => hasChatButton(h) && h.overlayCheck.modal && (h.result as { final?: boolean } | null)?.final !== false,
        );
        try {
          await page.screenshot({ path: `${SHOTS}overlay-${table}-result-${size}.png` });
          expect(coverings(hook.overlayCheck)).toEqual([]);
        } finally {
          await page.close();
        }
      });
});
