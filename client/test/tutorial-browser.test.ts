/**
 * The first-game tutorials in headless Chromium on a 390×844 phone, served as
 * the built client alone (no platform: the tutorial runs the engine in the
 * page and is reachable from the landing page before sign-in). Each game's
 * lesson is played to its summary by tapping only the moves the coach
 * highlights; on 원카드 the highlighted cards are checked against the cards
 * the table lights, and a wrong tap is explained. Screenshots:
 * test-results/screenshots/tutorial-*.png.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { HarnessServer } from './support/harness-server.ts';
import { onHarnessBrowser, SHOTS } from './support/browser-stack.ts';
import { clickAt, clickBox, snapshot, waitFor } from './support/table-driver.ts';
import { clickBox as pokerClick, pokerSnap } from './support/poker-driver.ts';
import { clickRect, hulaSnapshot, select } from './support/hula-driver.ts';

let server: HarnessServer;
let browser: Browser;
onHarnessBrowser((s, b) => {
  server = s;
  browser = b;
});

interface CoachMove {
  key: string;
  label: string;
  cards: string[];
}
interface Coach {
  line: string;
  note: string | null;
  moves: CoachMove[];
  seq: number;
  summary: boolean;
}

const coach = (page: Page): Promise<Coach> =>
  page.evaluate(() => {
    const bar = document.querySelector<HTMLElement>('[data-testid=coach]');
    const note = document.querySelector<HTMLElement>('[data-testid=coach-note]');
    return {
      line: document.querySelector('[data-testid=coach-line]')?.textContent ?? '',
      note: note && !note.hidden ? note.textContent : null,
      moves: JSON.parse(bar?.dataset.moves ?? '[]') as CoachMove[],
      seq: Number(bar?.dataset.seq ?? -1),
      summary: !!document.querySelector('[data-testid=tutorial-summary]'),
    };
  });

/** Waits until the table moved on (a new frame) or the summary opened. */
const next = (page: Page, before: Coach) =>
  waitFor(
    'next tutorial frame',
    async () => {
      const c = await coach(page);
      return c.summary || c.seq !== before.seq ? c : null;
    },
    30_000,
  );

async function openTutorial(game: string): Promise<Page> {
  const page = await browser.newPage({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    // The animation-off setting: bots move at once, so the lesson runs at test speed.
    reducedMotion: 'reduce',
  });
  page.on('pageerror', (e) => console.error(`[page error] ${e.stack ?? e.message}`));
  await page.goto(`${server.base}/`);
  await page.getByTestId(`tutorial-${game}`).click();
  await waitFor('coach', async () => (await coach(page)).seq >= 0, 30_000);
  return page;
}

/** One 원카드 move among the highlighted ones, tapped on the canvas. */
async function oneCardMove(page: Page, c: Coach): Promise<void> {
  const s = await snapshot(page);
  if (s.picker) return clickBox(page, s, s.picker.options[0].rect);
  const lit = s.cards.filter((x) => x.legal).map((x) => x.id);
  const coached = c.moves.filter((m) => s.cards.some((x) => x.id === m.key)).map((m) => m.key);
  // The cards the table lights are exactly the ones the coach names (both from the engine).
  if (s.myTurn) expect(lit.sort()).toEqual(coached.sort());
  if (c.moves.some((m) => m.key === 'oneCard')) return clickBox(page, s, s.buttons.oneCard);
  if (coached.length > 0) {
    const card = s.cards.find((x) => x.id === coached[0])!;
    if (!card.selected) await clickAt(page, s, card.tap.x, card.tap.y);
    const raised = await waitFor('card raised', async () => {
      const n = await snapshot(page);
      return n.cards.find((x) => x.id === card.id)?.selected && n.buttons.play.enabled ? n : null;
    });
    return clickBox(page, raised, raised.buttons.play);
  }
  if (c.moves.some((m) => m.key === 'draw' || m.key === 'pass')) return clickBox(page, s, s.buttons.draw);
}

async function pokerMove(page: Page, c: Coach): Promise<void> {
  const s = await pokerSnap(page);
  const key = ['call', 'check', 'k.call', 'k.check', 'ready'].find((k) => c.moves.some((m) => m.key === k));
  expect(key, c.moves.map((m) => m.key).join(',')).toBeDefined();
  const b = s.buttons.find((x) => x.key === key && x.enabled);
  if (b) await pokerClick(page, s, b);
}

const hulaTaps: string[] = [];
let hulaWrongTried = false;

