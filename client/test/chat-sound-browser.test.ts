/**
 * Issue 17 in headless Chromium against the real stack: table chat through
 * gateway and room worker, per-player mute, the server's Korean refusals,
 * and audio that starts on the first tap only when sound is on. Every wait is
 * on the client's test hook (`window.__joke.chat()` / `.sound()`), never on a
 * duration.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHAT_ERRORS, CHAT_LIMITS, CHAT_PHRASES } from '@joke/protocol';
import { openPage, signIn } from './support/browser.ts';
import type { Stack } from './support/stack.ts';
import { onBrowserStack, PHONE } from './support/browser-stack.ts';
import { snapshot, waitFor } from './support/table-driver.ts';

const SHOTS = fileURLToPath(new URL('../../test-results/screenshots/', import.meta.url));

let stack: Stack;
let browser: Browser;
onBrowserStack({}, (s, b) => {
  stack = s;
  browser = b;
});

type Chat = NonNullable<ReturnType<NonNullable<Window['__joke']>['chat']>>;
const chat = (p: Page) => p.evaluate(() => window.__joke!.chat()) as Promise<Chat | null>;
const sound = (p: Page) => p.evaluate(() => window.__joke!.sound());

async function atTable(p: Page, role: 'player' | 'spectator'): Promise<void> {
  await waitFor(`${role} table`, async () => {
    const s = await snapshot(p);
    return s.frames > 0 && s.role === role && (await chat(p)) !== null;
  });
}

/** Creates a 원카드 room from the form (private or not), optionally with one bot; returns its lobby id. */
async function createRoom(p: Page, opts: { private: boolean; bot: boolean; botLevel?: string }): Promise<string> {
  await p.getByTestId('create-room').click();
  await p.getByTestId('create-form').waitFor();
  if (opts.private) await p.getByTestId('private').check();
  // 봇 난이도 comes with the engine's options into the generated form, like every other option.
  if (opts.botLevel) await p.getByTestId('opt-botLevel').selectOption({ label: opts.botLevel });
  await p.getByTestId('create-submit').click();
  await p.getByTestId('seats').waitFor();
  if (opts.bot) {
    await p.getByTestId('add-bot').click();
    await waitFor('a bot', async () => (await p.getByTestId('seats').locator('li:has-text("봇")').count()) >= 1);
  }
  return p.evaluate(() => localStorage.getItem('joke.room') ?? '');
}

