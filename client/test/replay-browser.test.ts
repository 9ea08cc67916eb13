/**
 * 복기 in headless Chromium against the real stack (embedded platform, lobby, gateway, worker with bots):
 * - 원카드, 포커 and 훌라 each played to its result by clicking, a person against one bot, with the shortest
 *   game the room form allows (원카드 5 cards, the mildest attacks, bankrupt at 15 cards (ROOMS); 홀덤 500 chips, big blind 20 (the least the form allows is 20 blinds deep), no rebuy, 10 hands, all in whenever
 *   betting allows; 괴물 훌라 1 round): the result screen's 복기 button opens the game in the same table
 *   scene; step to the last action; the browser's proof passes. Then the same game by its link in a fresh
 *   context with no sign-in: stepped to the end, proof passed, the saved record passes `npm run verify`.
 *   The recent games list opens the 원카드 one too.
 * - a record served with one card swapped (playwright route over the lobby's answer) fails the proof,
 *   naming the step and the card in Korean.
 * - a private room's game by link: sign-in first, refused to a stranger, opened once they join.
 * Stuck = no new frame for 45 s; a game not over in GAME_MS fails; every wait on the page allows 90 s. Screenshots at 390×844, DPR 3: test-results/screenshots/replay-*.png.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { subjects } from '@joke/protocol';
import { createTRPCClient, httpBatchLink } from '@trpc/client';
import type { AppRouter } from '@joke/lobby';
import { games } from '@joke/engine/client';
import type { GameRecord } from '@joke/engine/client';
import { PAGE_TIMEOUT_MS, signIn as signInAt } from './support/browser.ts';
import type { Stack } from './support/stack.ts';
import { onBrowserStack, PHONE } from './support/browser-stack.ts';
import { clickBox, snapshot, takeTurn, waitFor, type TableSnapshot, type TurnLog } from './support/table-driver.ts';
import { ALL_IN, pokerSnap, takePokerTurn } from './support/poker-driver.ts';
import { hulaSnapshot, hulaStep, type HulaLog } from './support/hula-driver.ts';
import { botRecord, tamper } from './support/replay-records.ts';
import { buildTimeline } from '../src/replay/timeline.ts';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));
mkdirSync(SHOTS, { recursive: true });
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

let stack: Stack;
let browser: Browser;
// Quick bots: three whole games are played here, and the bots' think time is most of their wall time.
onBrowserStack({ botDelayMs: 30, botJitterMs: 10 }, (s, b) => {
  stack = s;
  browser = b;
});

async function phone(): Promise<[BrowserContext, Page]> {
  const ctx = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 3, locale: 'ko-KR' });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => console.error(`[page error] ${e.stack ?? e.message}`));
  return [ctx, page];
}

/** Stores a bot-played game as finished, as the room worker publishes it; resolves once the lobby has it. */
async function storeFinished(
  gameId: string,
  id: keyof typeof games,
  options: Record<string, unknown>,
  players: { id: string; name: string; bot: boolean }[],
): Promise<GameRecord> {
  const record = botRecord(
    id,
    options,
    players.map(({ id: pid, name }) => ({ id: pid, name })),
    `browser-${gameId}`,
  );
  stack.platform.bus.publish(
    subjects.roomFinished,
    JSON.stringify({
      v: 1,
      roomId: gameId,
      game: id,
      mode: String(record.options.mode),
      players,
      record,
      result: record.result,
      finishedAt: Date.now(),
    }),
  );
  await new Promise((r) => setImmediate(r));
  await stack.platform.lobby.idle();
  return record;
}

