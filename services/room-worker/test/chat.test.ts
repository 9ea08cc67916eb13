/**
 * The room owner's chat relay (issue 17): who may speak, what is refused
 * with which Korean reason, the per-user rate limit on an injected clock, and
 * one relayed frame per gateway that hosts viewers of the room.
 */
import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { InProcessBus } from '@joke/bus';
import {
  CHAT_ERRORS,
  CHAT_LIMITS,
  ChatMessage,
  chatSubjects,
  wireText,
  type ChatBody,
  type ChatPolicy,
} from '@joke/protocol';
import { subscribeChat } from '../src/chat.ts';
import type { ViewerMeta } from '../src/room-types.ts';

function relay(policy: ChatPolicy | undefined, viewers: ViewerMeta[]) {
  const bus = new InProcessBus();
  let now = 0;
  const sub = subscribeChat(
    { bus, log: pino({ level: 'silent' }), now: () => now },
    { id: 'r1', policy: () => policy, viewers: () => viewers },
  );
  const delivered: { gateway: string; msg: ChatMessage }[] = [];
  for (const g of ['gwA', 'gwB', 'gwC'])
    bus.subscribe(chatSubjects.gateway(g), (m) =>
      delivered.push({ gateway: g, msg: ChatMessage.parse(JSON.parse(JSON.parse(wireText(m.data)).frame)) }),
    );
  const say = async (userId: string, body: ChatBody) =>
    JSON.parse(
      wireText(
        await bus.request(
          chatSubjects.room('r1'),
          JSON.stringify({ v: 1, userId, name: userId, gatewayId: 'gwA', body }),
          1000,
        ),
      ),
    ) as { ok: boolean; code?: string; reason?: string };
  return { say, delivered, advance: (ms: number) => (now += ms), close: () => sub.unsubscribe() };
}

const viewers: ViewerMeta[] = [
  { userId: 'alice', gatewayId: 'gwA', role: 'player', connected: true },
  { userId: 'bob', gatewayId: 'gwB', role: 'player', connected: true },
  { userId: 'sue', gatewayId: 'gwB', role: 'spectator', connected: true },
  { userId: 'gone', gatewayId: 'gwC', role: 'player', connected: false },
];
const flush = () => new Promise((r) => setTimeout(r, 0));

describe('chat relay on the room owner', () => {
  it('relays a phrase once to each gateway with connected viewers, naming the sender and role', async () => {
    const r = relay(undefined, viewers);
    expect(await r.say('alice', { kind: 'phrase', phrase: 1 })).toEqual({ ok: true });
    await flush();
    expect(r.delivered.map((d) => d.gateway).sort()).toEqual(['gwA', 'gwB']);
    expect(r.delivered[0].msg).toMatchObject({ from: 'alice', role: 'player', body: { kind: 'phrase', phrase: 1 } });
  });

  it('public room: spectators and free text are refused, people not in the room too', async () => {
    const r = relay(undefined, viewers);
    expect(await r.say('sue', { kind: 'emote', emote: 'clap' })).toMatchObject({
      ok: false,
      code: 'chatSpectator',
      reason: CHAT_ERRORS.chatSpectator,
    });
    expect(await r.say('alice', { kind: 'text', text: '안녕' })).toMatchObject({ code: 'chatTextPrivateOnly' });
    expect(await r.say('mallory', { kind: 'phrase', phrase: 0 })).toMatchObject({ code: 'chatNotInRoom' });
    expect(await r.say('gone', { kind: 'phrase', phrase: 0 })).toMatchObject({ code: 'chatNotInRoom' });
    await flush();
    expect(r.delivered).toEqual([]);
  });

  it('private room: spectators speak, text is cleaned, over-long and control characters refused', async () => {
    const r = relay({ freeText: true, spectators: true }, viewers);
    expect(await r.say('sue', { kind: 'text', text: ' 잘\n봤어요 ' })).toEqual({ ok: true });
    expect(await r.say('bob', { kind: 'text', text: 'x'.repeat(CHAT_LIMITS.maxTextChars + 1) })).toMatchObject({
      code: 'chatTooLong',
      reason: CHAT_ERRORS.chatTooLong,
    });
    expect(await r.say('bob', { kind: 'text', text: 'bell\u0007' })).toMatchObject({ code: 'chatControl' });
    await flush();
    expect(r.delivered.map((d) => d.msg.body)).toEqual([
      { kind: 'text', text: '잘 봤어요' },
      { kind: 'text', text: '잘 봤어요' },
    ]);
  });

  it('rate limit per user: the burst passes, the next is refused, time refills it', async () => {
    const r = relay(undefined, viewers);
    for (let i = 0; i < CHAT_LIMITS.rateBurst; i++)
      expect((await r.say('alice', { kind: 'phrase', phrase: 0 })).ok).toBe(true);
    expect(await r.say('alice', { kind: 'phrase', phrase: 0 })).toMatchObject({ code: 'chatRateLimited' });
    // Someone else is not slowed by alice.
    expect((await r.say('bob', { kind: 'phrase', phrase: 0 })).ok).toBe(true);
    r.advance(1000 / CHAT_LIMITS.ratePerSecond);
    expect((await r.say('alice', { kind: 'phrase', phrase: 0 })).ok).toBe(true);
  });
});

