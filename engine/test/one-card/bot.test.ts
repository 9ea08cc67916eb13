/** The bot plays from its own view only and plays sensibly. */
import { describe, expect, it } from 'vitest';
import { oneCard } from '../../src/games/one-card/index.ts';
import { Rng } from '../../src/core/index.ts';
import type { OneCardState } from '../../src/games/one-card/types.ts';
import { codeOf, ok, play, rig } from './helpers.ts';

const botOf = (s: OneCardState, p: string | null, seed = 'b') => oneCard.bot(oneCard.view(s, p), Rng.fromSeed(seed));
const many = (s: OneCardState, p: string, n = 200) =>
  Array.from({ length: n }, (_, i) => oneCard.bot(oneCard.view(s, p), Rng.fromSeed(`bot-${i}`)));
const codesOf = (s: OneCardState, p: string, a: unknown) =>
  ((a as { cardIds: string[] }).cardIds ?? []).map((id) => codeOf(s.hands[p].find((c) => c.id === id)!));

describe('bot', () => {
  it('returns null for spectators, finished games and players with nothing to do', () => {
    const s = rig({}, 3, { hands: { p1: ['H5', 'C9'], p2: ['D4', 'D5'] }, discard: ['H8'], current: 'p1' });
    expect(botOf(s, null)).toBeNull();
    expect(botOf(s, 'p2')).toBeNull();
    expect(botOf(s, 'p1')).not.toBeNull();
    const end = ok(play(rig({}, 2, { hands: { p1: ['H9'] }, discard: ['H8'], current: 'p1' }), 'p1', ['H9'])).state;
    expect(botOf(end, 'p2')).toBeNull();
  });

  it('counters an attack when it can, blocks with a same-suit 3 otherwise, and draws when it has neither', () => {
    const counter = rig({}, 3, {
      hands: { p1: ['H9', 'C2', 'D3'] },
      discard: ['D8', 'D2'],
      pendingAttack: 2,
      current: 'p1',
    });
    for (const a of many(counter, 'p1', 50)) expect(codesOf(counter, 'p1', a)).toEqual(['C2']);
    const three = rig({}, 3, { hands: { p1: ['H9', 'D3'] }, discard: ['D8', 'D2'], pendingAttack: 2, current: 'p1' });
    for (const a of many(three, 'p1', 50)) expect(codesOf(three, 'p1', a)).toEqual(['D3']);
    const none = rig({}, 3, { hands: { p1: ['H9', 'C3'] }, discard: ['D8', 'D2'], pendingAttack: 2, current: 'p1' });
    for (const a of many(none, 'p1', 50)) expect(a).toEqual({ type: 'draw' });
  });

  it('usually declares one-card together with the play that leaves one card', () => {
    const s = rig({}, 3, { hands: { p1: ['H5', 'C9'] }, discard: ['H8'], current: 'p1' });
    const acts = many(s, 'p1');
    const declared = acts.filter((a) => (a as { declareOneCard?: boolean }).declareOneCard === true).length;
    expect(declared).toBeGreaterThan(140);
    expect(declared).toBeLessThan(200);
  });

  it('declares for itself when its window is open, and sometimes races to catch someone else', () => {
    const s = rig({}, 3, {
      hands: { p1: ['H5', 'C9'], p2: ['D4', 'D5', 'D6'], p3: ['S4', 'S5'] },
      discard: ['H8'],
      current: 'p1',
    });
    const open = ok(play(s, 'p1', ['H5'])).state;
    for (const a of many(open, 'p1', 30)) expect(a).toEqual({ type: 'declareOneCard' });
    const catches = many(open, 'p3').filter((a) => a !== null).length;
    expect(catches).toBeGreaterThan(20);
    expect(catches).toBeLessThan(120);
  });

  it('names the suit it holds most when playing a 7, the colour it holds most for a wild', () => {
    const s = rig({}, 3, { hands: { p1: ['H7', 'C4', 'C5', 'C6', 'D4'] }, discard: ['H8'], current: 'p1' });
    const sevens = many(s, 'p1').filter((a) => codesOf(s, 'p1', a)[0] === 'H7');
    expect(sevens.length).toBeGreaterThan(0);
    for (const a of sevens) expect((a as { chooseSuit: string }).chooseSuit).toBe('C');
    const u = rig({ mode: 'uno-style' }, 3, { hands: { p1: ['W', 'G1', 'G2', 'B3'] }, discard: ['R5'], current: 'p1' });
    for (const a of many(u, 'p1', 50)) expect(a).toMatchObject({ type: 'play', chooseColor: 'G' });
  });

  it('prefers shedding high-point and special cards but keeps its only counter', () => {
    const s = rig({}, 3, { hands: { p1: ['H4', 'HK', 'C9'] }, discard: ['H8'], current: 'p1' });
    const ks = many(s, 'p1').filter((a) => codesOf(s, 'p1', a)[0] === 'HK').length;
    expect(ks).toBeGreaterThan(180);
    const k = rig({}, 3, { hands: { p1: ['H4', 'H2', 'C9'] }, discard: ['H8'], current: 'p1' });
    for (const a of many(k, 'p1', 100)) expect(codesOf(k, 'p1', a)).toEqual(['H4']);
  });

  it('plays same-rank cards together under multiPlay, without breaking lastCardRule', () => {
    const s = rig({ multiPlay: true, lastCardRule: 'special' }, 3, {
      hands: { p1: ['H7', 'C7'] },
      discard: ['H8'],
      current: 'p1',
    });
    for (const a of many(s, 'p1', 50)) {
      expect(codesOf(s, 'p1', a)).toHaveLength(1);
      expect(oneCard.apply(s, 'p1', a, s.turnStartedAt + 1).ok).toBe(true);
    }
    const t = rig({ multiPlay: true }, 3, { hands: { p1: ['H5', 'C5', 'D9'] }, discard: ['H8'], current: 'p1' });
    for (const a of many(t, 'p1', 50))
      if (codesOf(t, 'p1', a)[0] === 'H5') expect(codesOf(t, 'p1', a)).toEqual(['H5', 'C5']);
  });

  it('challenges a +4 with some probability, otherwise accepts', () => {
    const o = { mode: 'uno-style', unoWild4Rule: 'challenge' };
    const s = rig(o, 3, { hands: { p1: ['W4', 'R3'], p2: ['B1', 'B2'] }, discard: ['R5'], current: 'p1' });
    const w = ok(play(s, 'p1', ['W4'], { chooseColor: 'B' })).state;
    const acts = many(w, 'p2').map((a) => a!.type);
    const ch = acts.filter((t) => t === 'challengeWild4').length;
    expect(ch).toBeGreaterThan(30);
    expect(acts.filter((t) => t === 'acceptWild4').length).toBeGreaterThan(100);
  });

  it('picks the start colour it holds most', () => {
    const s = rig({ mode: 'uno-style' }, 3, {
      hands: { p1: ['Y1', 'Y2', 'B3'] },
      discard: ['W'],
      current: 'p1',
      phase: { kind: 'chooseColor' },
    });
    expect(botOf(s, 'p1')).toEqual({ type: 'chooseColor', color: 'Y' });
  });
});