function api(token: () => string | undefined) {
  return createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${stack.httpUrl}/trpc`,
        headers: () => {
          const t = token();
          return t ? { authorization: `Bearer ${t}` } : {};
        },
      }),
    ],
  });
}

async function barState(page: Page): Promise<{ position: number; last: number; proof: string | null }> {
  return page.getByTestId('replay-bar').evaluate((bar) => ({
    position: Number((bar as HTMLElement).dataset.position),
    last: Number((bar as HTMLElement).dataset.last),
    proof: (bar.querySelector('[data-testid="replay-proof"]') as HTMLElement | null)?.dataset.ok ?? null,
  }));
}

/** Waits for what the page shows as long as Playwright's own waits do: a page on a loaded box was starved for tens of seconds. */
const waitLong = <T>(what: string, fn: () => Promise<T | null | undefined | false>) =>
  waitFor(what, fn, PAGE_TIMEOUT_MS);

/** Buttons that only mean something at a live table (the 복기 can play nothing); local ones (sort, rules) may stay. */
const LOCAL_BUTTONS = new Set(['sortSuit', 'sortRank', 'rules', 'settings', 'leave', 'sort', 'exit']);

/** Labels of the live action buttons drawn, from the test hook of any game's scene. */
function liveButtons(snap: TableSnapshot): string[] {
  // 포커 lists only the action buttons it shows (an array); the other scenes name every button they have.
  const b: unknown = snap.buttons;
  if (Array.isArray(b)) return b.map((x: { label?: string }) => x.label ?? '?');
  return Object.entries(snap.buttons)
    .filter(([k, x]) => x.visible && (!LOCAL_BUTTONS.has(k) || (snap.scene === 'hula' && k === 'leave')))
    .map(([k, x]) => `${k}:${x.label}`);
}

/**
 * At the last step the result panel is up with 닫기 only (no 대기실로 / 로비로: the bar is the way out), no live
 * action button is drawn, and 닫기 folds the panel away so the table can be read.
 */
async function replayEndShowsNoLiveButton(page: Page): Promise<void> {
  const shown = await waitLong('the result panel at the last step', async () => {
    const s = await snapshot(page);
    return s.result ? s : null;
  });
  const panel = shown.result!.buttons;
  expect(Object.keys(panel)).toEqual(['close']);
  expect(liveButtons(shown)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}replay-${shown.scene}-end-panel.png` });
  await clickBox(page, shown, panel.close);
  const closed = await waitLong('닫기 folds the result panel', async () => {
    const s = await snapshot(page);
    return s.result === null ? s : null;
  });
  expect(liveButtons(closed)).toEqual([]);
}

/** Steps forward once, back once, jumps to the end; the proof chip must say pass. */
async function stepToEnd(page: Page, shot: string): Promise<void> {
  await page.getByTestId('replay-bar').waitFor();
  const start = await barState(page);
  expect(start.position).toBe(0);
  expect(start.last).toBeGreaterThan(1);
  await page.getByTestId('replay-next').click();
  await waitLong('one step forward', async () => ((await barState(page)).position === 1 ? true : null));
  await page.getByTestId('replay-back').click();
  await waitLong('one step back', async () => ((await barState(page)).position === 0 ? true : null));
  await page.getByTestId('replay-last').click();
  const end = await waitLong('at the last action, proof checked', async () => {
    const s = await barState(page);
    return s.position === s.last && s.proof !== null ? s : null;
  });
  expect(end.proof).toBe('true');
  await replayEndShowsNoLiveButton(page);
  await page.screenshot({ path: `${SHOTS}replay-${shot}-end.png` });
  await page.getByTestId('replay-proof').click();
  await page.getByTestId('proof-sheet').waitFor();
  expect(await page.getByTestId('proof-verdict').textContent()).toContain('통과');
  expect(await page.getByTestId('proof-commit').textContent()).toBe(
    await page.getByTestId('proof-computed').textContent(),
  );
  await page.screenshot({ path: `${SHOTS}replay-${shot}-proof.png` });
  await page.getByTestId('proof-sheet-close').click();
}

type Family = 'one-card' | 'poker' | 'hula';

/** How long one game may take to play by clicking, and the whole test of one family (game, 복기 twice, verify). */
const GAME_MS = 200_000;
const FAMILY_TEST_MS = GAME_MS + 200_000;

/** Where the table stands after one move of the person: its frame number, and whether the game is over. */
type Move = { seq: number | null; over: boolean };

