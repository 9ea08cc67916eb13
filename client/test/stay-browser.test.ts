/**
 * Stay for the next game (issue 41 item 5), in headless Chromium against the real stack: browser A creates
 * a 원카드 room from a preset, sends the 초대 link (a stubbed navigator.share catches it), browser B opens the
 * link, signs in and lands in that room as a viewer who sees the rules in force before 자리에 앉기; the two
 * play the game to its result, both press 한 판 더, and the same two people sit at the new game. B's page
 * has no Web Share API, so its 초대 copies the link and says so in a toast. Every step waits on what the
 * page shows. Screenshots (looked at): stay-invite-sheet.png, stay-result-again.png, stay-waiting-again.png,
 * stay-my-record.png (내 기록 in the lobby).
 */
import { fileURLToPath } from 'node:url';
import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { openPage, signIn } from './support/browser.ts';
import type { Stack } from './support/stack.ts';
import { onBrowserStack, PHONE } from './support/browser-stack.ts';
import { clickBox, snapshot, takeTurn, waitFor, type TurnLog } from './support/table-driver.ts';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
const LONG = 120_000;

let stack: Stack;
let browser: Browser;
onBrowserStack({}, (s, b) => {
  stack = s;
  browser = b;
});

/** The table this page plays at, once it shows a game in progress. */
async function atTable(p: Page, what: string) {
  return waitFor(
    what,
    async () => {
      const s = await snapshot(p);
      return s.scene === 'table' && s.frames > 0 && s.role === 'player' && !s.result ? s : null;
    },
    LONG,
  );
}

/** Plays both pages' turns by clicking until both show the result. */
async function playBothToResult(pages: Page[]): Promise<void> {
  const log: TurnLog = { plays: 0, draws: 0, picks: 0, declares: 0, catches: 0 };
  const started = Date.now();
  for (;;) {
    let done = 0;
    for (const p of pages) {
      const s = await snapshot(p);
      if (s.result) {
        done++;
        continue;
      }
      const one = s.buttons.oneCard;
      if (one?.visible && one.enabled) await clickBox(p, s, one);
      if (s.myTurn && !s.busy && !s.finished) {
        const before = s.seq;
        await takeTurn(p, s, log);
        await waitFor(
          'the table moves on',
          async () => {
            const n = await snapshot(p);
            return n.seq !== before || n.picker !== null || n.result ? n : null;
          },
          10_000,
        ).catch(() => null);
      }
    }
    if (done === pages.length) return;
    if (Date.now() - started > 400_000) throw new Error(`game too long: ${JSON.stringify(log)}`);
    await new Promise((r) => setTimeout(r, 80));
  }
}

