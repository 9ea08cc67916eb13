/** §8.3 views, §8.2 actions/events, and apply’s handling of untrusted input. */
import { describe, expect, it } from 'vitest';
import { oneCard } from '../../src/games/one-card/index.ts';
import { act, fresh, ok, play, rejects, rig } from './helpers.ts';

describe('§8.3 views', () => {
  it('§8.3 — public: top and recent discards, declared suit, direction, turn, attack, counts, status, window, deadline', () => {
    const s = rig({}, 3, {
      hands: { p1: ['H5', 'C9'], p2: ['D4', 'D6', 'D7'], p3: ['S4'] },
      discard: ['H2', 'H3', 'H4', 'H6', 'H9', 'H10', 'H8'],
      current: 'p1',
    });
    const s1 = ok(play(s, 'p1', ['H5'])).state;
    const v = oneCard.view(s1, null);
    expect(v.viewer).toBeNull();
    expect(v.hand).toBeNull();
    expect(v.legalCardIds).toEqual([]);
    expect(v.top.id).toBe(s1.discard.at(-1)!.id);
    expect(v.recentDiscards.map((c) => c.id)).toEqual(s1.discard.slice(-5).map((c) => c.id));
    expect(v.handCounts).toEqual({ p1: 1, p2: 3, p3: 1 });
    expect(v.drawPileCount).toBe(s1.drawPile.length);
    expect(v).toMatchObject({ current: 'p2', direction: 1, pendingAttack: 0, declaredSuit: null, finished: false });
    expect(v.oneCardWindow).toEqual({ player: 'p1', declared: false, openedSeq: 1 });
    expect(v.deadline).toBe(s1.turnStartedAt + 20_000);
    expect(v.players.map((p) => p.name)).toEqual(['민수', '지영', '철수']);
    expect(JSON.stringify(v)).not.toContain('"seed"');
  });

  it('§8.3 — private: the viewer’s own hand and legalCardIds, and a legal object to draw buttons from', () => {
    const s = rig({}, 3, { hands: { p1: ['H5', 'C9', 'H7', 'BJ'], p2: ['D4'] }, discard: ['H8'], current: 'p1' });
    const v = oneCard.view(s, 'p1');
    expect(v.hand!.map((c) => c.id)).toEqual(s.hands.p1.map((c) => c.id));
    const ids = s.hands.p1.map((c) => c.id);
    expect(v.legalCardIds).toEqual([ids[0], ids[2], ids[3]]);
    expect(v.legal).toEqual({
      canPlay: true,
      canDraw: true,
      drawCount: 1,
      canPass: false,
      canDeclareOneCard: false,
      oneCardIsCatch: false,
      canChallenge: false,
      canAcceptWild4: false,
      mustChooseColor: false,
      mustChooseSuitFor: [ids[2]],
      mustChooseColorFor: [],
      multiPlay: false,
      multiPlays: [],
    });
    const other = oneCard.view(s, 'p2');
    expect(other.legalCardIds).toEqual([]);
    expect(other.legal.canPlay || other.legal.canDraw).toBe(false);
    expect(JSON.stringify(other)).not.toContain(ids[0]);
  });

  it('§8.3 — under attack the legal object offers the counters and "draw N"', () => {
    const s = rig({}, 3, { hands: { p1: ['H2', 'C9', 'HA'] }, discard: ['H8', 'S2'], pendingAttack: 2, current: 'p1' });
    const v = oneCard.view(s, 'p1');
    expect(v.legalCardIds).toEqual([s.hands.p1[0].id]);
    expect(v.legal).toMatchObject({ canDraw: true, drawCount: 2, canPlay: true });
  });

  it('§8.3 — the afterDraw card id is shown to the drawer only', () => {
    const s = rig({ playAfterDraw: true }, 3, {
      hands: { p1: ['C9', 'D9'] },
      discard: ['H8'],
      pile: ['H5'],
      current: 'p1',
    });
    const d = ok(act(s, 'p1', { type: 'draw' })).state;
    expect(oneCard.view(d, 'p1').phase).toEqual({ kind: 'afterDraw', drawnCardId: d.hands.p1[2].id });
    expect(oneCard.view(d, 'p2').phase).toEqual({ kind: 'afterDraw' });
    expect(oneCard.view(d, null).phase).toEqual({ kind: 'afterDraw' });
  });

  it('§8.3 — an unknown viewer id is treated as a spectator', () => {
    const s = fresh({}, 3);
    const v = oneCard.view(s, 'stranger');
    expect(v.viewer).toBeNull();
    expect(v.hand).toBeNull();
  });

  it('§8.2 — events: cardPlayed, attackStacked, skipped, directionChanged, suitDeclared, playerOut, gameOver', () => {
    const s = rig({}, 4, { hands: { p1: ['H2', 'HJ', 'HQ', 'H7', 'C9'] }, discard: ['H8'], current: 'p1' });
    const types = (codes: string[], extra = {}) => ok(play(s, 'p1', codes, extra)).events.map((e) => e.type);
    expect(types(['H2'])).toEqual(['cardPlayed', 'attackStacked']);
    expect(types(['HJ'])).toEqual(['cardPlayed', 'skipped']);
    expect(types(['HQ'])).toEqual(['cardPlayed', 'directionChanged']);
    expect(types(['H7'], { chooseSuit: 'C' })).toEqual(['suitDeclared', 'cardPlayed']);
    const end = rig({}, 2, { hands: { p1: ['H9'] }, discard: ['H8'], current: 'p1' });
    expect(ok(play(end, 'p1', ['H9'])).events.map((e) => e.type)).toEqual(['cardPlayed', 'playerOut', 'gameOver']);
  });
});

describe('§8.2 untrusted input', () => {
  const s = rig({}, 3, { hands: { p1: ['H5', 'C9'] }, discard: ['H8'], current: 'p1' });
  it('§8.2 — malformed actions are refused with "잘못된 요청이에요" and the state is untouched', () => {
    const bad: unknown[] = [
      null,
      undefined,
      'play',
      42,
      [],
      {},
      { type: 'nope' },
      { type: 'play' },
      { type: 'play', cardIds: [] },
      { type: 'play', cardIds: 'c1' },
      { type: 'play', cardIds: [1] },
      { type: 'play', cardIds: ['c1'], chooseSuit: 'X' },
      { type: 'play', cardIds: ['c1'], extra: 1 },
      { type: 'draw', n: 3 },
      { type: 'chooseColor', color: 'P' },
      { type: 'play', cardIds: Array.from({ length: 20 }, (_, i) => `c${i}`) },
    ];
    for (const a of bad) rejects(s, (x) => act(x, 'p1', a), '잘못된 요청이에요');
  });

  it('§8.2 — an unknown actor is not a player; a spectator cannot act', () => {
    rejects(s, (x) => act(x, 'intruder', { type: 'draw' }), '이 게임의 참가자가 아니에요');
    rejects(s, (x) => act(x, '__proto__', { type: 'draw' }), '이 게임의 참가자가 아니에요');
    rejects(s, (x) => act(x, 'p2', { type: 'draw' }), '지금은 내 차례가 아니에요');
  });
});