/** The room form's shortest game of each family, a person against one bot. */
const ROOMS: Record<Family, (page: Page) => Promise<void>> = {
  // The game's length is the deal's luck: with the rules as written, bot against bot, its median is 51 actions
  // but one in ten runs past 155 and one in a hundred past 290 (engine/src/sim/transitions.ts, 400 seeds), and
  // each of my turns costs about 1.2 s of clicks and hook reads on a loaded box. Mild attacks, several cards of
  // a rank at once, a drawn card played at once and bankruptcy at 15 cards cut the tail to 70 / 138 actions.
  'one-card': async (page) => {
    await page.getByTestId('opt-handSize').selectOption({ label: '5장' });
    await page.getByTestId('opt-bankruptLimit').selectOption({ label: '15장' });
    await page.getByTestId('opt-playAfterDraw').check();
    await page.getByTestId('opt-multiPlay').check();
    for (const [key, least] of [
      ['attack2', 1],
      ['attackA', 2],
      ['attackSpadeA', 3],
      ['attackColorJoker', 5],
    ] as const)
      await page.getByTestId(`opt-${key}`).fill(String(least));
  },
  poker: async (page) => {
    await page.getByTestId('game').selectOption('poker');
    await page.locator('label[for="mode-holdem"]').click();
    await page.getByTestId('opt-startingChips').selectOption({ label: '500' });
    await page.getByTestId('opt-baseUnit').selectOption({ label: '20' });
    await page.getByTestId('opt-rebuy').selectOption({ label: '없음' });
    await page.getByTestId('opt-handLimit').selectOption({ label: '10판' });
  },
  hula: async (page) => {
    await page.getByTestId('game').selectOption('hula');
    await page.locator('label[for="mode-monster"]').click();
    await page.getByTestId('opt-rounds').selectOption({ label: '1판' });
  },
};

/** One move by clicking, with the family's driver; waits until the table answered it. */
function mover(id: Family, page: Page): () => Promise<Move> {
  const moved = async <S extends { seq: number | null }>(read: () => Promise<S>, before: number | null, ms: number) =>
    waitFor('table moves on', async () => ((await read()).seq !== before ? true : null), ms).catch(() => null);
  if (id === 'one-card') {
    const log: TurnLog = { plays: 0, draws: 0, picks: 0, declares: 0, catches: 0 };
    return async () => {
      const snap = await snapshot(page);
      if (snap.result) return { seq: snap.seq, over: true };
      const one = snap.buttons.oneCard;
      if (one.visible && one.enabled) await clickBox(page, snap, one);
      if (snap.myTurn && !snap.busy && !snap.finished) {
        await takeTurn(page, snap, log);
        await waitFor('table moves on', async () => {
          const s = await snapshot(page);
          return s.seq !== snap.seq || s.picker !== null || s.result ? s : null;
        }).catch(() => null);
      } else await page.waitForTimeout(80);
      return { seq: snap.seq, over: false };
    };
  }
  if (id === 'poker')
    return async () => {
      const s = await pokerSnap(page);
      if (s.result) return { seq: s.seq, over: true };
      const pressed = s.myTurn && !s.busy ? await takePokerTurn(page, s, ALL_IN) : null;
      if (pressed) await moved(() => pokerSnap(page), s.seq, 30_000);
      else await page.waitForTimeout(60);
      return { seq: s.seq, over: false };
    };
  const log: HulaLog = { draws: 0, melds: 0, discards: 0, thankYous: 0, passes: 0, readies: 0, stops: 0 };
  return async () => {
    const s = await hulaSnapshot(page);
    if (s.result?.final) return { seq: s.seq, over: true };
    const step = await hulaStep(page, s, log);
    if (step === 'wait' || step === 'nothing') await page.waitForTimeout(60);
    else await moved(() => hulaSnapshot(page), s.seq, 4000);
    return { seq: s.seq, over: false };
  };
}

