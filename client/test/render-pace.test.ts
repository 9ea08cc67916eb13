/**
 * The table draws a frame only when its picture changed (src/render-pace.ts), in headless
 * Chromium over the engine-in-the-page harness: a still table skips its frames, and what a paced
 * page shows after a tap is exactly what a page drawn every frame (`?pace=off`) shows.
 * The CPU this saves is a benchmark's figure, not a test's: `npx tsx client/bench/render-pace.ts`.
 */
import { writeFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CLOCK_STEPS } from '../src/table-kit/clock-steps.ts';
import type { HarnessServer } from './support/harness-server.ts';
import { onHarnessBrowser, SHOTS } from './support/browser-stack.ts';
import { clickAt, snapshot, waitFor, type TableSnapshot } from './support/table-driver.ts';

let server: HarnessServer;
let browser: Browser;
onHarnessBrowser((s, b) => {
  server = s;
  browser = b;
});

/** A 3-player 원카드 table, my turn (the declare scenario), a 60-second turn clock, motion reduced (no idle animation). */
const TABLE = 'mode=classic&players=3&bots=0&seed=pace&scenario=declare&o.turnSeconds=60';
const TURN_SECONDS = 60;
/** render-pace.ts draws at least one frame this often. */
const SAFETY_MS = 2000;

async function open(query: string): Promise<[Page, TableSnapshot]> {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, reducedMotion: 'reduce' });
  page.on('pageerror', (e) => console.error(`[page error] ${e.stack ?? e.message}`));
  await page.goto(`${server.base}/harness.html?${query}`);
  const snap = await waitFor('harness table', async () => {
    const s = await snapshot(page);
    return s.scene === 'table' && s.frames > 0 && !s.busy && s.myTurn ? s : null;
  });
  return [page, snap];
}

const frames = (page: Page) => page.evaluate(() => ({ ...window.__joke!.renderCounts(), at: performance.now() }));

describe('drawing only what changed', () => {
  it('a still table skips its frames: it draws for its turn clock and its safety frame, not 60 times a second', async () => {
    const [page] = await open(TABLE);
    const before = await frames(page);
    // However slowly the box runs the page, wait for a hundred more frames the table did not draw.
    const after = await waitFor(
      'a hundred skipped frames',
      async () => {
        const f = await frames(page);
        return f.skipped - before.skipped >= 100 ? f : null;
      },
      25_000,
    );
    const seconds = (after.at - before.at) / 1000;
    const drawn = after.drawn - before.drawn;
    // The clock moves CLOCK_STEPS times a turn; a frame is drawn anyway every SAFETY_MS; a few more for
    // steps that straddle the window. Drawing every frame would be ≥ 100 here, at any speed.
    const bound = Math.ceil(seconds * (CLOCK_STEPS / TURN_SECONDS) + (seconds * 1000) / SAFETY_MS) + 4;
    console.log(
      `still table: ${drawn} frames drawn, ${after.skipped - before.skipped} skipped in ${seconds.toFixed(1)} s (bound ${bound})`,
    );
    expect(drawn).toBeLessThanOrEqual(bound);
    await page.close();
  }, 60_000);

  it('a tap is drawn at once, and the paced picture is the one a page drawing every frame shows', async () => {
    const [paced, p0] = await open(TABLE);
    const [every, e0] = await open(`${TABLE}&pace=off`);
    expect(e0.cards.map((c) => c.id)).toEqual(p0.cards.map((c) => c.id));
    // Let the paced page go still first, so the tap is a change after skipped frames.
    const still = await frames(paced);
    await waitFor('skipped frames', async () => (await frames(paced)).skipped - still.skipped >= 20 || null, 25_000);

    const card = p0.cards[0];
    const selected = async (page: Page, s: TableSnapshot) => {
      await clickAt(page, s, card.tap.x, card.tap.y);
      return waitFor(`${card.label} selected`, async () => {
        const now = await snapshot(page);
        return now.cards.find((c) => c.id === card.id)?.selected && !now.busy ? now : null;
      });
    };
    const p1 = await selected(paced, p0);
    const e1 = await selected(every, e0);
    // The hand's own rectangle (raised card included): my seat's clock ring, beside it, moves with time.
    const boxes = p1.cards.map((c) => c.visible);
    const top = Math.min(...boxes.map((b) => b.y)) - 30;
    const bottom = Math.max(...boxes.map((b) => b.y + b.h));
    const left = Math.min(...boxes.map((b) => b.x));
    const right = Math.max(...boxes.map((b) => b.x + b.w));
    const clip = { x: p1.canvas.left + left, y: p1.canvas.top + top, width: right - left, height: bottom - top };
    const [a, b] = [await paced.screenshot({ clip }), await every.screenshot({ clip })];
    expect(e1.cards.find((c) => c.id === card.id)?.selected).toBe(true);
    if (!a.equals(b)) {
      writeFileSync(`${SHOTS}pace-paced.png`, a);
      writeFileSync(`${SHOTS}pace-every.png`, b);
    }
    expect(a.equals(b)).toBe(true);
    // And the tap did change the picture (the card rose), so the comparison above compared something.
    await clickAt(every, e1, card.tap.x, card.tap.y);
    await waitFor('unselected', async () => {
      const now = await snapshot(every);
      return !now.cards.find((c) => c.id === card.id)?.selected && !now.busy;
    });
    expect((await every.screenshot({ clip })).equals(b)).toBe(false);
    await paced.close();
    await every.close();
  }, 60_000);
});
