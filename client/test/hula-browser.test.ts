/**
 * 훌라 end to end in headless Chromium against the real stack (embedded
 * platform, lobby, gateway, room worker with bots), both modes:
 * - 괴물 훌라, 4 players (3 bots), 1 round: play the round by clicking the
 *   canvas (draw from the stock, register, discard, 땡큐/넘기기 when asked) to
 *   the game result; a spectator in another browser context must never
 *   receive another player's hand in any frame.
 * - 조커 훌라, 2 players (1 bot), 3 rounds: play the first round to its result
 *   screen, press 준비, and see the second round dealt.
 * Screenshots: test-results/screenshots/hula-*.png.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, signIn as signInAt } from './support/browser.ts';
import type { Stack } from './support/stack.ts';
import { onBrowserStack } from './support/browser-stack.ts';
import { clickRect, hulaSnapshot, hulaStep, type HulaLog, type HulaSnapshot } from './support/hula-driver.ts';
import { waitFor } from './support/table-driver.ts';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
mkdirSync(SHOTS, { recursive: true });
const PORTRAIT = { width: 390, height: 844 };
const LANDSCAPE = { width: 1440, height: 900 };

let stack: Stack;
let browser: Browser;
onBrowserStack({}, (s, b) => {
  stack = s;
  browser = b;
});

const newPage = (viewport: { width: number; height: number }) => openPage(browser, viewport);
const signIn = (page: Page, nickname: string) => signInAt(page, stack.url, nickname);

async function createHulaRoom(page: Page, mode: 'monster' | 'joker', rounds: string, bots: number): Promise<void> {
  await page.getByTestId('create-room').click();
  await page.getByTestId('create-form').waitFor();
  await page.getByTestId('game').selectOption('hula');
  await page.locator(`label[for="mode-${mode}"]`).click();
  expect(await page.getByTestId(`mode-${mode}`).isChecked()).toBe(true);
  await page.getByTestId('opt-rounds').selectOption({ label: rounds });
  await page.getByTestId('create-submit').click();
  await page.getByTestId('seats').waitFor();
  for (let i = 1; i <= bots; i++) {
    await page.getByTestId('add-bot').click();
    await waitFor(`${i} bots`, async () => (await page.getByTestId('seats').locator('li:has-text("봇")').count()) >= i);
  }
  await page.getByTestId('start').click();
  await waitFor('hula table', async () => {
    const s = await hulaSnapshot(page);
    return s.scene === 'hula' && s.frames > 0 ? s : null;
  });
}

/**
 * Plays by clicking until `done` holds; fails if the table stops moving for 15 s.
 * `onLook` runs once, between two of my turns after my first move: its
 * screenshots and viewport turns take seconds on a loaded box, and spent on
 * my own turn they let the 15 s clock play it for me.
 */
async function playUntil(
  page: Page,
  log: HulaLog,
  done: (s: HulaSnapshot) => boolean,
  onLook?: (s: HulaSnapshot) => Promise<void>,
  busyShot?: string,
  lookReady: () => boolean = () => true,
): Promise<HulaSnapshot> {
  let shotTaken = false;
  let s = await hulaSnapshot(page);
  let lastSeq = -1;
  let lastMove = Date.now();
  let first = true;
  const did: string[] = [];
  while (!done(s)) {
    if (s.seq !== lastSeq) [lastSeq, lastMove] = [s.seq ?? -1, Date.now()];
    if (Date.now() - lastMove > 15_000)
      throw new Error(`stuck: ${did.slice(-10).join(' | ')} ${JSON.stringify(s).slice(0, 1500)}`);
    if (first && onLook && lookReady() && !s.myTurn && !s.result && did.some((d) => d !== 'nothing')) {
      first = false;
      await onLook(s);
      s = await hulaSnapshot(page);
      continue;
    }
    if (busyShot && !shotTaken && s.melds.length >= 2 && s.myTurn && !s.result) {
      // A busier table (melds of several owners) for the screenshot review.
      shotTaken = true;
      await page.screenshot({ path: `${SHOTS}${busyShot}` });
    }
    const step = await hulaStep(page, s, log);
    if (step !== 'wait') did.push(step);
    if (process.env.HULA_DEBUG && step !== 'wait') console.log(Date.now() % 100000, s.phase, s.cards.length, step);
    if (step === 'wait' || step === 'nothing') await page.waitForTimeout(60);
    else {
      const before = s.seq;
      await waitFor(
        'table moves on',
        async () => {
          const n = await hulaSnapshot(page);
          return n.seq !== before || done(n) ? n : null;
        },
        4000,
      ).catch(() => null);
    }
    s = await hulaSnapshot(page);
  }
  return s;
}

type Frame = { role: string; view: Record<string, unknown>; events: Record<string, unknown>[] };