/** Signs in, opens the family's shortest room with one bot, plays it to its result screen by clicking. */
async function playToResult(page: Page, id: Family): Promise<void> {
  await signInAt(page, stack.url, '복기러');
  await page.getByTestId('create-room').click();
  await page.getByTestId('create-form').waitFor();
  await ROOMS[id](page);
  // The longest clock: on a loaded box a screenshot or a slow frame must not let the clock play for me.
  if (await page.getByTestId('opt-turnSeconds').isVisible())
    await page.getByTestId('opt-turnSeconds').selectOption({ label: '60초' });
  await page.getByTestId('create-submit').click();
  await page.getByTestId('seats').waitFor();
  await page.getByTestId('add-bot').click();
  await waitLong('a bot', async () => (await page.getByTestId('seats').locator('li:has-text("봇")').count()) >= 1);
  await page.getByTestId('start').click();
  const scene = { 'one-card': 'table', poker: 'poker', hula: 'hula' }[id];
  await waitLong('table', async () => {
    const s = (await page.evaluate(() => window.__joke!.layout())) as { scene?: string; frames?: number };
    return s.scene === scene && (s.frames ?? 0) > 0 ? true : null;
  });
  const move = mover(id, page);
  let seq: number | null = -1;
  const started = Date.now();
  let movedAt = started;
  for (let m = await move(); !m.over; m = await move()) {
    if (m.seq !== seq) [seq, movedAt] = [m.seq, Date.now()];
    if (Date.now() - movedAt > 45_000) throw new Error(`${id}: no new frame for 45 s at seq ${seq}`);
    // Each game took 10–35 s on a quiet box, 20 s to a minute on one with a load of 28 (2 cores); a long
    // deal of 원카드 (ROOMS) may take two or three. A stuck table is caught above; this only bounds the file.
    if (Date.now() - started > GAME_MS) throw new Error(`${id}: not over after ${GAME_MS / 1000} s (seq ${seq})`);
  }
}