describe('table chat and sound (issue 17)', () => {
  it('relays phrases and emotes to the other player and the spectator, honours mute, and starts audio on the first tap only when unmuted', async () => {
    const [[ctxA, a], [ctxB, b], [ctxC, c]] = await Promise.all([0, 1, 2].map(() => openPage(browser, PHONE)));
    await a.goto(stack.url);
    // No tap yet: no AudioContext exists (mobile browsers would refuse to start one).
    expect((await sound(a)).context).toBe('none');
    // The three sign in side by side: nothing here depends on their order.
    await Promise.all([
      signIn(a, stack.url, '채팅호스트'),
      signIn(b, stack.url, '채팅손님'),
      signIn(c, stack.url, '채팅관전'),
    ]);
    const unlocked = await waitFor('audio running after the first tap', async () => {
      const s = await sound(a);
      return s.context === 'running' ? s : null;
    });
    expect(unlocked.played[0]).toBe('unlock');

    const roomId = await createRoom(a, { private: false, bot: false });
    expect(roomId).not.toBe('');
    await Promise.all([
      (async () => {
        await b.getByTestId(`join-${roomId}`).click();
        await b.getByTestId('seats').waitFor();
      })(),
      (async () => {
        await c.getByTestId(`spectate-${roomId}`).click();
        await c.getByTestId('seats').waitFor();
      })(),
    ]);
    await waitFor('two players seated', async () => (await a.getByTestId('seats').locator('li').count()) >= 2);
    await a.getByTestId('start').click();
    await Promise.all([atTable(a, 'player'), atTable(b, 'player'), atTable(c, 'spectator')]);
    await waitFor('the deal is heard', async () => (await sound(a)).played.includes('deal'));

    // A public room: phrases and emotes for players; the spectator watches without send controls.
    expect((await chat(c))!.canSend).toBe(false);
    expect((await chat(a))!.canSendText).toBe(false);
    await a.getByTestId('chat-toggle').click();
    await a.getByTestId('chat-phrase-4').click();
    await a.getByTestId('chat-emote-thumbs').click();
    const phrase = CHAT_PHRASES[4];
    let hostId = '';
    for (const viewer of [b, c]) {
      const seen = await waitFor('phrase and emote arrive', async () => {
        const s = await chat(viewer);
        const line = s?.lines.find((l) => l.text === phrase && l.name === '채팅호스트');
        return line && s!.emotes.some((e) => e.from === line.from && e.emote === 'thumbs') ? line : null;
      });
      hostId = seen.from;
    }
    // The open chat as the sender sees it: the toggle's icon, the phrases, the emote over the seat.
    mkdirSync(SHOTS, { recursive: true });
    await a.screenshot({ path: `${SHOTS}table-chat.png` });

    // B mutes A: A's next line reaches the spectator but not B, and A's earlier lines disappear for B.
    await b.getByTestId('chat-toggle').click();
    await b.getByTestId(`chat-mute-${hostId}`).click();
    await a.getByTestId('chat-phrase-2').click();
    await waitFor('spectator sees the next phrase', async () =>
      (await chat(c))?.lines.some((l) => l.text === CHAT_PHRASES[2]),
    );
    const muted = (await chat(b))!;
    expect(muted.muted).toContain(hostId);
    expect(muted.lines.filter((l) => l.from === hostId)).toEqual([]);
    expect(muted.emotes.filter((e) => e.from === hostId)).toEqual([]);
    await Promise.all([ctxA.close(), ctxB.close(), ctxC.close()]);
  }, 300_000);

  it('refuses over-long and control-character text with a Korean reason, and stays silent with sound off', async () => {
    const [ctx, d] = await openPage(browser, PHONE);
    await ctx.addInitScript(() =>
      localStorage.setItem('joke.settings', JSON.stringify({ sound: false, volume: 0.7, voice: true })),
    );
    await signIn(d, stack.url, '비밀방');
    await createRoom(d, { private: true, bot: true, botLevel: '어려움' });
    await expect
      .poll(() => d.locator('[data-testid="rules-in-force"] li', { hasText: '봇 난이도' }).textContent())
      .toContain('어려움');
    await d.getByTestId('start').click();
    await atTable(d, 'player');
    expect((await chat(d))!.canSendText).toBe(true);

    await d.getByTestId('chat-toggle').click();
    const input = d.getByTestId('chat-text');
    const refusal = async (text: string, reason: string) => {
      await input.fill(text);
      await d.getByTestId('chat-send').click();
      await waitFor(`refusal: ${reason}`, async () => (await chat(d))?.notice === reason);
    };
    await refusal('가'.repeat(CHAT_LIMITS.maxTextChars + 1), CHAT_ERRORS.chatTooLong);
    await refusal('뒤집\u202e힌 글', CHAT_ERRORS.chatControl);
    await input.fill('  다들   반가워요  ');
    await d.getByTestId('chat-send').click();
    await waitFor('own text comes back cleaned', async () =>
      (await chat(d))?.lines.some((l) => l.kind === 'text' && l.text === '다들 반가워요'),
    );
    expect((await chat(d))!.lines.some((l) => l.text.includes('가가가'))).toBe(false);

    // Many taps and a whole deal later, with sound off: no AudioContext was ever created, nothing played.
    const s = await sound(d);
    expect(s.context).toBe('none');
    expect(s.played).toEqual([]);
    await ctx.close();
  }, 300_000);
});
