/**
 * The 포커 rules sheet's 족보 pictures (poker.md §9 규칙 보기: 족보표 그림 예시)
 * in headless Chromium on the real stack: for 홀덤 (international 9), 7포커
 * (Korean 13), 하이로우 (with its low side), 바둑이 and 인디언, every category row
 * has its drawn cards, and nothing in the
 * sheet overflows sideways on the reference phone and the small one — also with
 * 큰 글씨 on. The 4-colour deck must change the ◆ pictures. Screenshots go to
 * test-results/screenshots/rules-pictures-*.png.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signIn } from './support/browser.ts';
import type { Stack } from './support/stack.ts';
import { onBrowserStack } from './support/browser-stack.ts';
import type { Settings } from '../src/settings.ts';

let stack: Stack;
let browser: Browser;
onBrowserStack({}, (s, b) => {
  stack = s;
  browser = b;
});

/** Pictures per category row, best first: five cards for a high hand or a low, four for 바둑이, 인디언's strip and pairs. */
const MODES: Record<string, number[]> = {
  holdem: Array<number>(9).fill(5),
  sevenPoker: Array<number>(13).fill(5),
  sevenHiLo: Array<number>(13 + 4).fill(5),
  badugi: Array<number>(7).fill(4),
  indian: [10, 2, 2],
};

async function openPokerRules(viewport: { width: number; height: number }, settings: Partial<Settings>, nick: string) {
  const page = await browser.newPage({ viewport, deviceScaleFactor: 2, locale: 'ko-KR' });
  page.on('pageerror', (e) => console.error(`[page error] ${e.stack ?? e.message}`));
  await page.addInitScript((s) => localStorage.setItem('joke.settings', JSON.stringify(s)), settings);
  await signIn(page, stack.url, nick);
  await page.getByTestId('lobby-rules').click();
  await page.getByTestId('rules-tab-poker').click();
  await page.getByTestId('rules-body-poker').waitFor();
  return page;
}

/** Opens `mode`'s section alone and measures its picture rows and the sheet's sideways overflow. */
async function measure(page: Page, mode: string) {
  return page.evaluate((m) => {
    for (const d of document.querySelectorAll<HTMLDetailsElement>('[data-testid="rules-body-poker"] details'))
      d.open = d.dataset.mode === m;
    const part = document.querySelector(`details[data-mode="${m}"]`)!;
    const content = document.querySelector<HTMLElement>('.rules-content')!;
    const edge = content.getBoundingClientRect().right;
    const rows = [...part.querySelectorAll('[data-testid="rank-pictures"] .rule-row')].map((row) => {
      const imgs = [...row.querySelectorAll('img')];
      return {
        name: row.querySelector('b')?.textContent ?? '',
        pictures: imgs.filter((i) => i.complete && i.naturalWidth > 0).length,
        right: Math.max(...[...row.querySelectorAll('*')].map((e) => e.getBoundingClientRect().right)),
      };
    });
    const wide = [...document.querySelectorAll<HTMLElement>('.rules-content, .rules-content *')]
      .filter((e) => e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
      .map((e) => e.className);
    return { rows, edge, wide, pageWide: document.documentElement.scrollWidth - window.innerWidth };
  }, mode);
}

describe('poker §9 규칙 보기: 족보표 그림 예시 in the browser', () => {
  const cases = [
    { viewport: { width: 390, height: 844 }, settings: {}, tag: '390' },
    { viewport: { width: 360, height: 640 }, settings: {}, tag: '360' },
    { viewport: { width: 360, height: 640 }, settings: { largeText: true, fourColorDeck: true }, tag: '360-large-4c' },
  ];
  for (const c of cases)
    it(`every category row has its pictures and nothing overflows at ${c.tag}`, async () => {
      const page = await openPokerRules(c.viewport, c.settings, `족보${c.tag.slice(0, 3)}`);
      for (const [mode, pictures] of Object.entries(MODES)) {
        await page.waitForFunction(
          (m) =>
            [...document.querySelectorAll(`details[data-mode="${m}"] [data-testid="rank-pictures"] img`)].every(
              (i) => (i as HTMLImageElement).complete,
            ),
          mode,
        );
        const r = await measure(page, mode);
        expect(
          r.rows.map((row) => row.pictures),
          mode,
        ).toEqual(pictures);
        for (const row of r.rows) {
          expect(row.right, `${mode} ${row.name} right edge`).toBeLessThanOrEqual(r.edge + 0.5);
        }
        expect(r.wide, `${mode} sideways scrollers`).toEqual([]);
        expect(r.pageWide, mode).toBeLessThanOrEqual(0);
        await page
          // The last table in view: 하이로우's low side, the other modes' only one.
          .locator(`details[data-mode="${mode}"] [data-testid="rank-pictures"]`)
          .last()
          .scrollIntoViewIfNeeded();
        await page.screenshot({ path: `../test-results/screenshots/rules-pictures-${mode}-${c.tag}.png` });
      }
      await page.close();
    }, 180_000);

  it('the 4-colour deck draws the ◆ example in its own ink', async () => {
    const src = async (settings: Partial<Settings>, nick: string) => {
      const page = await openPokerRules({ width: 390, height: 844 }, settings, nick);
      const flush = page.locator('details[data-mode="holdem"] .rule-row:has(b:text-is("플러시")) img').first();
      const s = await flush.getAttribute('src');
      await page.close();
      return s;
    };
    const two = await src({}, '족보2색');
    const four = await src({ fourColorDeck: true }, '족보4색');
    expect(two).toMatch(/^data:image\/png/);
    expect(four).not.toBe(two);
  }, 180_000);

  it('the 원카드 sheet keeps its special-card pictures (same picture code, full size)', async () => {
    const page = await openPokerRules({ width: 360, height: 640 }, {}, '족보원카');
    await page.getByTestId('rules-tab-one-card').click();
    const imgs = page.locator('[data-testid="rules-body-one-card"] .rule-pics img');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('[data-testid="rules-body-one-card"] .rule-pics img')].every(
        (i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0,
      ),
    );
    expect(await page.locator('[data-testid="rules-body-one-card"] .rule-row').count()).toBe(13);
    expect((await imgs.first().boundingBox())?.width).toBe(48);
    await page.screenshot({ path: '../test-results/screenshots/rules-pictures-one-card-360.png' });
    await page.close();
  }, 180_000);
});
