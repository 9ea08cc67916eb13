/**
 * The canvas is drawn at the device pixel ratio (issue 16 §1): at DPR 1, 2
 * and 3 the backing store is CSS size × ratio, and at DPR 3 a zoomed
 * screenshot of a card's edge and its letters is measurably sharper than the
 * same table drawn the old way (`?resolution=1`, a CSS-size bitmap stretched
 * by the browser). One browser and one server for the whole file.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { HarnessServer } from './support/harness-server.ts';
import { onHarnessBrowser, SHOTS } from './support/browser-stack.ts';
import { snapshot, waitFor, type TableSnapshot } from './support/table-driver.ts';

let server: HarnessServer;
let browser: Browser;
onHarnessBrowser((s, b) => {
  server = s;
  browser = b;
});

/** `bots=0` freezes the table after the deal; with bots it plays on to my turn. */
async function openTable(dpr: number, query = '', bots = 0): Promise<[Page, TableSnapshot]> {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: dpr });
  page.on('pageerror', (e) => console.error(`[page error] ${e.stack ?? e.message}`));
  await page.goto(`${server.base}/harness.html?mode=classic&players=4&bots=${bots}&seed=dpr${query}`);
  const snap = await waitFor('harness table', async () => {
    const s = await snapshot(page);
    return s.scene === 'table' && s.frames > 0 && !s.busy && s.cards.length > 0 ? s : null;
  });
  return [page, snap];
}

/**
 * Mean squared luminance step between neighbouring device pixels of a PNG
 * (decoded in the page). A blur keeps the total step across an edge but
 * spreads it over k pixels, so the squared sum drops by about k.
 */
async function edgeSharpness(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(async (b64) => {
    const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
    const bmp = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
    const c = new OffscreenCanvas(bmp.width, bmp.height);
    const g = c.getContext('2d')!;
    g.drawImage(bmp, 0, 0);
    const { data, width, height } = g.getImageData(0, 0, bmp.width, bmp.height);
    const lum = (i: number) => 0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];
    let sum = 0;
    let n = 0;
    for (let y = 0; y < height - 1; y++)
      for (let x = 0; x < width - 1; x++) {
        const i = (y * width + x) * 4;
        sum += (lum(i) - lum(i + 4)) ** 2 + (lum(i) - lum(i + width * 4)) ** 2;
        n++;
      }
    return sum / n;
  }, png.toString('base64'));
}

describe('canvas resolution (issue 16 §1)', () => {
  it.each([1, 2, 3])(
    'at devicePixelRatio %i the backing store is CSS size × ratio',
    async (dpr) => {
      const [page] = await openTable(dpr);
      const size = await page.evaluate(() => {
        const c = document.querySelector('#game canvas') as HTMLCanvasElement;
        const r = c.getBoundingClientRect();
        return { w: c.width, h: c.height, cssW: r.width, cssH: r.height };
      });
      expect(size.cssW).toBe(390);
      expect(size.cssH).toBe(844);
      expect(size.w).toBe(390 * dpr);
      expect(size.h).toBe(844 * dpr);
      await page.close();
    },
    60_000,
  );

  it.each([1, 2])(
    'at devicePixelRatio %i the canvas follows a turn to landscape and back, and a tap lands where the table drew',
    async (dpr) => {
      const [page] = await openTable(dpr, '', 200);
      const size = () =>
        page.evaluate(() => {
          const c = document.querySelector('#game canvas') as HTMLCanvasElement;
          const r = c.getBoundingClientRect();
          return { w: c.width, h: c.height, cssW: r.width, cssH: r.height };
        });
      for (const vp of [
        { width: 844, height: 390 },
        { width: 390, height: 844 },
      ]) {
        await page.setViewportSize(vp);
        await waitFor(`table at ${vp.width}×${vp.height}`, async () => {
          const s = await snapshot(page);
          return s.width === vp.width && s.height === vp.height ? s : null;
        });
        // The CSS size once lagged a turn behind the backing store (a 390-px bitmap shown 844 px wide).
        expect(await size()).toEqual({ w: vp.width * dpr, h: vp.height * dpr, cssW: vp.width, cssH: vp.height });
      }
      // The player taps a legal card where the hook says it is drawn; it rises.
      const s = await waitFor('my legal card', async () => {
        const x = await snapshot(page);
        return x.myTurn && x.cards.some((c) => c.legal) ? x : null;
      });
      const card = s.cards.find((c) => c.legal)!;
      await page.mouse.click(s.canvas.left + card.tap.x, s.canvas.top + card.tap.y);
      await waitFor('card raised', async () => {
        const x = await snapshot(page);
        return x.cards.find((c) => c.id === card.id)?.selected ? x : null;
      });
      await page.close();
    },
    60_000,
  );

  it('at DPR 3 a zoomed card corner is sharper than the stretched CSS-size canvas', async () => {
    const shots: number[] = [];
    for (const query of ['', '&resolution=1']) {
      const [page, snap] = await openTable(3, query);
      // The top-left corner of my first card: its rank letter, suit and rounded edge.
      const card = snap.cards[0].visible;
      const clip = {
        x: snap.canvas.left + card.x,
        y: snap.canvas.top + card.y,
        width: Math.min(40, card.w),
        height: 56,
      };
      const png = await page.screenshot({ clip, scale: 'device' });
      await page.screenshot({
        path: `${SHOTS}dpr3-${query ? 'stretched' : 'device'}.png`,
        clip: { ...clip, width: 160, height: 120 },
        scale: 'device',
      });
      shots.push(await edgeSharpness(page, png));
      await page.close();
    }
    const [crisp, stretched] = shots;
    console.log(`edge sharpness at DPR 3: device resolution ${crisp.toFixed(2)}, stretched ${stretched.toFixed(2)}`);
    expect(crisp).toBeGreaterThan(stretched * 2);
  });
});
