/**
 * Spec §9 접근성 settings as pure logic (poker.md §9, one-card.md §9): the
 * 4-colour deck's suit inks and texture keys, the large-text scale, and the
 * turn-start buzz. The browser side (the drawn cards, nothing clipped at 360 px,
 * navigator.vibrate on a real table) is in accessibility-browser.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BLUE, GREEN, INK, RED, paletteKey, suitInk } from '../src/cards/art-common.ts';
import { LARGE_TEXT_SCALE, getSettings, textScale, updateSettings } from '../src/settings.ts';
import { TURN_BUZZ, TurnBuzz } from '../src/sound/turn-buzz.ts';
import { tx } from '../src/table-kit/theme.ts';

afterEach(() => {
  updateSettings({ fourColorDeck: false, largeText: false, vibrate: true });
  vi.unstubAllGlobals();
});

describe('poker §9 접근성: 4색 덱', () => {
  it('is off by default: ♥◆ red, ♠♣ black (one-card §9)', () => {
    expect(getSettings().fourColorDeck).toBe(false);
    expect(['S', 'D', 'H', 'C'].map((s) => suitInk(s as 'S'))).toEqual([INK, RED, RED, INK]);
  });

  it('on: ♠ black, ◆ blue, ♥ red, ♣ green — four different inks, and new texture keys', () => {
    const before = paletteKey();
    updateSettings({ fourColorDeck: true });
    expect(['S', 'D', 'H', 'C'].map((s) => suitInk(s as 'S'))).toEqual([INK, BLUE, RED, GREEN]);
    expect(new Set([INK, BLUE, RED, GREEN]).size).toBe(4);
    // A face drawn in the old palette must not be reused after a live switch.
    expect(paletteKey()).not.toBe(before);
  });
});

describe('poker §9 접근성: 큰 글씨 모드', () => {
  it('scales every canvas text size by the large-text factor, and only when on', () => {
    expect(textScale()).toBe(1);
    expect(tx(15)).toBe(15);
    updateSettings({ largeText: true });
    expect(textScale()).toBe(LARGE_TEXT_SCALE);
    expect(tx(15)).toBe(Math.round(15 * LARGE_TEXT_SCALE));
  });
});

describe('poker §9 초보자 도움: 내 차례에 진동', () => {
  const oneCard = (current: string) => ({ viewer: 'me', current, finished: false });
  const poker = (legal: { type: string }[]) => ({ viewer: 'me', legalActions: legal, finished: false });

  it('buzzes once when the turn becomes mine, not on later frames of the same turn', () => {
    const vibrate = vi.fn(() => true);
    vi.stubGlobal('navigator', { vibrate });
    const buzz = new TurnBuzz();
    buzz.frame(oneCard('bob'));
    expect(vibrate).not.toHaveBeenCalled();
    buzz.frame(oneCard('me'));
    buzz.frame(oneCard('me'));
    expect(vibrate).toHaveBeenCalledTimes(1);
    expect(vibrate).toHaveBeenCalledWith(TURN_BUZZ);
    buzz.frame(oneCard('bob'));
    buzz.frame(oneCard('me'));
    expect(vibrate).toHaveBeenCalledTimes(2);
  });

  it('poker: legal actions make it my turn; a rebuy offer does not', () => {
    const vibrate = vi.fn(() => true);
    vi.stubGlobal('navigator', { vibrate });
    const buzz = new TurnBuzz();
    buzz.frame(poker([{ type: 'rebuy' }]));
    expect(vibrate).not.toHaveBeenCalled();
    buzz.frame(poker([{ type: 'k.call' }]));
    expect(vibrate).toHaveBeenCalledTimes(1);
  });

  it('stays still when the setting is off, and where the device has no vibrate', () => {
    const vibrate = vi.fn(() => true);
    vi.stubGlobal('navigator', { vibrate });
    updateSettings({ vibrate: false });
    const buzz = new TurnBuzz();
    expect(buzz.frame(oneCard('me'))).toBe(false);
    expect(vibrate).not.toHaveBeenCalled();
    updateSettings({ vibrate: true });
    vi.stubGlobal('navigator', {});
    expect(new TurnBuzz().frame(oneCard('me'))).toBe(false);
  });
});
