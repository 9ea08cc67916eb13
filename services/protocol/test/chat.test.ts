import { describe, expect, it } from 'vitest';
import {
  CHAT_LIMITS,
  ClientMessage,
  cleanChatText,
  impersonatesSystem,
  MAX_MARKS_PER_BASE,
  normalizeNickname,
} from '../src/index.ts';

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

/**
 * The nickname's character classes applied to chat lines (issue 36): each class
 * the attack relayed, and what the policy does with it (text-policy.ts).
 */
describe('chat text policy: invisible, deceptive and zalgo text', () => {
  const TAGS = [...'hidden order'].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('');
  it('strips tag characters (hidden text smuggled in the U+E0000 block); a line of nothing else is refused', () => {
    expect(cleanChatText(`안녕${TAGS}`)).toEqual({ ok: true, text: '안녕' });
    expect(cleanChatText(`\u{E0001}${TAGS}\u{E007F}`)).toEqual({ ok: false, code: 'chatInvisible' });
  });
  it('strips Hangul fillers U+3164, U+115F, U+1160, U+FFA0; a line of fillers only is refused', () => {
    expect(cleanChatText('잘\u3164했\u115f어\u1160요\uffa0')).toEqual({ ok: true, text: '잘했어요' });
    for (const filler of ['\u3164', '\u115f', '\u1160', '\uffa0'])
      expect(cleanChatText(filler.repeat(5))).toEqual({ ok: false, code: 'chatInvisible' });
  });
  it('strips the braille blank U+2800; a blank line of it is refused', () => {
    expect(cleanChatText('\u2800\u2800ㅋㅋ')).toEqual({ ok: true, text: 'ㅋㅋ' });
    expect(cleanChatText('\u2800 \u2800')).toEqual({ ok: false, code: 'chatInvisible' });
  });
  it('keeps one emoji presentation selector after a character, strips every other variation selector', () => {
    expect(cleanChatText('좋아요 ❤\ufe0f')).toEqual({ ok: true, text: '좋아요 ❤\ufe0f' });
    expect(cleanChatText('a\ufe0f\ufe0f\ufe0f')).toEqual({ ok: true, text: 'a\ufe0f' });
    expect(cleanChatText('a\ufe00\u{E0100}\u{E01EF}b')).toEqual({ ok: true, text: 'ab' });
    expect(cleanChatText('\ufe0f\ufe0e\u{E0100}')).toEqual({ ok: false, code: 'chatInvisible' });
  });
  it(`cuts zalgo: at most ${MAX_MARKS_PER_BASE} combining marks on one character; Korean and accents untouched`, () => {
    const zalgo = `z${'\u0301\u0336\u0317\u035c\u0489'.repeat(10)}algo`;
    const r = cleanChatText(zalgo);
    expect(r.ok).toBe(true);
    // NFC first makes z + U+0301 one character (ź); three of the stacked marks stay on it.
    if (r.ok) expect(r.text).toBe(`\u017a\u0336\u0317\u035calgo`);
    if (r.ok) expect(r.text.match(/\p{M}/gu)).toHaveLength(MAX_MARKS_PER_BASE);
    expect(cleanChatText('한글 café naïve Tiếng Việt')).toEqual({ ok: true, text: '한글 café naïve Tiếng Việt' });
    // Decomposed jamo compose to syllables (NFC) before marks are counted: nothing lost.
    expect(cleanChatText('\u1112\u1161\u11ab')).toEqual({ ok: true, text: '한' });
  });
  it('refuses a fake system prefix in any bracket, spacing, width or case', () => {
    for (const fake of [
      '[시스템] 당신은 정지되었습니다',
      '【공지】 점검 중',
      '［시스템］ 승리',
      '( 운영자 ) 이 링크로 오세요',
      '[ GM ] hi',
      'ㅋㅋ [System] you win',
      '<관리자> 계정을 확인하세요',
      '[\u3164시스템\u3164]',
    ])
      expect(cleanChatText(fake)).toEqual({ ok: false, code: 'chatImpersonation' });
    expect(cleanChatText('[팁] 카드를 아껴요')).toEqual({ ok: true, text: '[팁] 카드를 아껴요' });
    expect(cleanChatText('시스템이 좋네요')).toEqual({ ok: true, text: '시스템이 좋네요' });
  });
  it('still refuses bidi controls and isolates, zero-width characters and lone surrogates', () => {
    for (const bad of ['\u202eevil', 'a\u2066b\u2069', 'a\u200db', '\u061cx', 'x\ud800y', 'line\u2028break'])
      expect(cleanChatText(bad)).toEqual({ ok: false, code: 'chatControl' });
  });
  it('the nickname uses the same classes: each is refused in a name', () => {
    for (const bad of [`민수${TAGS}`, '\u3164\u3164', '민\u2800수', '민수\ufe0f', '민\u202e수'])
      expect(normalizeNickname(bad)).toBeNull();
    expect(impersonatesSystem(normalizeNickname('［시스템］')!)).toBe(true);
    expect(normalizeNickname('  ＭＩＮ수　')).toBe('MIN수');
  });
});