describe('stay for the next game (issue 41 item 5)', () => {
  it('a room from a preset, joined by the shared link with its rules seen first, played, then 한 판 더 with the same two', async () => {
    mkdirSync(SHOTS, { recursive: true });
    const [[, a], [ctxB, b]] = await Promise.all([0, 1].map(() => openPage(browser, PHONE)));
    // A's browser has the Web Share API: a stub keeps what was shared.
    await a.addInitScript(() => {
      const w = window as unknown as { __shared: ShareData[] };
      w.__shared = [];
      Object.defineProperty(navigator, 'share', {
        value: (data: ShareData) => {
          w.__shared.push(data);
          return Promise.resolve();
        },
      });
    });
    await ctxB.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(stack.url).origin });
    await signIn(a, stack.url, '초대한이');

    // A creates a 원카드 room from a preset, then shortens the hands so the game ends soon.
    await a.getByTestId('create-room').click();
    await a.getByTestId('create-form').waitFor();
    await a.getByTestId('game').selectOption('one-card');
    const preset = a.getByTestId('room-preset');
    await preset.selectOption('beginner');
    await a.getByTestId('opt-handSize').selectOption({ label: '5장' });
    await a.getByTestId('create-submit').click();
    await a.getByTestId('seats').waitFor();
    const roomId = (await a.evaluate(() => localStorage.getItem('joke.room')))!;
    expect(roomId).toBeTruthy();

    // 초대: the sheet shows the link; 링크 보내기 hands it to the Web Share API.
    await a.getByTestId('invite').click();
    await a.getByTestId('invite-sheet').waitFor();
    await a.waitForTimeout(300);
    await a.screenshot({ path: `${SHOTS}stay-invite-sheet.png` });
    expect(await a.getByTestId('invite-send').textContent()).toBe('링크 보내기');
    await a.getByTestId('invite-send').click();
    const shared = await waitFor(
      'the shared link',
      async () => a.evaluate(() => (window as unknown as { __shared: ShareData[] }).__shared[0]?.url ?? null),
      LONG,
    );
    expect(shared).toBe(`${new URL(stack.url).origin}/?room=${roomId}`);
    await a.getByTestId('invite-sheet').waitFor({ state: 'detached' });

    // B opens the link (keeping the test's renderer choice), signs in, and is taken into that room as a viewer.
    await b.goto(`${shared}&renderer=canvas`);
    await b.getByTestId('nickname').fill('받은이');
    await b.getByTestId('login').click();
    await b.getByTestId('sit').waitFor({ timeout: LONG });
    expect(new URL(b.url()).searchParams.get('room'), 'the link is used once').toBeNull();
    // B reads the rules in force before sitting down: the 초보용 preset's changes highlighted.
    const rules = b.locator('[data-testid="rules-in-force"]');
    // Drawn once the game list (the options' labels) has loaded.
    await rules.first().waitFor({ state: 'visible', timeout: LONG });
    await expect.poll(() => rules.first().textContent()).toContain('초보용');
    expect(await rules.first().locator('.changed').count()).toBeGreaterThan(0);
    // B's browser has no Web Share API: 초대 copies the link and says so.
    expect(await b.evaluate(() => typeof navigator.share)).toBe('undefined');
    await b.getByTestId('invite').click();
    await b.getByTestId('invite-send').click();
    await waitFor(
      'the copy toast',
      async () => (await b.getByTestId('toast').textContent()) === '링크를 복사했어요',
      LONG,
    );
    expect(await b.evaluate(() => navigator.clipboard.readText())).toBe(shared);
    await b.getByTestId('sit').click();
    await waitFor('both seated', async () => (await a.getByTestId('seats').locator('li b').count()) === 2, LONG);

    // The first game, played to its result by both.
    await a.getByTestId('start').click({ timeout: LONG });
    const firstA = await atTable(a, 'A at the first table');
    await atTable(b, 'B at the first table');
    expect(firstA.opponents.map((o) => o.name)).toEqual(['받은이']);
    await playBothToResult([a, b]);
    const resA = await waitFor('A result with 한 판 더', async () => (await snapshot(a)).result?.buttons.again, LONG);
    const rankA = (await snapshot(a)).result!.rows.find((r) => r.me)!.rank;
    await a.waitForTimeout(400);
    await a.screenshot({ path: `${SHOTS}stay-result-again.png` });

    // 한 판 더: A first (B's seat shows who agreed), then B; the last vote starts the next game.
    await clickBox(a, await snapshot(a), resA);
    await waitFor('A agreed, shown at its seat', async () => (await a.getByTestId('agreed-0').count()) === 1, LONG);
    expect(await a.getByTestId('again-panel').textContent()).toContain('1/2명 동의');
    await a.screenshot({ path: `${SHOTS}stay-waiting-again.png` });
    const resB = await waitFor('B result with 한 판 더', async () => (await snapshot(b)).result?.buttons.again, LONG);
    await clickBox(b, await snapshot(b), resB);

    const nextA = await atTable(a, 'A at the next table');
    const nextB = await atTable(b, 'B at the next table');
    expect(nextA.opponents.map((o) => o.name)).toEqual(['받은이']);
    expect(nextB.opponents.map((o) => o.name)).toEqual(['초대한이']);
    const room = await stack.platform.lobby.db.room.findUnique({ where: { id: roomId } });
    expect(room?.gamesPlayed).toBe(2);
    expect(room?.options).toMatchObject({ handSize: 5 });

    // 내 기록 in the lobby: A's own numbers for 원카드 after the first game (the list, not the room A sits in).
    await a.evaluate(() => localStorage.removeItem('joke.room'));
    await a.goto(stack.url);
    const record = a.getByTestId('my-record').locator('li[data-game="one-card"]');
    await record.waitFor({ timeout: LONG });
    const won = rankA === 1;
    expect(await record.textContent()).toBe(`원카드 1판 · ${won ? '1승 (100%)' : '0승 (0%)'} · 최고 ${rankA}등`);
    await record.scrollIntoViewIfNeeded();
    await a.screenshot({ path: `${SHOTS}stay-my-record.png` });
  }, 600_000);
});
