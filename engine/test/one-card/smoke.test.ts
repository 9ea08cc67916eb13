import { describe, expect, it } from 'vitest';
import { games } from '../../src/games/index.ts';
import { simAdapters } from '../../src/games/sims.ts';
import { oneCard } from '../../src/games/one-card/index.ts';
import { fresh, hand, ok, play, rig, rejects } from './helpers.ts';

describe('one-card registration', () => {
  it('is registered with its sim adapter under "one-card"', () => {
    expect(games['one-card']).toBe(oneCard);
    expect(simAdapters['one-card'].game).toBe(oneCard);
    expect(oneCard.name).toBe('원카드');
    expect(oneCard.modes).toEqual([
      { id: 'classic', name: '원카드' },
      { id: 'uno-style', name: '색깔 카드' },
    ]);
    for (const m of oneCard.modes) expect(m.name).not.toMatch(/UNO|우노/i);
  });

  it('deals handSize cards to everyone and a start card', () => {
    const s = fresh({}, 4);
    for (const p of s.seats) expect(s.hands[p]).toHaveLength(7);
    expect(s.discard).toHaveLength(1);
    expect(s.drawPile).toHaveLength(54 - 28 - 1);
  });

  it('plays a matching card and passes the turn', () => {
    const s = rig({}, 3, { hands: { p1: ['H5', 'C9'], p2: ['D4'], p3: ['S4'] }, discard: ['H8'], current: 'p1' });
    const r = ok(play(s, 'p1', ['H5']));
    expect(hand(r.state, 'p1')).toEqual(['C9']);
    expect(r.state.current).toBe('p2');
    rejects(r.state, (st) => play(st, 'p2', ['D4']), '같은 무늬나 같은 숫자 카드만 낼 수 있어요');
  });
});
