/**
 * The table in situations a random game rarely reaches, rendered by the real
 * TableScene in headless Chromium from engine views computed in the page
 * (harness.html). Everything is driven by clicks and drags on the canvas.
 * Screenshots go to test-results/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientHandler } from '@joke/web';
import { computeLayout, inside, overlaps } from '../src/table/layout.ts';
import { launchBrowser } from './support/browser.ts';
import { builtClient } from './support/stack.ts';
import { clickAt, clickBox, snapshot, waitFor, type TableSnapshot } from './support/table-driver.ts';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
let server: Server;
let base: string;
let dir: string;
let browser: Browser;
let closeBrowser: () => Promise<void>;

async function open(
  query: string,
  viewport = { width: 390, height: 844 },
  reducedMotion: 'reduce' | 'no-preference' = 'no-preference',
): Promise<[Page, TableSnapshot]> {
  const page = await browser.newPage({ viewport, deviceScaleFactor: 1, reducedMotion });
  page.on('pageerror', (e) => console.error(`[page error] ${e.stack ?? e.message}`));
  await page.goto(`${base}/harness.html?${query}`);
  const snap = await waitFor('harness table', async () => {
    const s = await snapshot(page);
    return s.scene === 'table' && s.frames > 0 && !s.busy ? s : null;
  });
  return [page, snap];
}

const settle = (page: Page) =>
  waitFor('settled table', async () => {
    const s = await snapshot(page);
    return s.busy ? null : s;
  });

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  dir = builtClient();
  const handler = clientHandler({ dir, gatewayUrl: 'ws://127.0.0.1:9/ws' });
  server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ({ browser, close: closeBrowser } = await launchBrowser());
}, 120_000);

afterAll(async () => {
  await closeBrowser?.();
  server?.closeAllConnections();
  await new Promise((r) => server?.close(r));
});

describe('원카드 table in the browser (engine in the page)', () => {
  it('§9 — under attack: "+7장!" badge, "7장 먹기", blockers highlighted with a hint; dragging a 2 onto the pile plays it', async () => {
    const [page, snap] = await open('mode=classic&players=4&bots=0&seed=atk&scenario=attack');
    expect(snap.attack).toBe('+7장!');
    expect(snap.buttons.draw).toMatchObject({ label: '7장 먹기', enabled: true });
    expect(snap.hint).toBe('막을 수 있는 카드: ♦2, ♣3, 조커');
    expect(
      snap.cards
        .filter((c) => c.legal)
        .map((c) => c.id)
        .sort(),
    ).toEqual(['x1', 'x3', 'x4']);
    expect(snap.cardSize!.w).toBeGreaterThanOrEqual(48);
    expect(snap.cardSize!.h).toBeGreaterThanOrEqual(68);
    await page.screenshot({ path: `${SHOTS}table-attack-portrait.png` });

    const two = snap.cards.find((c) => c.id === 'x1')!;
    const pile = await page.evaluate(
      () =>
        (window.__joke!.layout() as { piles: { discard: { x: number; y: number; w: number; h: number } } }).piles
          .discard,
    );
    await page.mouse.move(two.tap.x, two.tap.y);
    await page.mouse.down();
    for (let i = 1; i <= 8; i++)
      await page.mouse.move(
        two.tap.x + ((pile.x + pile.w / 2 - two.tap.x) * i) / 8,
        two.tap.y + ((pile.y + pile.h / 2 - two.tap.y) * i) / 8,
      );
    await page.mouse.up();
    const after = await waitFor('attack stacked by the drag', async () => {
      const s = await snapshot(page);
      return s.attack === '+9장!' && !s.myTurn ? s : null;
    });
    expect(after.cards.map((c) => c.id)).not.toContain('x1');
    await page.close();
  });

  it('§9 — colour cards: patterns and colour names, a wild opens four colour buttons, the chosen colour shows on the table', async () => {
    const [page, snap] = await open('mode=uno-style&players=5&bots=0&seed=col&scenario=pick');
    expect(snap.cards).toHaveLength(7);
    await page.screenshot({ path: `${SHOTS}table-color-portrait.png` });
    const wild = snap.cards.find((c) => c.id === 'x1')!;
    expect(wild.legal).toBe(true);
    await clickAt(page, snap, wild.tap.x, wild.tap.y);
    const raised = await waitFor('wild raised', async () => {
      const s = await snapshot(page);
      return s.cards.find((c) => c.id === 'x1')?.selected ? s : null;
    });
    // A second tap on a raised card plays it (§9).
    await clickAt(page, raised, wild.tap.x, wild.tap.y - 16);
    const picking = await waitFor('colour picker', async () => (await snapshot(page)).picker && snapshot(page));
    expect(picking.picker!.kind).toBe('color');
    expect(picking.picker!.options.map((o) => o.label)).toEqual(['빨강', '노랑', '초록', '파랑']);
    await page.screenshot({ path: `${SHOTS}table-color-picker.png` });
    await clickBox(page, picking, picking.picker!.options[2].rect);
    const chosen = await waitFor('declared colour', async () => {
      const s = await snapshot(page);
      return s.declared === '초록' ? s : null;
    });
    expect(chosen.cards).toHaveLength(6);
    await page.close();
  });

  it('§9 — desktop landscape: one-row hand, nothing overlaps or leaves the screen with 9 opponents', async () => {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const [page, snap] = await open('mode=uno-style&players=10&bots=0&seed=wide&warmup=25', viewport);
      expect(snap.opponents).toHaveLength(9);
      const screen = { x: 0, y: 0, w: viewport.width, h: viewport.height };
      const boxes = [
        ...snap.opponents.map((o) => o.rect),
        ...['play', 'draw', 'oneCard', 'sortSuit', 'sortRank', 'rules', 'settings', 'leave'].map(
          (k) => snap.buttons[k],
        ),
      ];
      for (const b of boxes) expect(inside(b, screen)).toBe(true);
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) expect(overlaps(boxes[i], boxes[j])).toBe(false);
      // The scene uses exactly the pure layout (which the unit tests check exhaustively).
      const pure = computeLayout({ ...viewport, opponents: 9, handCount: snap.cards.length, spectator: false });
      expect(snap.buttons.play).toMatchObject(pure.play);
      if (viewport.width > viewport.height) {
        expect(new Set(snap.cards.map((c) => c.visible.y)).size).toBeLessThanOrEqual(3);
        await page.screenshot({ path: `${SHOTS}table-color-landscape-10p.png` });
      } else await page.screenshot({ path: `${SHOTS}table-color-portrait-10p.png` });
      await page.close();
    }
  });

  it('§5.3/§9 — the one-card button shakes and catches; with reduced motion it stays still', async () => {
    const [page, snap] = await open('mode=classic&players=3&bots=0&seed=one&scenario=onecard');
    expect(snap.buttons.oneCard.enabled).toBe(true);
    expect(snap.buttons.oneCard.label).toContain('잡기');
    expect(snap.shaking).toBe(true);
    // The in-game setting turns motion off without reloading.
    await clickBox(page, snap, snap.buttons.settings);
    await page.getByTestId('setting-motion').selectOption('on');
    await page.getByTestId('settings-close').click();
    const calm = await snapshot(page);
    expect(calm.reducedMotion).toBe(true);
    expect(calm.shaking).toBe(false);
    await clickBox(page, calm, calm.buttons.oneCard);
    await waitFor('caught toast', async () => (await snapshot(page)).toasts.find((t) => t.includes('잡았어요')));
    // Caught: the window closed, so 잡기 is gone from the button (issue 15).
    const caught = await settle(page);
    expect(caught.buttons.oneCard.enabled).toBe(false);
    expect(caught.buttons.oneCard.label).not.toContain('잡기');
    await page.close();

    const [still, s2] = await open('mode=classic&players=3&bots=0&seed=one&scenario=onecard', undefined, 'reduce');
    expect(s2.reducedMotion).toBe(true);
    expect(s2.shaking).toBe(false);
    expect(s2.buttons.oneCard.enabled).toBe(true);
    await still.close();
  });

  it('§5.3/§9 — a play that leaves one card defaults to "원카드 외치며 내기" and declares with the play', async () => {
    const [page, snap] = await open('mode=classic&players=3&bots=0&seed=dec&scenario=declare');
    const card = snap.cards.find((c) => c.id === 'x1')!;
    await clickAt(page, snap, card.tap.x, card.tap.y);
    const ready = await waitFor('declare toggle', async () => {
      const s = await snapshot(page);
      return s.buttons.declareToggle.visible ? s : null;
    });
    expect(ready.buttons.declareToggle).toMatchObject({ on: true, label: '원카드 외치며 내기 ✔' });
    await page.screenshot({ path: `${SHOTS}table-declare-portrait.png` });
    await clickBox(page, ready, ready.buttons.play);
    await waitFor('declared', async () => (await snapshot(page)).toasts.find((t) => t === '나: 원카드!'));
    const after = await settle(page);
    expect(after.cards).toHaveLength(1);
    expect(after.buttons.oneCard.enabled).toBe(false);
    await page.close();
  });

  it('§9 — the rules sheet shows the special cards as pictures', async () => {
    const [page, snap] = await open('mode=classic&players=4&bots=0&seed=rules');
    await clickBox(page, snap, snap.buttons.rules);
    const sheet = page.getByTestId('rules');
    await sheet.waitFor();
    expect(await sheet.locator('img').count()).toBeGreaterThanOrEqual(12);
    expect(await sheet.textContent()).toContain('♠A');
    expect(await sheet.textContent()).not.toMatch(/UNO|우노/i);
    await page.screenshot({ path: `${SHOTS}rules.png` });
    await page.getByTestId('rules-close').click();
    await page.close();
  });
  it('§5.6/§9 — a +4 under the challenge rule: 의심하기 or 받아들이기 (4장)', async () => {
    const [page, snap] = await open('mode=uno-style&players=3&bots=0&seed=w4&scenario=wild4&o.unoWild4Rule=challenge');
    expect(snap.status).toBe('색 바꾸기+4! 의심하거나 받아들이세요');
    expect(snap.buttons.play).toMatchObject({ label: '의심하기', enabled: true });
    expect(snap.buttons.draw).toMatchObject({ label: '받아들이기 (4장)', enabled: true });
    expect(snap.declared).toBe('초록');
    const before = snap.cards.length;
    await clickBox(page, snap, snap.buttons.play);
    // The scenario's +4 was illegal: the challenge succeeds and the player who played it takes four.
    await waitFor('challenge result', async () => (await snapshot(page)).toasts.find((t) => t.startsWith('의심 성공')));
    expect((await settle(page)).cards).toHaveLength(before);
    await page.close();
  });

  it('presence: disconnected and away seats are marked at the table', async () => {
    const [page, snap] = await open('mode=classic&players=4&bots=0&seed=pres&offline=1&away=2');
    const [first, second, third] = snap.opponents as unknown as { name: string; connected: boolean; away: boolean }[];
    expect(first).toMatchObject({ connected: false });
    expect(second).toMatchObject({ away: true, connected: true });
    expect(third).toMatchObject({ connected: true, away: false });
    await page.screenshot({ path: `${SHOTS}table-presence-portrait.png` });
    await page.close();
  });
});
