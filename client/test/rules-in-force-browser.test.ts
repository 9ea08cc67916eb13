/**
 * §2 원카드 rule presets and the rules in force (issue 41 item 3), in headless Chromium on the
 * real stack at the reference phone (390×844): the host starts the room form from the
 * 학교/MT 하우스 룰 preset, changes one option (the chooser then says so), and creates the room;
 * the waiting room lists the rules in force with the preset's name and every option off its
 * default highlighted, for the host and for a second browser that reads them from the room list
 * before joining and again in the waiting room; at
 * the table, the 규칙 button opens the same list. Poker and 훌라 rooms (no presets) show the same
 * list without a preset name. Every wait is on what the page shows.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, signIn } from './support/browser.ts';
import type { Stack } from './support/stack.ts';
import { onBrowserStack, PHONE } from './support/browser-stack.ts';
import { clickBox, snapshot, waitFor, type Box } from './support/table-driver.ts';

const LONG = 90_000;
const SHOTS = '../test-results/screenshots';
/** The options 학교/MT 하우스 룰 moves off the classic defaults (engine/src/games/one-card/presets.ts), plus our one change. */
const HOUSE_CHANGED = [
  'attackSpadeA',
  'attackBlackJoker',
  'attackColorJoker',
  'multiPlay',
  'lastCardRule',
  'afterJoker',
  'qInTwoPlayer',
  'bankruptLimit',
  'endCondition',
];

let stack: Stack;
let browser: Browser;
onBrowserStack({}, (s, b) => {
  stack = s;
  browser = b;
});

/** The rules-in-force list as the page shows it: its title and the keys of the highlighted rows. */
async function readRules(p: Page, within = 'body'): Promise<{ title: string; changed: string[]; rows: number }> {
  return p.evaluate((scope) => {
    const list = document.querySelector(`${scope} [data-testid="rules-in-force"]`);
    return {
      title: list?.querySelector('[data-testid="rules-preset"]')?.textContent ?? '',
      changed: [...(list?.querySelectorAll('li.changed') ?? [])].map((li) => li.getAttribute('data-key') ?? ''),
      rows: list?.querySelectorAll('li.rule').length ?? 0,
    };
  }, within);
}

