import { describe, expect, it } from 'vitest';
import { CHAT_LIMITS, ClientMessage, cleanChatText } from '../src/index.ts';

describe('chat text cleaning (issue 17: length limit, control characters)', () => {
  it('turns tabs and newlines into single spaces and trims', () => {
    expect(cleanChatText('  한 판\n\t더! ')).toEqual({ ok: true, text: '한 판 더!' });
  });
  it('refuses other control and invisible formatting characters instead of dropping them', () => {
    for (const bad of ['a\u0000b', 'esc\u001b[31m', '\u202eevil', 'zero\u200bwidth', 'del\u007f'])
      expect(cleanChatText(bad)).toEqual({ ok: false, code: 'chatControl' });
  });
  it('counts characters, not UTF-16 units, against the limit', () => {
    expect(cleanChatText('가'.repeat(CHAT_LIMITS.maxTextChars)).ok).toBe(true);
    expect(cleanChatText('😀'.repeat(CHAT_LIMITS.maxTextChars)).ok).toBe(true);
    expect(cleanChatText('가'.repeat(CHAT_LIMITS.maxTextChars + 1))).toEqual({ ok: false, code: 'chatTooLong' });
  });
  it('refuses an empty message', () => {
    expect(cleanChatText(' \n ')).toEqual({ ok: false, code: 'chatEmpty' });
  });
  it('is a client message; unknown phrases and emotes are malformed', () => {
    const ok = { v: 1, t: 'chat', roomId: 'r1', body: { kind: 'phrase', phrase: 0 } };
    expect(ClientMessage.safeParse(ok).success).toBe(true);
    expect(ClientMessage.safeParse({ ...ok, body: { kind: 'phrase', phrase: 99 } }).success).toBe(false);
    expect(ClientMessage.safeParse({ ...ok, body: { kind: 'emote', emote: 'nope' } }).success).toBe(false);
  });
});
