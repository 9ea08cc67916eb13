/**
 * 규칙 for every game (issue 15 item 4) in headless Chromium on the real
 * stack: the lobby's sheet has a tab per game, and each game's table opens
 * the sheet at its own game (and, for 포커, at the table's mode) from the
 * table's 규칙 button, tapped where the table draws it.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, signIn } from './support/browser.ts';
import type { Stack } from './support/stack.ts';
import { onBrowserStack, PHONE } from './support/browser-stack.ts';
import { clickBox, snapshot, waitFor, type Box } from './support/table-driver.ts';

const SCENE: Record<string, string> = { 'one-card': 'table', poker: 'poker', hula: 'hula' };

let stack: Stack;
let browser: Browser;
onBrowserStack({}, (s, b) => {
  stack = s;
  browser = b;
});

/** Creates a room of `game` with one bot from the lobby and starts it; resolves at the table. */
async function startTable(p: Page, game: string): Promise<void> {
  await p.getByTestId('create-room').click();
  await p.getByTestId('create-form').waitFor();
  await p.getByTestId('game').selectOption(game);
  await p.getByTestId('create-submit').click();
  await p.getByTestId('seats').waitFor();
  await p.getByTestId('add-bot').click();
  await waitFor('a bot', async () => (await p.getByTestId('seats').locator('li:has-text("봇")').count()) >= 1);
  await p.getByTestId('start').click();
  await waitFor(
    `the ${game} table`,
    async () => {
      const s = await snapshot(p);
      return s.scene === SCENE[game] && s.frames > 0;
    },
    60_000,
  );
}

/** The sheet is open at `game`: its tab selected and its body shown. */
async function expectRulesAt(p: Page, game: string): Promise<void> {
  await p.getByTestId('rules').waitFor();
  await p.getByTestId(`rules-body-${game}`).waitFor();
  expect(await p.getByTestId(`rules-tab-${game}`).getAttribute('aria-selected')).toBe('true');
}

describe('규칙 for every game (issue 15)', () => {
  it('the lobby sheet covers all three games', async () => {
    const [ctx, p] = await openPage(browser, PHONE);
    await signIn(p, stack.url, '규칙로비');
    await p.getByTestId('lobby-rules').click();
    await expectRulesAt(p, 'one-card');
    for (const game of ['poker', 'hula', 'one-card']) {
      await p.getByTestId(`rules-tab-${game}`).click();
      await expectRulesAt(p, game);
    }
    await p.getByTestId('rules-tab-hula').click();
    const hula = (await p.getByTestId('rules-body-hula').textContent()) ?? '';
    for (const word of ['괴물 훌라', '조커 훌라', '땡큐', '스톱', '박', '방삐리', '정산']) expect(hula).toContain(word);
    await p.getByTestId('rules-tab-poker').click();
    const poker = (await p.getByTestId('rules-body-poker').textContent()) ?? '';
    for (const word of ['텍사스 홀덤', '7포커', '바둑이', '인디언 포커', '따당', '하프', '족보', '골프'])
      expect(poker).toContain(word);
    await p.getByTestId('rules-close').click();
    await ctx.close();
  });

  for (const game of ['one-card', 'poker', 'hula'])
    it(`the ${game} table opens its own rules from its 규칙 button`, async () => {
      const [ctx, p] = await openPage(browser, PHONE);
      await signIn(p, stack.url, `규칙${game.slice(0, 4)}`);
      await startTable(p, game);
      const layout = (await p.evaluate(() => window.__joke!.layout())) as Record<string, any>;
      await p.screenshot({ path: `../test-results/screenshots/table-${game}.png` }).catch(() => undefined);
      if (game === 'hula') {
        // The added button sits in the top bar, clear of the three the table draws there.
        const box = (await p.getByTestId('table-rules').boundingBox())!;
        const sort = layout.buttons.sort as Box;
        expect(box.x + box.width).toBeLessThanOrEqual(sort.x);
        expect(box.y).toBeLessThan(sort.y + sort.h);
        await p.getByTestId('table-rules').click();
      } else {
        const rect: Box = game === 'poker' ? layout.menu.rules : layout.buttons.rules;
        await clickBox(p, await snapshot(p), rect);
      }
      await expectRulesAt(p, game);
      if (game === 'poker') {
        // The table's mode is the section that opens.
        const open = p.locator(`[data-testid="rules-body-poker"] details[data-mode="${layout.mode}"]`);
        expect(await open.getAttribute('open')).not.toBeNull();
      }
      await p.getByTestId('rules-close').click();
      await p.getByTestId('rules').waitFor({ state: 'detached' });
      await ctx.close();
    }, 180_000);
});