/** The saved record is what `npm run verify` reads; poker also saves a plain-text hand history. */
async function saveAndVerify(page: Page, id: Family): Promise<void> {
  await page.getByTestId('replay-more').click();
  const [json] = await Promise.all([page.waitForEvent('download'), page.getByTestId('replay-save-json').click()]);
  const file = join(SHOTS, `replay-${id}.json`);
  await json.saveAs(file);
  const verify = spawnSync(process.execPath, ['--import', 'tsx', 'engine/src/record/cli.ts', file], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  expect(verify.stdout).toContain('"verified":1');
  expect(verify.status).toBe(0);
  if (id === 'poker') {
    const [text] = await Promise.all([page.waitForEvent('download'), page.getByTestId('replay-save-text').click()]);
    const saved = join(SHOTS, 'replay-poker-hands.txt');
    await text.saveAs(saved);
    expect(readFileSync(saved, 'utf8')).toMatch(/^=== 1번째 판 \(holdem\) ===\n좌석 1: /);
  }
}

describe('복기 in the browser', () => {
  for (const id of ['one-card', 'poker', 'hula'] as const)
    it(
      `${id} played to its result: 복기 from the result screen and by link with no sign-in, the proof passes`,
      async () => {
        const [ctx, page] = await phone();
        await playToResult(page, id);
        await page.getByTestId('open-replay').waitFor();
        await page.screenshot({ path: `${SHOTS}replay-${id}-result.png` });
        await page.getByTestId('open-replay').click();
        await stepToEnd(page, id);
        const gameId = /#\/replay\/([\w-]+)$/.exec(page.url())?.[1];
        expect(gameId).toBeTruthy();
        await page.getByTestId('replay-hands').click();
        await page.getByTestId('hands-sheet').waitFor();
        expect(await page.getByTestId('hands-sheet').textContent()).toContain('복기러');
        await page.screenshot({ path: `${SHOTS}replay-${id}-hands.png` });
        await page.getByTestId('hands-sheet-close').click();
        if (id === 'one-card') {
          // The same game from the recent games list.
          await page.goto(stack.url);
          await page.getByTestId('history-replay').first().click();
          await page.getByTestId('replay-bar').waitFor();
          expect((await barState(page)).position).toBe(0);
        }
        await ctx.close();

        // The same game by its link, in a browser that never signed in.
        const [fresh, stranger] = await phone();
        await stranger.goto(`${stack.url}#/replay/${gameId}`);
        await stranger.getByTestId('replay-bar').waitFor();
        await stranger.screenshot({ path: `${SHOTS}replay-${id}-link-start.png` });
        const jump = stranger.getByTestId('replay-jump');
        const labels = await jump.locator('option').allTextContents();
        expect(labels[0]).toBe('처음');
        expect(labels.at(-1)).toBe('끝');
        // A game of several hands / rounds lists each; jumping to one moves the table there.
        if (labels.length > 2) {
          expect(labels[1]).toMatch(id === 'poker' ? /번째 판$/ : /라운드$/);
          await jump.selectOption({ index: 1 });
          await waitLong('jumped', async () => ((await barState(stranger)).position > 0 ? true : null));
          await stranger.getByTestId('replay-first').click();
        }
        await stepToEnd(stranger, `${id}-link`);
        await saveAndVerify(stranger, id);
        await fresh.close();
      },
      FAMILY_TEST_MS,
    );

  it('a record served with one card swapped fails the proof, naming the step and the card', async () => {
    const gameId = 'g_replay_tampered';
    const record = await storeFinished(gameId, 'one-card', { mode: 'classic', handSize: 5 }, [
      { id: 'u_replay_tamper_1', name: '검증러', bot: false },
      { id: 'bot_tamper_1', name: '봇 민수', bot: true },
    ]);
    const bad = tamper({
      ...record,
      players: record.players.map((p, i) => ({ ...p, id: `seat${i}` })),
    });
    const t = buildTimeline(games['one-card'], {
      ...record,
      players: record.players.map((p, i) => ({ ...p, id: `seat${i}` })),
    });
    const swapped = t.view.cardName(t.states[bad.step - 1], bad.to);
    const [ctx, page] = await phone();
    await page.route('**/trpc/history.replay**', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { result: { data: { record: GameRecord } } }[];
      const data = body[0].result.data;
      const step = data.record.actions[bad.step - 1] as { action: { cardIds: string[] } };
      step.action.cardIds[0] = bad.to;
      await route.fulfill({ response, json: body });
    });
    await page.goto(`${stack.url}#/replay/${gameId}`);
    await page.getByTestId('replay-bar').waitFor();
    await waitLong('proof checked', async () => ((await barState(page)).proof === 'false' ? true : null));
    expect(await page.getByTestId('replay-proof').textContent()).toContain('실패');
    await page.getByTestId('replay-proof').click();
    const failure = await page.getByTestId('proof-failure').textContent();
    expect(failure).toContain(`${bad.step}번째 동작`);
    expect(failure).toContain(`카드 ${swapped}`);
    await page.screenshot({ path: `${SHOTS}replay-tampered-proof.png` });
    await ctx.close();
  });

  it('a private room game by link: sign-in first, then refused to a stranger, opened once they join the room', async () => {
    // A private room started by someone else (over the API); its game is stored as finished.
    const me = await api(() => undefined).auth.guest.mutate({ nickname: '방장' });
    const host = api(() => me.token);
    const room = await host.rooms.create.mutate({ game: 'one-card', options: { handSize: 5 }, isPrivate: true });
    await host.rooms.addBot.mutate({ roomId: room.roomId });
    const { gameRoomId } = await host.rooms.start.mutate({ roomId: room.roomId });
    await storeFinished(gameRoomId, 'one-card', { mode: 'classic', handSize: 5 }, [
      { id: me.userId, name: '방장', bot: false },
      { id: 'bot_private_1', name: '봇 민수', bot: true },
    ]);

    const [ctx, page] = await phone();
    await page.goto(`${stack.url}#/replay/${gameRoomId}`);
    await waitLong('asked to sign in', async () =>
      (
        (await page
          .getByTestId('replay-message')
          .textContent()
          .catch(() => '')) ?? ''
      ).includes('로그인하면')
        ? true
        : null,
    );
    await page.screenshot({ path: `${SHOTS}replay-private-signin.png` });
    await page.getByTestId('replay-message-button').click();
    await page.getByTestId('nickname').fill('친구');
    await page.getByTestId('login').click();
    // Signed in, the 복기 is asked again: a stranger to the room is told why not.
    await waitLong('refused as a stranger', async () =>
      (
        (await page
          .getByTestId('replay-message')
          .textContent()
          .catch(() => '')) ?? ''
      ).includes('참가자만')
        ? true
        : null,
    );
    // Invited into the room (its code), the same link opens.
    const session = await page.evaluate(
      () => JSON.parse(localStorage.getItem('joke.session') ?? '{}') as { token?: string },
    );
    const code = (await host.rooms.get.query({ roomId: room.roomId })).code!;
    await api(() => session.token).rooms.join.mutate({ code });
    await page.goto(`${stack.url}#/replay/${gameRoomId}`);
    await page.reload();
    await page.getByTestId('replay-bar').waitFor();
    await waitLong('proof', async () => ((await barState(page)).proof === 'true' ? true : null));
    await ctx.close();
  });
});
