/**
 * 빠른 대전 while every table is taken (issue 37), the scenario both stacks play: the product as `npm start`
 * runs it (queue-full-browser.test.ts) and the services as separate processes on the real NATS and Redis,
 * as measure-stack.sh runs them (queue-full-processes-browser.test.ts). The fleet holds one table and it is
 * taken; two players who quick-match form a table no worker can take (`capacity`), so both stay queued and
 * see the Korean wait with the full-fleet line; one leaves with 대기 취소 and comes back; then a worker joins
 * the fleet and the matchmaker's retry seats them both.
 *
 * Failure modes it catches: a full fleet shown as an error or as a silent wait, a cancel that does not reach
 * the server (the next table would seat a ghost), and a queued table that is never retried once capacity
 * frees. Screenshots (390×844) go to test-results/screenshots/<shots>*.png.
 */
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { openPage, signIn } from './browser.ts';
import { PHONE } from './browser-stack.ts';
import { snapshot, waitFor } from './table-driver.ts';

const SHOTS = fileURLToPath(new URL('../../../test-results/screenshots/', import.meta.url));
export const FULL = '지금은 테이블이 가득 찼어요. 자리가 나면 바로 시작해요';

/**
 * A queue line, the full-fleet line or the table shows within this on a box loaded by the suite's other lanes
 * (30 s was once not enough; the whole scenario took 86 s at a load of 55 on 2 cores, 16 s on a quiet box).
 */
const LONG_MS = 90_000;
const text = async (p: Page, id: string) => (await p.getByTestId(id).textContent()) ?? '';

/** 원카드 · 기본 · 2명, humans only (bots would never decide a seat here), then the waiting screen. */
async function quickMatch(p: Page): Promise<void> {
  await p.getByTestId('quick-game').selectOption('one-card');
  await p.getByTestId('quick-mode').selectOption('classic');
  await p.getByTestId('quick-players').selectOption('2');
  await p.getByTestId('quick-bots').uncheck();
  await p.getByTestId('quick-match').click();
  await p.getByTestId('queue-screen').waitFor();
}

/** The full-fleet line, visible, with the queue counting both players. */
const seesFull = (p: Page, who: string) =>
  waitFor(
    `${who} told the tables are full`,
    async () => (await p.getByTestId('queue-full').isVisible()) && (await text(p, 'queue-full')) === FULL,
    LONG_MS,
  );

export interface FullFleet {
  browser: Browser;
  /** The client's address (sign-in page). */
  url: string;
  /** Screenshot name prefix. */
  shots: string;
  /** Adds a room worker to the fleet; resolves with how to stop it. */
  addWorker(): Promise<() => Promise<void>>;
}

/** Plays the scenario; the fleet's only table must already be taken. */
export async function quickMatchWhileFull(fleet: FullFleet): Promise<void> {
  const { browser, url, shots } = fleet;
  const [[ctxA, a], [ctxB, b]] = await Promise.all([0, 1].map(() => openPage(browser, PHONE)));
  try {
    await Promise.all([signIn(a, url, '가득하나'), signIn(b, url, '가득둘')]);

    // Alone, A waits for a partner: no table was tried yet, so no full-fleet line.
    await quickMatch(a);
    await waitFor('A counted in the queue', async () => (await text(a, 'queue-size')).includes('1/2명'), LONG_MS);
    expect(await a.getByTestId('queue-full').isVisible()).toBe(false);

    // B completes the table; no worker has room, so both stay queued and are told why.
    await quickMatch(b);
    await Promise.all([seesFull(a, 'A'), seesFull(b, 'B')]);
    expect(await text(a, 'queue-size')).toBe('기다리는 사람 2/2명');
    expect(await text(a, 'queue-elapsed')).toMatch(/기다린 시간 \d+:\d\d/);
    expect(await a.getByTestId('queue-cancel').textContent()).toBe('대기 취소');
    expect((await snapshot(a)).scene).not.toBe('table');
    await a.screenshot({ path: `${SHOTS}${shots}.png` });

    // 대기 취소 takes B out of the queue (A is told the queue shrank) and back to the lobby.
    await b.getByTestId('queue-cancel').click();
    await b.getByTestId('room-list').waitFor();
    await waitFor('A alone again', async () => (await text(a, 'queue-size')).includes('1/2명'), LONG_MS);
    // Alone, A waits for a partner again, not for room: the full-fleet line is gone.
    expect(await a.getByTestId('queue-full').isVisible()).toBe(false);
    await a.screenshot({ path: `${SHOTS}${shots}-after-cancel.png` });

    // B comes back: the table forms again and is refused again.
    await quickMatch(b);
    await seesFull(b, 'B again');

    // Capacity frees: a worker joins the fleet, and the matchmaker's retry seats the waiting table there.
    const stopWorker = await fleet.addWorker();
    try {
      const atTable = (p: Page) =>
        waitFor(
          'the quick-match table',
          async () => {
            const s = await snapshot(p);
            return s.scene === 'table' && s.frames > 0 && s.role === 'player' && s.me !== null ? s : null;
          },
          LONG_MS,
        );
      const [sa, sb] = await Promise.all([atTable(a), atTable(b)]);
      expect(sa.opponents.map((o) => o.name)).toEqual(['가득둘']);
      expect(sb.opponents.map((o) => o.name)).toEqual(['가득하나']);
      await a.screenshot({ path: `${SHOTS}${shots}-seated.png` });
    } finally {
      await stopWorker();
    }
  } finally {
    await Promise.all([ctxA.close(), ctxB.close()]);
  }
}
