/** The poker screen model's words (issue 16 §3): ranked hand names, draw names, clocks. */
import { describe, expect, it } from 'vitest';
import { countdown, rankedHandName } from '../src/games/poker/story.ts';
import type { Card, PokerView } from '../src/games/poker/model.ts';

const c = (id: number, rank: number, suit: Card['suit'] = 'S'): Card => ({ id, rank, suit }) as Card;

describe('ranked hand names', () => {
  it('pairs, trips and full houses are named by their biggest group, not their kicker', () => {
    expect(rankedHandName('투페어', [c(1, 11), c(2, 11), c(3, 8), c(4, 8), c(5, 14)])).toBe('J 투페어');
    expect(rankedHandName('투페어', [c(1, 9), c(2, 9), c(3, 4), c(4, 4), c(5, 13)])).toBe('9 투페어');
    expect(rankedHandName('풀하우스', [c(1, 3), c(2, 3), c(3, 3), c(4, 13), c(5, 13)])).toBe('3 풀하우스');
  });
  it('straights by their top card; the back straight by its 5; the mountain is A', () => {
    expect(rankedHandName('마운틴', [c(1, 14), c(2, 13), c(3, 12), c(4, 11), c(5, 10)])).toBe('A 마운틴');
    expect(rankedHandName('백 스트레이트', [c(1, 14), c(2, 5), c(3, 4), c(4, 3), c(5, 2)])).toBe('5 백 스트레이트');
    expect(rankedHandName('탑', [c(1, 13), c(2, 9), c(3, 7), c(4, 4), c(5, 2)])).toBe('K 탑');
  });
  it('names that carry their own ranks stay as they are (바둑이, 로우, 인디언, 로열)', () => {
    for (const n of ['7탑 로우', 'K 메이드', '골프', '투베이스', '10·9', 'A 페어', '로열 스트레이트 플러시'])
      expect(rankedHandName(n, [c(1, 14), c(2, 13), c(3, 12), c(4, 11), c(5, 10)])).toBe(n);
  });
});

describe('countdown', () => {
  const view = (phase: string, deadline: number, extra: Partial<PokerView> = {}) =>
    ({
      deadline,
      finished: false,
      phase: 'playing',
      options: { turnSeconds: 20 },
      hand: { phase, toAct: phase === 'betting' ? 'p1' : null },
      ...extra,
    }) as unknown as PokerView;
  it('betting: whose clock, seconds rounded up, urgent in the last 5 s', () => {
    expect(countdown(view('betting', 12_300), 0)).toMatchObject({ seconds: 13, seat: 'p1', urgent: false });
    expect(countdown(view('betting', 4_100), 0)).toMatchObject({ seconds: 5, urgent: true, label: '5초' });
  });
  it('the shared choice/draw/declare clock and the rebuy clock are labelled', () => {
    expect(countdown(view('choice', 29_000), 0)).toMatchObject({ label: '선택 29초', seat: null });
    expect(countdown(view('draw', 9_000), 0)?.label).toBe('교환 9초');
    expect(countdown(view('declare', 1_000), 0)).toMatchObject({ label: '선언 1초', urgent: true });
    expect(countdown(view('betting', 15_000, { phase: 'rebuy', hand: null }), 0)?.label).toBe('리바이 15초');
    expect(countdown(view('showdown', 5_000), 0)).toBeNull();
  });
});
