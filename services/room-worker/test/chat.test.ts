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
