/**
 * poker §9 NL/PL raise slider in Chromium, on a 홀덤 table run from the engine
 * in the page (harness, bots on the other seats): open the raise panel, check
 * it at four screen sizes, drag the thumb with the mouse, read the amount from
 * the test hook (and on the confirm button), tap the track, step with −, →
 * and Home, drag back, confirm, and find the engine's next view showing my
 * bet at exactly that raise-to. The slider sits clear of every button.
 * Screenshots: test-results/screenshots/poker-raise-slider-*.png.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overlaps, type Rect } from '../src/table-kit/rect.ts';
import { launchBrowser } from './support/browser.ts';
import { startHarnessServer, type HarnessServer } from './support/harness-server.ts';
import { waitFor } from './support/table-driver.ts';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

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

interface Slider {
  rect: Rect;
  thumb: { x: number; y: number };
  min: number;
  max: number;
  unit: number;
  value: number;
}
interface Snap {
  scene: string;
  frames: number;
  width: number;
  seq: number | null;
  myTurn: boolean;
  busy: boolean;
  canvas: { left: number; top: number };
  buttons: (Rect & { key: string; label: string; enabled: boolean })[];
  slider: Slider | null;
}
interface ViewFrame {
  view: { viewer: string; hand: { players: { id: string; committedRound: number }[]; currentBet: number } | null };
}

const snap = async (page: Page) => (await page.evaluate(() => window.__joke!.layout())) as unknown as Snap;
const at = (s: Snap, x: number, y: number) => [s.canvas.left + x, s.canvas.top + y] as const;
const click = (page: Page, s: Snap, b: Rect) => page.mouse.click(...at(s, b.x + b.w / 2, b.y + b.h / 2));

describe('poker §9 NL/PL 슬라이더 in the browser', () => {
  it('홀덤 390×844 (DPR 3): drag the thumb, the confirm sends that raise-to and the table applies it', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3 });
    page.on('pageerror', (e) => console.error(`[page error] ${e.stack ?? e.message}`));
    // Bots act every 150 ms on the other seats; my seat (0) waits for me, and its clock never runs out
    // (`timeouts=others`): on a loaded box this test outlived even the 60 s clock and the table folded my seat.
    await page.goto(
      `${server.base}/harness.html?game=poker&mode=holdem&players=3&bots=150&seed=slider&timeouts=others`,
    );
    const turn = await waitFor(
      'my turn with a raise',
      async () => {
        const s = await snap(page);
        return s.scene === 'poker' && s.myTurn && !s.busy && s.buttons.some((b) => b.key === 'raise' && b.enabled)
          ? s
          : null;
      },
      120_000,
    );
    await click(
      page,
      turn,
      turn.buttons.find((b) => b.key === 'raise')!,
    );
    const open = await waitFor('raise panel with a slider', async () => {
      const s = await snap(page);
      return s.slider && s.buttons.some((b) => b.key === 'confirmRaise') ? s : null;
    });
    expect(open.slider!.value).toBe(open.slider!.min);
    expect(open.slider!.max).toBeGreaterThan(open.slider!.min);
    // The open panel on the other screens: the slider clear of every button (screenshots to look at).
    for (const vp of [
      { width: 844, height: 390 },
      { width: 360, height: 640 },
      { width: 1440, height: 900 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(vp);
      const s = await waitFor(`panel at ${vp.width}×${vp.height}`, async () => {
        const x = await snap(page);
        return x.width === vp.width && x.slider ? x : null;
      });
      for (const b of s.buttons)
        expect(overlaps(s.slider!.rect, b), `slider overlaps ${b.key} at ${vp.width}`).toBe(false);
      expect(s.slider!.rect.w).toBeGreaterThanOrEqual(130);
      if (vp.width !== 390) await page.screenshot({ path: `${SHOTS}poker-raise-slider-${vp.width}x${vp.height}.png` });
    }
    const back = await snap(page);
    const sl = back.slider!;

    // Drag the thumb from its place (the left end) to about 60 % of the track.
    const x0 = sl.rect.x + 18;
    const x1 = sl.rect.x + sl.rect.w - 18;
    const target = sl.thumb.x + (x1 - sl.thumb.x) * 0.6;
    await page.mouse.move(...at(back, sl.thumb.x, sl.thumb.y));
    await page.mouse.down();
    for (let i = 1; i <= 8; i++)
      await page.mouse.move(...at(back, sl.thumb.x + ((target - sl.thumb.x) * i) / 8, sl.thumb.y));
    await page.mouse.up();
    const dragged = await waitFor('thumb moved', async () => {
      const s = await snap(page);
      return s.slider && s.slider.value > sl.min ? s : null;
    });
    const to = dragged.slider!.value;
    expect(to).toBeGreaterThan(sl.min);
    expect(to).toBeLessThan(sl.max);
    expect(to % sl.unit, `${to} on the base unit ${sl.unit}`).toBe(0);
    // The thumb is drawn where the pointer let go (within one unit's width), and the amount is on the confirm.
    expect(Math.abs(dragged.slider!.thumb.x - target)).toBeLessThanOrEqual(
      ((x1 - x0) * sl.unit) / (sl.max - sl.min) + 2,
    );
    const confirm = dragged.buttons.find((b) => b.key === 'confirmRaise')!;
    expect(confirm.label).toContain(to.toLocaleString('ko-KR'));

    // A tap on the track's right end jumps there, and − moves the thumb back one unit.
    await page.mouse.click(...at(dragged, sl.rect.x + sl.rect.w - 2, sl.thumb.y));
    await waitFor('tap at the end', async () => ((await snap(page)).slider?.value === sl.max ? true : null));
    const minus = (await snap(page)).buttons.find((b) => b.key === 'minus')!;
    await click(page, dragged, minus);
    const stepped = await waitFor('− moves the thumb', async () => {
      const s = await snap(page);
      return s.slider && s.slider.value < sl.max ? s : null;
    });
    expect(stepped.slider!.value).toBe(Math.max(sl.min, sl.max - sl.unit));
    expect(stepped.slider!.thumb.x).toBeLessThan(dragged.slider!.rect.x + dragged.slider!.rect.w);
    // The keyboard: → steps one unit up, Home goes to the minimum.
    await page.keyboard.press('ArrowRight');
    await waitFor('→ steps up', async () => ((await snap(page)).slider?.value === sl.max ? true : null));
    await page.keyboard.press('Home');
    const home = await waitFor('Home', async () => {
      const s = await snap(page);
      return s.slider?.value === sl.min ? s : null;
    });
    // Back to the dragged amount with a second drag, then the screenshot a player would see.
    const from = home.slider!.thumb.x;
    await page.mouse.move(...at(back, from, sl.thumb.y));
    await page.mouse.down();
    for (let i = 1; i <= 8; i++) await page.mouse.move(...at(back, from + ((target - from) * i) / 8, sl.thumb.y));
    await page.mouse.up();
    const ready = await waitFor('dragged back', async () => {
      const s = await snap(page);
      return s.slider?.value === to ? s : null;
    });
    await page.screenshot({ path: `${SHOTS}poker-raise-slider-390x844.png` });

    const before = ready.seq;
    const seen = (await page.evaluate(() => window.__joke!.frames())).length;
    await click(
      page,
      ready,
      ready.buttons.find((b) => b.key === 'confirmRaise')!,
    );
    await waitFor('raise applied', async () => ((await snap(page)).seq !== before ? true : null));
    // The engine's view after my raise shows my bet this round at exactly the slider's amount.
    const frames = (await page.evaluate(() => window.__joke!.frames()))
      .slice(seen)
      .map((t) => JSON.parse(t) as ViewFrame);
    const applied = frames.some((f) => {
      const me = f.view.hand?.players.find((p) => p.id === f.view.viewer);
      return me?.committedRound === to && f.view.hand?.currentBet === to;
    });
    expect(applied, `a view with my raise to ${to}`).toBe(true);
    await page.close();
  }, 180_000);
});
