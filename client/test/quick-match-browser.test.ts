/**
 * 빠른 대전 in headless Chromium against the real stack (issue 15): one tap
 * from the lobby, the waiting screen with the queue's size and a cancel, and
 * two strangers meeting at one 원카드 table through the matchmaker, each
 * then playing by clicking the canvas. Bots are refused on both sides, so the
 * table can only be the two of them (the server's bot wait never decides).
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { BRAND, PAGE_TITLE } from '@joke/web/brand';
import { openPage, signIn } from './support/browser.ts';
import type { Stack } from './support/stack.ts';
import { onBrowserStack, PHONE } from './support/browser-stack.ts';
import { snapshot, takeTurn, waitFor, type TurnLog } from './support/table-driver.ts';

let stack: Stack;
let browser: Browser;
onBrowserStack({}, (s, b) => {
  stack = s;
  browser = b;
});

/**
 * Picks 원카드 · 기본 · 2명, humans only, and taps 빠른 대전; with `alone`, waits for the waiting screen.
 * The second of two players is matched at once: its waiting screen may be gone (replaced by the table)
 * before a starved browser is polled for it, so that caller waits for the table instead.
 */
async function quickMatch(p: Page, alone = true): Promise<void> {
  await p.getByTestId('quick-game').selectOption('one-card');
  await p.getByTestId('quick-mode').selectOption('classic');
  await p.getByTestId('quick-players').selectOption('2');
  await p.getByTestId('quick-bots').uncheck();
  await p.getByTestId('quick-match').click();
  if (alone) await p.getByTestId('queue-screen').waitFor();
}

const text = async (p: Page, id: string) => (await p.getByTestId(id).textContent()) ?? '';

const newLog = (): TurnLog => ({ plays: 0, draws: 0, picks: 0, declares: 0, catches: 0 });
const moves = (l: TurnLog) => l.plays + l.draws;

/**
 * Plays this player's turns by clicking until `enough()` (both players made their moves) or the game
 * ended: a player who stopped early would leave the other waiting on a turn nobody takes.
 */
async function play(p: Page, log: TurnLog, enough: () => boolean): Promise<void> {
  await waitFor(
    'enough moves',
    async () => {
      const s = await snapshot(p);
      if (s.finished || enough()) return true;
      if (!s.myTurn || s.busy) return false;
      const did = await takeTurn(p, s, log);
      if (did.startsWith('play') || did.startsWith('draw'))
        // A move counts for the next decision only once the table shows a later state.
        await waitFor('the move applied', async () => ((await snapshot(p)).seq ?? -1) > (s.seq ?? -1), 20_000);
      return enough();
    },
    180_000,
    100,
  );
}

describe('빠른 대전 (issue 15)', () => {
  it('two strangers quick-match into one table and both play; the wait shows the queue and can be cancelled', async () => {
    const [[ctxA, a], [ctxB, b]] = await Promise.all([0, 1].map(() => openPage(browser, PHONE)));
    // The landing names the platform, not one of its games (item 8).
    await a.goto(stack.url);
    expect(await a.title()).toBe(PAGE_TITLE);
    expect(await text(a, 'brand')).toBe(BRAND.name);
    expect(await text(a, 'tagline')).toBe(BRAND.tagline);
    await Promise.all([signIn(a, stack.url, '빠른하나'), signIn(b, stack.url, '빠른둘')]);
    expect(await a.locator('.lobby-head h1').textContent()).toBe(BRAND.name);

    // Alone in the queue: the screen says so, counts the time, and the cancel takes A out.
    await quickMatch(a);
    await waitFor('A counted in the queue', async () => (await text(a, 'queue-size')).includes('1/2명'), 30_000);
    expect(await text(a, 'queue-elapsed')).toMatch(/기다린 시간 \d+:\d\d/);
    expect(await text(a, 'queue-bots')).toBe('사람끼리만 기다려요');
    await a.getByTestId('queue-cancel').click();
    await a.getByTestId('room-list').waitFor();

    // Both queue: A again, then B; each sees the table open.
    await quickMatch(a);
    await waitFor('A back in the queue', async () => (await text(a, 'queue-size')).includes('1/2명'), 30_000);
    await quickMatch(b, false);
    const atTable = (p: Page) =>
      waitFor(
        'the quick-match table',
        async () => {
          const s = await snapshot(p);
          return s.scene === 'table' && s.frames > 0 && s.role === 'player' && s.me !== null ? s : null;
        },
        60_000,
      );
    const [sa, sb] = await Promise.all([atTable(a), atTable(b)]);
    // One table, two seats: each sees the other as its only opponent.
    expect(sa.opponents.map((o) => o.name)).toEqual(['빠른둘']);
    expect(sb.opponents.map((o) => o.name)).toEqual(['빠른하나']);
    expect(sa.opponents[0].id).toBe(sb.me!.id);

    const [logA, logB] = [newLog(), newLog()];
    const enough = () => moves(logA) >= 3 && moves(logB) >= 3;
    await Promise.all([play(a, logA, enough), play(b, logB, enough)]);
    // Three moves each, unless someone went out first (then each still moved at least once).
    const finished = (await snapshot(a)).finished;
    expect(Math.min(moves(logA), moves(logB))).toBeGreaterThanOrEqual(finished ? 1 : 3);
    await Promise.all([ctxA.close(), ctxB.close()]);
  }, 300_000);
});