describe('§2 원카드 rule presets and the rules in force (issue 41)', () => {
  it('a room made from 학교/MT 하우스 룰 with one change shows the same rules to host, joiner and table', async () => {
    const [[ctxA, a], [ctxB, b]] = await Promise.all([0, 1].map(() => openPage(browser, PHONE)));
    await Promise.all([signIn(a, stack.url, '하우스방장'), signIn(b, stack.url, '규칙손님')]);

    // The form: the chooser comes first and opens on 기본 (the defaults).
    await a.getByTestId('create-room').click();
    await a.getByTestId('create-form').waitFor();
    await a.getByTestId('game').selectOption('one-card');
    const chooser = a.getByTestId('room-preset');
    expect(await chooser.inputValue()).toBe('basic');
    const values = await chooser.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(values).toEqual(['basic', 'house', 'colorOriginal', 'beginner', 'custom']);

    // Picking the preset sets the fields.
    await chooser.selectOption('house');
    expect(await a.getByTestId('opt-multiPlay').isChecked()).toBe(true);
    expect(await a.getByTestId('opt-attackColorJoker').inputValue()).toBe('10');
    expect(await a.getByTestId('opt-bankruptLimit').locator('option:checked').textContent()).toBe('15장');
    // One change: the chooser names the preset it came from and the count.
    await a.getByTestId('opt-turnSeconds').selectOption({ label: '30초' });
    expect(await chooser.inputValue()).toBe('custom');
    expect(await chooser.locator('option:checked').textContent()).toBe('학교/MT 하우스 룰 · 1개 변경됨');
    await a.getByTestId('room-preset').scrollIntoViewIfNeeded();
    await a.screenshot({ path: `${SHOTS}/rules-form-390.png` });

    await a.getByTestId('create-submit').click();
    await a.getByTestId('seats').waitFor();
    const roomId = (await a.evaluate(() => localStorage.getItem('joke.room')))!;
    expect(roomId).toBeTruthy();
    // The server kept exactly what the form sent.
    const stored = await stack.platform.lobby.db.room.findUnique({ where: { id: roomId } });
    expect(stored?.options).toMatchObject({ multiPlay: true, turnSeconds: 30, endCondition: 'last-standing' });

    const expectHouse = async (p: Page, who: string, within?: string) => {
      await waitFor(`${who} sees the rules in force`, async () => (await readRules(p, within)).rows > 0, LONG, 200);
      const r = await readRules(p, within);
      expect(r.title, who).toBe('학교/MT 하우스 룰 · 1개 변경됨');
      expect(r.changed.sort(), who).toEqual([...HOUSE_CHANGED, 'turnSeconds'].sort());
    };
    await expectHouse(a, 'the host in the waiting room');
    // The small phone and landscape: no row runs past the list's width.
    for (const size of [
      { width: 360, height: 640 },
      { width: 844, height: 390 },
    ]) {
      await a.setViewportSize(size);
      await a.getByTestId('rules-in-force').scrollIntoViewIfNeeded();
      const overflow = await a.evaluate(() =>
        [...document.querySelectorAll('[data-testid="rules-in-force"] li')].some(
          (li) => li.scrollWidth > li.clientWidth,
        ),
      );
      expect(overflow, `${size.width}×${size.height}`).toBe(false);
      await a.screenshot({ path: `${SHOTS}/rules-waiting-room-${size.width}x${size.height}.png` });
    }
    await a.setViewportSize(PHONE);

    // The second browser reads the room's rules from the list before sitting down, joins from there,
    // and finds the same list in the waiting room.
    await b.getByTestId(`room-rules-${roomId}`).waitFor({ timeout: LONG });
    await b.screenshot({ path: `${SHOTS}/rules-room-list-390.png` });
    await b.getByTestId(`room-rules-${roomId}`).click();
    await b.getByTestId('room-rules').waitFor();
    await expectHouse(b, 'the joiner in the list', '[data-testid="room-rules"]');
    await b.screenshot({ path: `${SHOTS}/rules-join-confirm-390.png` });
    await b.getByTestId('room-rules-join').click();
    await b.getByTestId('seats').waitFor();
    await expectHouse(b, 'the joiner in the waiting room');
    await b.getByTestId('rules-in-force').scrollIntoViewIfNeeded();
    await b.screenshot({ path: `${SHOTS}/rules-waiting-room-390.png` });

    // At the table: one tap on 규칙 opens the sheet with the list on top.
    await waitFor('both seated', async () => (await a.getByTestId('seats').locator('li b').count()) === 2, LONG);
    await a.getByTestId('start').click();
    await waitFor(
      'the table',
      async () => {
        const s = await snapshot(b);
        return s.scene === 'table' && s.frames > 0;
      },
      LONG,
    );
    const layout = (await b.evaluate(() => window.__joke!.layout())) as { buttons: { rules: Box } };
    await clickBox(b, await snapshot(b), layout.buttons.rules);
    await b.getByTestId('rules').waitFor();
    await expectHouse(b, 'the joiner at the table', '[data-testid="rules"]');
    await b.screenshot({ path: `${SHOTS}/rules-in-force-table-390.png` });
    await Promise.all([ctxA.close(), ctxB.close()]);
  }, 300_000);

  // Poker and 훌라 have no presets: the same list, without a preset name, the changed option marked.
  const OTHERS = [
    { game: 'poker', scene: 'poker', option: 'opt-turnSeconds', label: '60초', key: 'turnSeconds' },
    { game: 'hula', scene: 'hula', option: 'opt-rounds', label: '3판', key: 'rounds' },
  ];
  for (const o of OTHERS)
    it(`a ${o.game} room lists its rules in force in the waiting room and at the table`, async () => {
      const [ctx, p] = await openPage(browser, PHONE);
      await signIn(p, stack.url, `규칙${o.game.slice(0, 4)}`);
      await p.getByTestId('create-room').click();
      await p.getByTestId('create-form').waitFor();
      await p.getByTestId('game').selectOption(o.game);
      // No chooser for a game without presets.
      expect(await p.getByTestId('room-preset').count()).toBe(0);
      await p.getByTestId(o.option).selectOption({ label: o.label });
      await p.getByTestId('create-submit').click();
      await p.getByTestId('seats').waitFor();
      await waitFor('the waiting room list', async () => (await readRules(p)).rows > 0, LONG, 200);
      expect(await readRules(p)).toMatchObject({ title: '', changed: [o.key] });

      await p.getByTestId('add-bot').click();
      await waitFor('a bot', async () => (await p.getByTestId('seats').locator('li:has-text("봇")').count()) >= 1);
      await p.getByTestId('start').click();
      await waitFor(
        `the ${o.game} table`,
        async () => {
          const t = await snapshot(p);
          return t.scene === o.scene && t.frames > 0;
        },
        LONG,
      );
      if (o.game === 'hula') await p.getByTestId('table-rules').click();
      else {
        const layout = (await p.evaluate(() => window.__joke!.layout())) as { menu: { rules: Box } };
        await clickBox(p, await snapshot(p), layout.menu.rules);
      }
      await p.getByTestId('rules').waitFor();
      await waitFor('the table list', async () => (await readRules(p, '[data-testid="rules"]')).rows > 0, LONG, 200);
      expect(await readRules(p, '[data-testid="rules"]')).toMatchObject({ title: '', changed: [o.key] });
      await p.screenshot({ path: `${SHOTS}/rules-in-force-${o.game}-390.png` });
      await ctx.close();
    }, 240_000);
});
