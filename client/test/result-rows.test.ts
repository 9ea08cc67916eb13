/**
 * What the result screens say (issue 15 item 5): 포커 shows profit and final
 * chips apart, with thousands separators and the rebuys that explain the
 * order; the winner's summary figure is the profit.
 */
import { describe, expect, it } from 'vitest';
import type { PokerResult } from '@joke/engine/client';
import type { PokerView } from '../src/games/poker/model.ts';
import { pokerResult, profitOf, signedChips } from '../src/games/poker/result-rows.ts';

const view = {
  viewer: 'me',
  seedCommit: 'c',
  options: { startingChips: 1000 },
  seats: [
    { id: 'bot', name: '봇 똘이' },
    { id: 'me', name: '나' },
    { id: 'x', name: '현우' },
  ],
} as unknown as PokerView;

/** The table: the bot won 1,018 over its 1,000 buy-in; "me" rebought once and ended on 1,500. */
const result = {
  summary: '',
  seed: 's',
  winners: ['bot'],
  ranking: [
    { player: 'bot', playerId: 'bot', rank: 1, score: 2018, finalChips: 2018, rebuys: 0, eliminatedAtHand: null },
    { player: 'x', playerId: 'x', rank: 2, score: 482, finalChips: 482, rebuys: 0, eliminatedAtHand: null },
    { player: 'me', playerId: 'me', rank: 3, score: 500, finalChips: 1500, rebuys: 1, eliminatedAtHand: null },
  ],
} as unknown as PokerResult;

describe('포커 result rows', () => {
  it('shows the profit and the final chips as separate columns, both with separators', () => {
    const d = pokerResult(view, result);
    expect([d.countLabel, d.scoreLabel]).toEqual(['수익', '최종 칩']);
    expect(d.rows.map((r) => [r.name, r.countText, r.points.toLocaleString('ko-KR')])).toEqual([
      ['봇 똘이', '+1,018', '2,018'],
      ['현우', '-518', '482'],
      ['나', '-500', '1,500'],
    ]);
  });

  it('names the rebuys where they put more chips below fewer', () => {
    const d = pokerResult(view, result);
    // 나 holds more chips than 현우 yet ranks below: the row says why.
    expect(d.rows[2].state).toBe('리바이 1회');
    expect(d.rows[1].state).toBe('완주');
    expect(d.rows.find((r) => r.me)?.name).toBe('나');
  });

  it('counts every buy-in in the profit', () => {
    expect(profitOf(2018, 0, 1000)).toBe(1018);
    expect(profitOf(0, 2, 1000)).toBe(-3000);
    expect([signedChips(1018), signedChips(-12345), signedChips(0)]).toEqual(['+1,018', '-12,345', '0']);
  });
});
