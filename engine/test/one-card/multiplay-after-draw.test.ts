import { describe, expect, it } from 'vitest';
import { oneCard } from '../../src/games/one-card/index.ts';
import { act, hand, idOf, ok, play, rejects, rig } from './helpers.ts';

const ALONE = '뽑은 뒤에는 방금 뽑은 카드 1장만 낼 수 있어요';

describe('원카드 multiPlay and the draw (§8.2, §5.2 B-2)', () => {
  it('§8.2 — afterDraw: only the drawn card, alone, even with multiPlay on and even when it would empty the hand', () => {
    const s = rig({ multiPlay: true, playAfterDraw: true }, 2, {
      hands: { p1: ['H2'], p2: ['D9', 'DK'] },
      discard: ['S8'],
      pile: ['S2', 'C9', 'C9'],
      current: 'p1',
    });
    const drawn = ok(act(s, 'p1', { type: 'draw' })).state;
    expect(drawn.phase.kind).toBe('afterDraw');
    expect(hand(drawn, 'p1')).toEqual(['H2', 'S2']);
    const v = oneCard.view(drawn, 'p1');
    expect(v.legal.multiPlay).toBe(false);
    expect(v.legal.multiPlays).toEqual([]);
    expect(v.legalCardIds).toEqual([idOf(drawn, 'p1', 'S2')]);
    rejects(drawn, (x) => play(x, 'p1', ['S2', 'H2']), ALONE);
    rejects(drawn, (x) => play(x, 'p1', ['H2', 'S2']));
    expect(hand(ok(play(drawn, 'p1', ['S2'])).state, 'p1')).toEqual(['H2']);
  });

  it('§5.2 C — the view lists every legal multi-card play in the turn phase (lead first, lastCardRule checked when it empties the hand)', () => {
    const s = rig({ multiPlay: true, lastCardRule: 'attack' }, 3, {
      hands: { p1: ['H5', 'C5', 'S5', 'D9'], p2: ['D3'], p3: ['D4'] },
      discard: ['H8'],
      current: 'p1',
    });
    const v = oneCard.view(s, 'p1');
    const id = (c: string) => idOf(s, 'p1', c);
    expect(v.legal.multiPlay).toBe(true);
    // Only ♥5 may lead on ♥8; any non-empty subset of the other 5s may follow it.
    expect(v.legal.multiPlays).toEqual([
      [id('H5'), id('C5')],
      [id('H5'), id('S5')],
      [id('H5'), id('C5'), id('S5')],
    ]);
    for (const p of v.legal.multiPlays) expect(oneCard.apply(s, 'p1', { type: 'play', cardIds: p }, 0).ok).toBe(true);
    // Emptying the hand with an attack card is not listed (lastCardRule = attack checks every card).
    const last = rig({ multiPlay: true, lastCardRule: 'attack' }, 3, {
      hands: { p1: ['H2', 'C2'], p2: ['D3'], p3: ['D4'] },
      discard: ['H8'],
      current: 'p1',
    });
    expect(oneCard.view(last, 'p1').legal.multiPlays).toEqual([]);
    expect(
      oneCard.view(rig({}, 3, { hands: { p1: ['H5', 'C5'] }, discard: ['H8'], current: 'p1' }), 'p1').legal.multiPlays,
    ).toEqual([]);
  });
});
