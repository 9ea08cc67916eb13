/** §5.3 the one-card declaration window. */
import { describe, expect, it } from 'vitest';
import { oneCard } from '../../src/games/one-card/index.ts';
import { act, ok, play, rejects, rig } from './helpers.ts';

const DECLARE = { type: 'declareOneCard' };

describe('§5.3 one-card declaration', () => {
  it('§5.3 — the window opens when a play leaves exactly one card, and every player (not spectators) gets the button', () => {
    const s = rig({}, 3, {
      hands: { p1: ['H5', 'C9'], p2: ['D4', 'D6'], p3: ['S4', 'S5'] },
      discard: ['H8'],
      current: 'p1',
    });
    const s1 = ok(play(s, 'p1', ['H5'])).state;
    expect(s1.oneCardWindow).toEqual({ player: 'p1', declared: false, openedSeq: 1 });
    expect(oneCard.view(s1, 'p1').legal).toMatchObject({ canDeclareOneCard: true, oneCardIsCatch: false });
    expect(oneCard.view(s1, 'p3').legal).toMatchObject({ canDeclareOneCard: true, oneCardIsCatch: true });
    expect(oneCard.view(s1, null).legal.canDeclareOneCard).toBe(false);
    expect(oneCard.view(s1, null).oneCardWindow).toMatchObject({ player: 'p1' });
    const s2 = rig({}, 3, { hands: { p1: ['H5', 'C9', 'C8'] }, discard: ['H8'], current: 'p1' });
    expect(ok(play(s2, 'p1', ['H5'])).state.oneCardWindow).toBeNull();
  });

  it('§5.3 — the game does not pause: the next player plays while the window is open, and a catch still works in classic', () => {
    const s = rig({}, 3, {
      hands: { p1: ['H5', 'C9'], p2: ['H4', 'D6', 'D7'], p3: ['S4', 'S5'] },
      discard: ['H8'],
      current: 'p1',
    });
    const s1 = ok(play(s, 'p1', ['H5'])).state;
    const s2 = ok(play(s1, 'p2', ['H4'])).state;
    expect(s2.oneCardWindow?.player).toBe('p1');
    const caught = ok(act(s2, 'p3', DECLARE)).state;
    expect(caught.hands.p1).toHaveLength(2);
  });

  it('§5.3 — classic: the window closes when the player’s next turn starts; uncaught, they may then go out', () => {
    const s = rig({}, 2, { hands: { p1: ['H5', 'C9'], p2: ['H4', 'D6', 'D7'] }, discard: ['H8'], current: 'p1' });
    const s1 = ok(play(s, 'p1', ['H5'])).state;
    const s2 = ok(play(s1, 'p2', ['H4'])).state;
    expect(s2.current).toBe('p1');
    expect(s2.oneCardWindow).toBeNull();
    rejects(s2, (x) => act(x, 'p2', DECLARE), '지금은 원카드를 외칠 수 없어요');
    const s3 = rig({}, 2, { hands: { p1: ['H9'], p2: ['D6', 'D7'] }, discard: ['H8'], current: 'p1' });
    expect(ok(play(s3, 'p1', ['H9'])).state.phase.kind).toBe('finished');
  });

  it('§5.3 — the window stays open through the owner’s own extra turn (K) until they act', () => {
    const s = rig({}, 3, { hands: { p1: ['HK', 'C9'] }, discard: ['H8'], current: 'p1' });
    const s1 = ok(play(s, 'p1', ['HK'])).state;
    expect(s1.current).toBe('p1');
    expect(s1.oneCardWindow?.player).toBe('p1');
    expect(ok(act(s1, 'p2', DECLARE)).state.hands.p1).toHaveLength(2);
  });

  it('§5.3 — the window closes when the owner’s hand is no longer one card (drawing under attack)', () => {
    const s = rig({}, 2, { hands: { p1: ['H5', 'C9'], p2: ['H2', 'D6', 'D7'] }, discard: ['H8'], current: 'p1' });
    const s1 = ok(play(s, 'p1', ['H5'])).state;
    const s2 = ok(play(s1, 'p2', ['H2'])).state;
    expect(s2.oneCardWindow).toBeNull(); // p1's turn started
    const t = rig({}, 3, {
      hands: { p1: ['H5', 'C9'], p2: ['H4', 'D6'], p3: ['S4', 'S5'] },
      discard: ['H8'],
      current: 'p1',
    });
    const t1 = ok(play(t, 'p1', ['H5'])).state;
    const t2 = ok(act(ok(act(t1, 'p1', DECLARE)).state, 'p2', { type: 'draw' })).state;
    expect(t2.oneCardWindow).toMatchObject({ player: 'p1', declared: true });
  });

  it('§5.3 — the penalty is oneCardPenalty cards', () => {
    const s = rig({ oneCardPenalty: 3 }, 3, { hands: { p1: ['H5', 'C9'] }, discard: ['H8'], current: 'p1' });
    const s1 = ok(play(s, 'p1', ['H5'])).state;
    expect(ok(act(s1, 'p3', DECLARE)).state.hands.p1).toHaveLength(4);
  });

  it('§5.3 — autoDeclare declares the moment the hand reaches one card', () => {
    const s = rig({ autoDeclare: true }, 3, { hands: { p1: ['H5', 'C9'] }, discard: ['H8'], current: 'p1' });
    const r = ok(play(s, 'p1', ['H5']));
    expect(r.state.oneCardWindow?.declared).toBe(true);
    expect(r.events.find((e) => e.type === 'oneCardDeclared')).toMatchObject({ player: 'p1', auto: true });
    rejects(r.state, (x) => act(x, 'p2', DECLARE), '이미 원카드를 외쳤어요');
  });

  it('§5.3 — players who are out or bankrupt cannot call, and with no window nobody can', () => {
    const s = rig({ endCondition: 'last-standing' }, 3, {
      hands: { p1: ['H5', 'C9'], p2: [], p3: ['S4', 'S5'] },
      status: { p1: 'playing', p2: 'out', p3: 'playing' },
      finishOrder: ['p2'],
      discard: ['H8'],
      current: 'p1',
    });
    rejects(s, (x) => act(x, 'p3', DECLARE), '지금은 원카드를 외칠 수 없어요');
    const s1 = ok(play(s, 'p1', ['H5'])).state;
    rejects(s1, (x) => act(x, 'p2', DECLARE), '게임에서 빠진 사람은 할 수 없어요');
  });

  it('§5.3 — uno-style: the catch must come before the next player acts; after that the window is closed', () => {
    const o = { mode: 'uno-style' };
    const s = rig(o, 3, {
      hands: { p1: ['R5', 'G9'], p2: ['R4', 'B6', 'B7'], p3: ['Y4', 'Y5'] },
      discard: ['R8'],
      current: 'p1',
    });
    const s1 = ok(play(s, 'p1', ['R5'])).state;
    expect(s1.oneCardWindow?.player).toBe('p1');
    const caught = ok(act(s1, 'p3', DECLARE)).state;
    expect(caught.hands.p1).toHaveLength(3); // uno-style default penalty is 2
    const s2 = ok(play(s1, 'p2', ['R4'])).state;
    expect(s2.oneCardWindow).toBeNull();
    rejects(s2, (x) => act(x, 'p3', DECLARE), '지금은 원카드를 외칠 수 없어요');
    const d = ok(act(s1, 'p2', { type: 'draw' })).state;
    expect(d.oneCardWindow).toBeNull();
  });

  it('§5.3 — a newer window replaces an older one (one window at a time)', () => {
    const s = rig({}, 3, {
      hands: { p1: ['H5', 'C9'], p2: ['H4', 'D6'], p3: ['S4', 'S5'] },
      discard: ['H8'],
      current: 'p1',
    });
    const s1 = ok(play(s, 'p1', ['H5'])).state;
    const s2 = ok(play(s1, 'p2', ['H4'])).state;
    expect(s2.oneCardWindow?.player).toBe('p2');
  });
});