/**
 * The room's chat budget (issue 36): 200 spectators of one private room gave
 * every player 117–122 lines a second. Fake time in 200 ms steps for 10 s.
 */
describe('chat budget per room', () => {
  it('200 spectators spamming: every player line gets through, spectators are refused first, each viewer gets a bounded rate', async () => {
    const crowd: ViewerMeta[] = Array.from({ length: 200 }, (_, i) => ({
      userId: `s${i}`,
      gatewayId: 'gwC',
      role: 'spectator' as const,
      connected: true,
    }));
    const r = relay({ freeText: true, spectators: true }, [...viewers, ...crowd]);
    const playerReplies: { ok: boolean; code?: string }[] = [];
    const spectatorCodes = new Map<string, number>();
    for (let step = 0; step < 50; step++) {
      // Every spectator tries every step (their own limit lets each through now and then); the two
      // players speak every 2 s, within their own limit.
      const tries = crowd.map((s) => r.say(s.userId, { kind: 'text', text: `도배 ${step}` }));
      if (step % 10 === 0) for (const p of ['alice', 'bob']) tries.push(r.say(p, { kind: 'phrase', phrase: 2 }));
      const replies = await Promise.all(tries);
      replies.slice(0, crowd.length).forEach((x) => {
        const key = x.ok ? 'ok' : x.code!;
        spectatorCodes.set(key, (spectatorCodes.get(key) ?? 0) + 1);
      });
      playerReplies.push(...replies.slice(crowd.length));
      r.advance(200);
    }
    await flush();
    // The players' 10 lines each all went out.
    expect(playerReplies).toHaveLength(10);
    expect(playerReplies.every((x) => x.ok)).toBe(true);
    // Spectators were turned away by the room's budget, with its code (not a disconnect).
    expect(spectatorCodes.get('chatRoomBusy')).toBeGreaterThan(100);
    // What one player's gateway received: by any moment t, at most burst + rate × t lines (the room's
    // token bucket), whoever sent them.
    const toPlayer = r.delivered.filter((x) => x.gateway === 'gwA').map((d) => d.msg.at);
    for (let t = 0; t <= 10_000; t += 200)
      expect(toPlayer.filter((at) => at <= t).length).toBeLessThanOrEqual(
        CHAT_LIMITS.roomBurst + (t / 1000) * CHAT_LIMITS.roomRatePerSecond,
      );
    const total = toPlayer.length;
    // Before: every spectator's own allowance went out, ≈ 200 × (4 + 0.5 × 10) = 1,800 lines in 10 s.
    expect(total).toBeLessThan(100);
  });

  it('a spectator may not take the players’ reserve; a player may take the last line', async () => {
    const bus = new InProcessBus();
    let now = 0;
    const sub = subscribeChat(
      { bus, log: pino({ level: 'silent' }), now: () => now, budget: { ratePerSecond: 1, burst: 3, playerReserve: 2 } },
      { id: 'r2', policy: () => ({ freeText: false, spectators: true }), viewers: () => viewers },
    );
    const say = async (userId: string) =>
      JSON.parse(
        wireText(
          await bus.request(
            chatSubjects.room('r2'),
            JSON.stringify({ v: 1, userId, name: userId, gatewayId: 'gwA', body: { kind: 'emote', emote: 'wow' } }),
            1000,
          ),
        ),
      );
    expect(await say('sue')).toEqual({ ok: true });
    expect(await say('sue')).toEqual({ ok: false, code: 'chatRoomBusy', reason: CHAT_ERRORS.chatRoomBusy });
    expect(await say('alice')).toEqual({ ok: true });
    expect(await say('bob')).toEqual({ ok: true });
    expect(await say('alice')).toMatchObject({ code: 'chatRoomBusy' });
    now += 1000;
    expect(await say('bob')).toEqual({ ok: true });
    sub.unsubscribe();
    await bus.close();
  });
});