async function hulaMove(page: Page, c: Coach): Promise<void> {
  const s = await hulaSnapshot(page);
  const m = ['thankYou', 'ready', 'meld', 'layOff', 'draw', 'pass', 'discard']
    .map((k) => c.moves.find((x) => x.key === k))
    .find(Boolean)!;
  if (m.key === 'meld' && !hulaWrongTried) {
    // A wrong try first: two cards that form no group, and the greyed 등록 says why (the engine's words).
    hulaWrongTried = true;
    const loose = s.cards.filter((x) => !c.moves.some((mv) => mv.key === 'meld' && mv.cards.includes(x.id)));
    const sel = await select(
      page,
      s,
      loose.slice(0, 2).map((x) => x.id),
    );
    expect(sel?.buttons.meld).toMatchObject({ visible: true, enabled: false });
    await clickRect(page, sel!, sel!.buttons.meld);
    const why = await waitFor('greyed 등록 explained', async () => (await coach(page)).note);
    expect(why).toContain('등록할 수 없는 조합이에요');
  }
  hulaTaps.push(m.key);
  if (m.key === 'ready') {
    if (s.result?.buttons.ready) await clickRect(page, s, s.result.buttons.ready);
    return;
  }
  if (m.key === 'draw') return clickRect(page, s, s.stock ?? s.buttons.draw);
  if (m.cards.length > 0 && m.key !== 'thankYou') {
    const sel = await select(page, await hulaSnapshot(page), m.cards);
    if (!sel || !sel.buttons[m.key]?.enabled) return;
    return clickRect(page, sel, sel.buttons[m.key]);
  }
  if (s.buttons[m.key]?.enabled) await clickRect(page, s, s.buttons[m.key]);
}

async function playToSummary(page: Page, game: string, move: (p: Page, c: Coach) => Promise<void>): Promise<Coach> {
  let c = await coach(page);
  let shotTaken = false;
  for (let i = 0; i < 400 && !c.summary; i++) {
    if (c.moves.length === 0) {
      c = await next(page, c);
      continue;
    }
    expect(c.line).toMatch(/[가-힣]/);
    if (!shotTaken) {
      await page.screenshot({ path: `${SHOTS}tutorial-${game}-turn.png` });
      shotTaken = true;
    }
    await move(page, c);
    c = await next(page, c);
  }
  expect(c.summary).toBe(true);
  await page.getByTestId('tutorial-summary').waitFor();
  await page.screenshot({ path: `${SHOTS}tutorial-${game}.png` });
  return c;
}

describe('first-game tutorial in the browser, before sign-in', () => {
  it('원카드: a wrong tap is explained, the hand is played to its summary, 다시 하기 starts it again', async () => {
    const page = await openTutorial('one-card');
    const c = await coach(page);
    expect(c.line).toContain('무늬나 숫자가 같은 카드');
    // The prepared deal: ♥5 on the pile, ♦9 in my hand cannot follow it.
    const s = await snapshot(page);
    const wrong = s.cards.find((x) => !x.legal)!;
    await clickAt(page, s, wrong.tap.x, wrong.tap.y);
    const told = await waitFor('refusal explained', async () => (await coach(page)).note);
    expect(told).toContain('같은 무늬나 같은 숫자 카드만 낼 수 있어요');
    await playToSummary(page, 'one-card', oneCardMove);
    expect(await page.getByTestId('tutorial-summary').textContent()).toContain('원카드');
    await page.getByTestId('tutorial-again').click();
    await waitFor('a fresh lesson', async () => {
      const n = await coach(page);
      return !n.summary && n.seq === 0 && n.moves.length > 0;
    });
    await page.close();
  }, 300_000);

  it('포커 (홀덤): blinds, check/call, and a showdown that names the hands; 규칙 보기 opens the rules', async () => {
    const page = await openTutorial('poker');
    expect((await coach(page)).line).toContain('블라인드');
    await playToSummary(page, 'poker', pokerMove);
    // Check/call all the way: the prepared seed reaches a showdown that names both hands.
    expect(await page.getByTestId('tutorial-summary').textContent()).toMatch(/쇼다운! .+: .+, .+: /);
    await page.getByTestId('tutorial-rules').click();
    await page.getByTestId('rules').waitFor();
    await page.getByTestId('rules-close').click();
    await page.close();
  }, 300_000);

  it('훌라: draw, a greyed 등록 explained, 등록, then the summary; 로비로 goes back to the landing page', async () => {
    const page = await openTutorial('hula');
    await playToSummary(page, 'hula', hulaMove);
    // The prepared deal: three 5s and a lone 7 to register once a card is drawn.
    expect(hulaTaps).toContain('meld');
    expect(hulaWrongTried).toBe(true);
    expect(await page.getByTestId('tutorial-summary').textContent()).toContain('이겼어요');
    await page.getByTestId('tutorial-lobby').click();
    await page.getByTestId('tutorial-entry').waitFor();
    await page.screenshot({ path: `${SHOTS}tutorial-landing.png` });
    expect(await page.getByTestId('coach').count()).toBe(0);
    await page.close();
  }, 300_000);
});
