/**
 * Which sounds a table frame calls for (issue 17): the event → effect map of
 * the three games, the Korean call-outs, and the last-5-seconds tick on the
 * viewer's own turn only.
 */
import { describe, expect, it } from 'vitest';
import { cuesFor, warningSecond } from '../src/sound/cues.ts';

describe('sound cues', () => {
  it('the first frame of a running table deals; later frames sound their events once each', () => {
    expect(cuesFor({ view: { finished: false }, events: [] }, true).effects).toEqual(['deal']);
    expect(cuesFor({ view: { finished: true }, events: [] }, true).effects).toEqual([]);
    const oneCard = cuesFor(
      {
        view: {},
        events: [{ type: 'cardPlayed', declareOneCard: true }, { type: 'cardsDrawn' }, { type: 'cardPlayed' }],
      },
      false,
    );
    expect(oneCard.effects).toEqual(['play', 'oneCard', 'draw']);
  });

  it('poker: chips by bet size, fold, the Korean word to call out; a betting round end is not a win', () => {
    expect(cuesFor({ view: {}, events: [{ type: 'action', action: 'k.ddadang' }] }, false)).toEqual({
      effects: ['chipRaise'],
      say: '따당',
    });
    expect(cuesFor({ view: {}, events: [{ type: 'action', action: 'k.die' }] }, false)).toEqual({
      effects: ['fold'],
      say: '다이',
    });
    expect(cuesFor({ view: {}, events: [{ type: 'action', action: 'nl.call' }] }, false)).toEqual({
      effects: ['chipCall'],
      say: null,
    });
    expect(cuesFor({ view: {}, events: [{ type: 'roundEnd', street: 1 }] }, false).effects).toEqual([]);
    expect(cuesFor({ view: {}, events: [{ type: 'handEnd' }] }, false).effects).toEqual(['win']);
  });

  it('훌라: 땡큐, 스톱, and the round end', () => {
    const c = cuesFor(
      { view: {}, events: [{ type: 'thankYouClaimed' }, { type: 'stop' }, { type: 'roundEnd' }] },
      false,
    );
    expect(c.effects).toEqual(['thankYou', 'stop', 'win']);
  });

  it('the timer ticks in the last 5 s of my own turn only', () => {
    const mine = { viewer: 'me', current: 'me', deadline: 10_000, finished: false };
    expect(warningSecond(mine, 4_000)).toBeNull();
    expect(warningSecond(mine, 5_500)).toBe(5);
    expect(warningSecond(mine, 9_100)).toBe(1);
    expect(warningSecond(mine, 10_000)).toBeNull();
    expect(warningSecond({ ...mine, current: 'other' }, 9_000)).toBeNull();
    expect(warningSecond({ viewer: 'me', toAct: 'me', deadline: 10_000 }, 9_000)).toBe(1);
    expect(warningSecond({ ...mine, viewer: null }, 9_000)).toBeNull();
  });
});
