/**
 * Rooms that live and die properly, in headless Chromium against the real
 * stack (issue 15): the host closes the browser and the other player is told
 * they are host now and starts the game; a spectator who closes the page no
 * longer counts in the list; a room nobody is connected to leaves the list,
 * is closed, and its former member is told so on coming back. The platform
 * runs with lifecycle timings of a few seconds, and every step waits on what
 * the page shows, never on a duration.
 */
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, signIn } from './support/browser.ts';
import type { Stack } from './support/stack.ts';
import { onBrowserStack, PHONE } from './support/browser-stack.ts';
import { snapshot, waitFor } from './support/table-driver.ts';

/** Away after 3 s without a call (the waiting room calls every second), host passes 2 s later, empty room closes after 3 s. */
const LIFECYCLE = { awayAfterMs: 3000, hostGraceMs: 2000, emptyCloseMs: 3000 };
/** Generous: the box is shared and loaded; the waits end as soon as the page shows the state. */
const LONG = 90_000;

let stack: Stack;
let browser: Browser;
onBrowserStack({ lifecycle: LIFECYCLE }, (s, b) => {
  stack = s;
  browser = b;
});

/** Creates a public 원카드 room from the lobby and returns its id once the waiting room shows. */
async function createRoom(p: Page): Promise<string> {
  await p.getByTestId('create-room').click();
  await p.getByTestId('create-form').waitFor();
  await p.getByTestId('game').selectOption('one-card');
  await p.getByTestId('create-submit').click();
  await p.getByTestId('seats').waitFor();
  const id = await p.evaluate(() => localStorage.getItem('joke.room'));
  expect(id).toBeTruthy();
  return id!;
}

/** The room's line in this page's room list ('' while it is not listed). */
/**
 * The room's line in the list as it reads now ('' when absent), in one read: a count() then a
 * textContent() raced the list's refresh, and the second then waited the page's whole action timeout
 * for a line that had just gone — longer than the wait around it.
 */
async function listLine(p: Page, roomId: string): Promise<string> {
  return p.evaluate(
    (id) => document.querySelector(`[data-testid="room-list"] li[data-room="${id}"]`)?.textContent ?? '',
    roomId,
  );
}

describe('room lifecycle in the browser (issue 15)', () => {
  it('the host closes the browser: the other player is told they are host now, and starts the game', async () => {
    const [[ctxA, a], [ctxB, b]] = await Promise.all([0, 1].map(() => openPage(browser, PHONE)));
    await Promise.all([signIn(a, stack.url, '방장하나'), signIn(b, stack.url, '손님둘')]);
    const roomId = await createRoom(a);
    await b.getByTestId(`join-${roomId}`).click({ timeout: LONG });
    await waitFor('both seated', async () => (await b.getByTestId('seats').locator('li b').count()) === 2, LONG);
    // Not host yet: no start button, the waiting line instead.
    expect(await b.getByTestId('start').count()).toBe(0);
    expect(await b.getByTestId('room-notice').count()).toBe(0);

    await ctxA.close();

    const notice = b.getByTestId('room-notice');
    await waitFor(
      'B told they are host, with the start button enabled',
      async () =>
        (await notice.count()) === 1 &&
        (await b.getByTestId('start').count()) === 1 &&
        (await b.getByTestId('start').isEnabled()),
      LONG,
      200,
    );
    expect(await notice.getAttribute('data-code')).toBe('hostPassed');
    expect(await notice.textContent()).toBe('방장이 자리를 비워서 내가 새 방장이 됐어요. 이제 게임을 시작할 수 있어요');
    const mine = b.getByTestId('seats').locator('li', { hasText: '손님둘' });
    expect(await mine.textContent()).toContain('방장');

    await b.getByTestId('start').click();
    const s = await waitFor(
      'the table B started',
      async () => {
        const t = await snapshot(b);
        return t.scene === 'table' && t.frames > 0 && t.role === 'player' ? t : null;
      },
      LONG,
    );
    expect(s.opponents.map((o) => o.name)).toEqual(['방장하나']);
    await ctxB.close();
  }, 300_000);

  it('the list counts only connected spectators, and a room with nobody connected leaves it and closes', async () => {
    const [[ctxC, c], [ctxD, d], [ctxE, e]] = await Promise.all([0, 1, 2].map(() => openPage(browser, PHONE)));
    await Promise.all([signIn(c, stack.url, '만든이'), signIn(d, stack.url, '둘러봄'), signIn(e, stack.url, '구경꾼')]);
    const roomId = await createRoom(c);

    // A spectator counts while its page is open, and stops counting once it is closed.
    await e.getByTestId(`spectate-${roomId}`).click({ timeout: LONG });
    await e.getByTestId('seats').waitFor();
    await waitFor('관전 1 in the list', async () => (await listLine(d, roomId)).includes('관전 1'), LONG, 200);
    await ctxE.close();
    await waitFor('관전 0 in the list', async () => (await listLine(d, roomId)).includes('관전 0'), LONG, 200);

    // The only member leaves the page (no 나가기): the room drops off the list, then the lobby closes it.
    await c.goto('about:blank');
    await waitFor('the room off the list', async () => (await listLine(d, roomId)) === '', LONG, 200);
    await waitFor(
      'the room closed',
      async () => (await stack.platform.lobby.db.room.findUnique({ where: { id: roomId } })) === null,
      LONG,
      200,
    );

    // Coming back, the creator is not left waiting in a room that is gone: the list says why.
    await c.goto(stack.url);
    const said = c.getByTestId('notice');
    await waitFor('the closed-room message', async () => (await said.getAttribute('data-code')) === 'roomClosed', LONG);
    expect(await said.textContent()).toBe('기다리던 방이 닫혔어요. 한동안 아무도 접속해 있지 않았어요');
    expect(await c.evaluate(() => localStorage.getItem('joke.room'))).toBeNull();
    await Promise.all([ctxC.close(), ctxD.close()]);
  }, 300_000);
});