/** Card ids anywhere in `x` (objects with a string id, a suit and a rank). */
function cardIds(x: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(x)) for (const v of x) cardIds(v, out);
  else if (typeof x === 'object' && x !== null) {
    const c = x as Record<string, unknown>;
    if (typeof c.id === 'string' && 'suit' in c && 'rank' in c) out.add(c.id);
    for (const v of Object.values(c)) cardIds(v, out);
  }
  return out;
}

describe('훌라 in the browser (real platform)', () => {
  it('괴물 훌라: creates a room with 3 bots, plays a round by clicking, result screen; a spectator never gets a hand', async () => {
    // Round 1 opens with my draw on a 15 s clock that starts at the deal. The spectator used to sign
    // in and open the table between the deal and my first tap, and on a loaded box that outlasted
    // the clock: it drew for me ("the first draw was not clicked") and a short round could end
    // with no draw of mine at all. Now the spectator signs in before the deal, joins while I play,
    // and the look (screenshots, rotation) waits for the condition "the spectator's table is up".
    const [ctxA, page] = await newPage(PORTRAIT);
    const [ctxB, watcher] = await newPage(LANDSCAPE);
    await signIn(page, '훌라왕');
    await signIn(watcher, '구경꾼');
    await createHulaRoom(page, 'monster', '1판', 3);
    let watching = false;
    const joined = (async () => {
      // Tap once the list shows the game in play: the watcher's list saw the room appear while it was
      // still 대기 중 / 시작하는 중, and each status change rebuilds the list, which swallows a tap that
      // lands during the rebuild (on a loaded box the list caught up just as the tap came).
      await watcher
        .locator('li.room:has(.badge.playing) [data-testid^="spectate-"]')
        .first()
        .click({ timeout: 60_000 })
        .catch(async (err: Error) => {
          // What the watcher's list showed instead (a loaded run once had no playing row for 60 s).
          await watcher.screenshot({ path: `${SHOTS}hula-spectator-list.png` }).catch(() => undefined);
          const list = await watcher
            .getByTestId('room-list')
            .innerText({ timeout: 5000 })
            .catch(() => '(no room list)');
          throw new Error(`${err.message}\nthe watcher's room list: ${JSON.stringify(list)}`, { cause: err });
        });
      await waitFor(
        'spectator table',
        async () => {
          const s = await hulaSnapshot(watcher);
          return s.scene === 'hula' && s.frames > 0 ? s : null;
        },
        60_000,
      );
      watching = true;
    })();
    joined.catch(() => undefined); // awaited after the round; a failure is reported there

    const log: HulaLog = { draws: 0, melds: 0, discards: 0, thankYous: 0, passes: 0, readies: 0, stops: 0 };
    const end = await playUntil(
      page,
      log,
      (s) => s.result?.final === true,
      async (s) => {
        // 7 dealt, fewer once I registered or after a 땡큐 (between my turns: no card drawn and kept).
        expect(s.cards.length).toBeGreaterThan(0);
        expect(s.cards.length).toBeLessThanOrEqual(8);
        expect(s.opponents).toHaveLength(3);
        await page.screenshot({ path: `${SHOTS}hula-portrait.png` });
        await page.setViewportSize(LANDSCAPE);
        await waitFor('landscape', async () => {
          const n = await hulaSnapshot(page);
          return n.orientation === 'landscape' && n.width === LANDSCAPE.width ? n : null;
        });
        await page.waitForTimeout(150);
        await page.screenshot({ path: `${SHOTS}hula-landscape.png` });
        await watcher.screenshot({ path: `${SHOTS}hula-spectator.png` });
        await page.setViewportSize(PORTRAIT);
        await waitFor('portrait', async () => (await hulaSnapshot(page)).orientation === 'portrait');
      },
      'hula-monster-melds.png',
      () => watching,
    );
    await joined;
    expect(log.draws + log.thankYous).toBeGreaterThan(0);
    expect(log.discards + log.melds).toBeGreaterThan(0);
    const res = end.result!;
    expect(res.title).toBe('게임 결과');
    expect(res.rows).toHaveLength(4);
    expect(res.rows.filter((r) => r.me)).toHaveLength(1);
    expect(res.rows[0].rank).toBe(1);
    expect(res.rows.some((r) => r.delta.endsWith('점'))).toBe(true);
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${SHOTS}hula-result.png` });
    // The result screen follows a rotation to landscape and back.
    for (const vp of [LANDSCAPE, PORTRAIT]) {
      await page.setViewportSize(vp);
      const s = await waitFor('result after resize', async () => {
        const n = await hulaSnapshot(page);
        return n.width === vp.width && n.result?.buttons.room ? n : null;
      });
      const room = s.result!.buttons.room;
      expect(room.x >= 0 && room.y >= 0 && room.x + room.w <= vp.width && room.y + room.h <= vp.height).toBe(true);
      await page.waitForTimeout(250);
      if (vp === LANDSCAPE) await page.screenshot({ path: `${SHOTS}hula-result-landscape.png` });
    }

    // The spectator: no hand, no legal hints, and no card face outside the table's public places.
    const frames = (await watcher.evaluate(() => window.__joke!.frames())).map((t) => JSON.parse(t) as Frame);
    // It joined mid-round, so how many frames it saw depends on how much of the round was left (a
    // clean-clone run at load 40 saw 3); each one is checked below.
    expect(frames.length).toBeGreaterThan(0);
    for (const f of frames) {
      expect(f.role).toBe('spectator');
      expect(f.view.hand).toBeNull();
      expect(f.view.me).toBeNull();
      expect(JSON.stringify(f.view)).not.toMatch(/"hands"|"stock":|"stockTop"|"rng"|"seed":/);
      const phase = (f.view.phase as { kind: string }).kind;
      const revealed = phase === 'roundEnd' || phase === 'finished';
      if (!revealed) expect(f.view.lastRound).toBeNull();
      const allowed = cardIds([f.view.discardTop, f.view.melds, revealed ? f.view.lastRound : null]);
      for (const e of f.events) {
        if (e.type === 'drew') expect(e).not.toHaveProperty('card');
        else cardIds(e, allowed);
      }
      const seen = cardIds(f.view);
      for (const id of seen) expect(allowed.has(id), `spectator saw ${id} in phase ${phase}`).toBe(true);
    }
    // Not vacuous: the player's own frames did carry a hand.
    const mine = (await page.evaluate(() => window.__joke!.frames())).map((t) => JSON.parse(t) as Frame);
    expect(mine.some((f) => Array.isArray(f.view.hand) && (f.view.hand as unknown[]).length > 0)).toBe(true);

    // Back to the waiting room from the result screen.
    const last = await hulaSnapshot(page);
    await clickRect(page, last, last.result!.buttons.room);
    await page.getByTestId('seats').waitFor();
    console.log(`monster log: ${JSON.stringify(log)}`);
    await ctxB.close();
    await ctxA.close();
  }, 300_000);

  // Usually 20–50 s depending on the deal; a bot that cannot use our discard passes the race at once.
  // A long round (up to ~18 of our turns before the stock runs out) on a box shared with other test runs
  // (load 15+) stays inside the 360 s budget; a table that stops moving fails in 15 s (playUntil).
  it('조커 훌라: 2 players, plays round 1 by clicking to its result screen, 준비 deals round 2', async () => {
    const [ctx, page] = await newPage(PORTRAIT);
    await signIn(page, '조커왕');
    await createHulaRoom(page, 'joker', '3판', 1);
    const first = await hulaSnapshot(page);
    expect(first.opponents).toHaveLength(1);
    const log: HulaLog = { draws: 0, melds: 0, discards: 0, thankYous: 0, passes: 0, readies: 0, stops: 0 };
    const end = await playUntil(page, log, (s) => s.result !== null, undefined, 'hula-joker-melds.png');
    expect(end.result!.final).toBe(false);
    expect(end.result!.title).toContain('1판 결과');
    expect(end.result!.rows).toHaveLength(2);
    await page.waitForTimeout(200);
    await page.screenshot({ path: `${SHOTS}hula-round-result.png` });
    await clickRect(page, end, end.result!.buttons.ready);
    const next = await waitFor('round 2 dealt', async () => {
      const s = await hulaSnapshot(page);
      return s.result === null && s.phase !== 'roundEnd' && s.cards.length >= 7 ? s : null;
    });
    expect(next.status.length).toBeGreaterThan(0);
    // 나가기 예약 and its cancel, through the button in the top bar. The answer is a round trip through the
    // platform (gateway, room worker, view frame): a page starved on a loaded box has taken over 15 s for it
    // (CI, 2026-12-05), so it may take 60 s; if it never comes, the failure shows what the table showed.
    for (const label of ['예약 취소', '나가기 예약']) {
      const s = await hulaSnapshot(page);
      await clickRect(page, s, s.buttons.leave);
      let seen: HulaSnapshot = s;
      await waitFor(
        `leave button says ${label}`,
        async () => {
          seen = await hulaSnapshot(page);
          return seen.buttons.leave.label === label;
        },
        60_000,
      ).catch(async (e: Error) => {
        await page.screenshot({ path: `${SHOTS}hula-leave-unanswered.png` });
        const connection = await page.evaluate(() => window.__joke!.connection());
        const { seq, phase, myTurn, busy, toasts } = seen;
        const shown = { clicked: s.buttons.leave, button: seen.buttons.leave, seq, phase, myTurn, busy, toasts };
        throw new Error(`${e.message}; table: ${JSON.stringify({ ...shown, connection })}`);
      });
    }
    console.log(`joker log: ${JSON.stringify(log)}`);
    await ctx.close();
  }, 360_000);
});
