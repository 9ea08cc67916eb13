/** §4 (uno-style start) and §5.6 colour-card rules, clarifications 6–8. */
import { describe, expect, it } from 'vitest';
import { oneCard } from '../../src/games/one-card/index.ts';
import { WILD4_RESPONSE_MS } from '../../src/games/one-card/timeouts.ts';
import type { OneCardState } from '../../src/games/one-card/types.ts';
import { act, codeOf, fresh, hand, NOW, ok, play, rejects, rig } from './helpers.ts';

const U = { mode: 'uno-style' };
const legalCodes = (s: OneCardState, p: string) =>
  oneCard
    .view(s, p)
    .legalCardIds.map((id) => codeOf(s.hands[p].find((c) => c.id === id)!))
    .sort();

function startWith(kind: string, n = 4): OneCardState {
  for (let i = 0; i < 2000; i++) {
    const s = fresh(U, n, `start-${kind}-${i}`);
    if (s.discard[0].kind === kind) return s;
  }
  throw new Error(`no ${kind} start in 2000 seeds`);
}

describe('§4 uno-style start card', () => {
  it('§4 — the deck has 108 cards: per colour one 0, two each of 1–9, skip, reverse, +2; four wilds and four +4s', () => {
    const s = fresh(U, 4);
    const all = [...s.drawPile, ...s.discard, ...s.seats.flatMap((p) => s.hands[p])];
    expect(all).toHaveLength(108);
    expect(new Set(all.map((c) => c.id)).size).toBe(108);
    const count = (code: string) => all.filter((c) => codeOf(c) === code).length;
    expect([count('R0'), count('R1'), count('G9'), count('Bs'), count('Yr'), count('R+2')]).toEqual([1, 2, 2, 2, 2, 2]);
    expect([count('W'), count('W4')]).toEqual([4, 4]);
    for (const p of s.seats) expect(s.hands[p].length).toBeGreaterThanOrEqual(7);
  });

  it('§4 — a +4 never starts the game (it is shuffled back)', () => {
    for (let i = 0; i < 300; i++) expect(fresh(U, 4, `w4-${i}`).discard[0].kind).not.toBe('wild4');
  });

  it('§4 — a skip start card skips the first player', () => {
    const s = startWith('skip');
    const first = s.seats.find(
      (p) => s.hands[p].length === 7 && s.current !== p && s.seats[(s.seats.indexOf(p) + 1) % 4] === s.current,
    );
    expect(first).toBeDefined();
    expect(s.direction).toBe(1);
  });

  it('§4 — a reverse start card turns the direction and the player on the first player’s other side starts', () => {
    const s = startWith('reverse');
    expect(s.direction).toBe(-1);
  });

  it('clarification 7 — a wild start card gives the first player a chooseColor action before anything else', () => {
    const s = startWith('wild');
    expect(s.phase.kind).toBe('chooseColor');
    const first = s.current;
    const v = oneCard.view(s, first);
    expect(v.legal.mustChooseColor).toBe(true);
    expect(v.legal.canPlay || v.legal.canDraw).toBe(false);
    const other = s.seats.find((p) => p !== first)!;
    rejects(s, (x) => act(x, other, { type: 'chooseColor', color: 'G' }), '지금은 내 차례가 아니에요');
    rejects(s, (x) => act(x, first, { type: 'draw' }), '먼저 시작 색을 골라 주세요');
    const r = ok(act(s, first, { type: 'chooseColor', color: 'G' })).state;
    expect(r.declaredColor).toBe('G');
    expect(r.current).toBe(first);
    expect(r.phase.kind).toBe('turn');
    rejects(r, (x) => act(x, first, { type: 'chooseColor', color: 'G' }), '지금은 색을 고를 수 없어요');
  });

  it('clarification 7 — on timeout the colour the first player holds most is chosen (ties R, Y, G, B)', () => {
    const s = startWith('wild');
    const mk = (codes: string[]) =>
      rig(U, 4, { hands: { [s.current]: codes }, discard: ['W'], current: s.current, phase: { kind: 'chooseColor' } });
    const pick = (codes: string[]) => ok(oneCard.onTimeout(mk(codes), NOW + 20_000)).state.declaredColor;
    expect(pick(['G1', 'G2', 'B3', 'R4'])).toBe('G');
    expect(pick(['B1', 'Y2'])).toBe('Y');
    expect(pick(['W', 'W4'])).toBe('R');
    expect(pick(['B1', 'G2', 'B3', 'G4'])).toBe('G');
  });
});

describe('§5.6 colour-card turn', () => {
  it('§5.6 — colour, number/symbol match or a wild may be played', () => {
    const s = rig(U, 3, { hands: { p1: ['R1', 'G5', 'Gs', 'B2', 'W', 'W4'] }, discard: ['R5'], current: 'p1' });
    expect(legalCodes(s, 'p1')).toEqual(['G5', 'R1', 'W']); // W4 refused by strict: a red card is held
    rejects(s, (x) => play(x, 'p1', ['B2']), '같은 색이나 같은 숫자·기호 카드만 낼 수 있어요');
    const t = rig(U, 3, { hands: { p1: ['Gs', 'G+2', 'B2'] }, discard: ['Rs'], current: 'p1' });
    expect(legalCodes(t, 'p1')).toEqual(['Gs']);
  });

  it('§5.6 — a declared colour replaces the wild’s colour and is cleared by the next card', () => {
    const s = rig(U, 3, { hands: { p1: ['W', 'G1'], p2: ['B7', 'R7', 'B1'] }, discard: ['R5'], current: 'p1' });
    rejects(s, (x) => play(x, 'p1', ['W']), '색을 골라 주세요');
    const s1 = ok(play(s, 'p1', ['W'], { chooseColor: 'B' })).state;
    expect(legalCodes(s1, 'p2')).toEqual(['B1', 'B7']);
    expect(ok(play(s1, 'p2', ['B7'])).state.declaredColor).toBeNull();
  });

  it('§5.6 — skip, reverse (3+ players), +2 and +4 effects', () => {
    const sk = rig(U, 4, { hands: { p1: ['Rs', 'G1'] }, discard: ['R5'], current: 'p1' });
    expect(ok(play(sk, 'p1', ['Rs'])).state.current).toBe('p3');
    const rv = ok(play(rig(U, 4, { hands: { p1: ['Rr', 'G1'] }, discard: ['R5'], current: 'p1' }), 'p1', ['Rr'])).state;
    expect([rv.direction, rv.current]).toEqual([-1, 'p4']);
    const d2 = ok(
      play(rig(U, 4, { hands: { p1: ['R+2', 'G1'], p2: ['B1'] }, discard: ['R5'], current: 'p1' }), 'p1', ['R+2']),
    ).state;
    expect([d2.hands.p2.length, d2.current]).toEqual([3, 'p3']);
    const w4 = rig({ ...U, unoWild4Rule: 'free' }, 4, {
      hands: { p1: ['W4', 'R1'], p2: ['B1'] },
      discard: ['R5'],
      current: 'p1',
    });
    const w = ok(play(w4, 'p1', ['W4'], { chooseColor: 'Y' })).state;
    expect([w.hands.p2.length, w.current, w.declaredColor]).toEqual([5, 'p3', 'Y']);
  });

  it('§5.6 — free: a +4 may be played with the current colour in hand', () => {
    const s = rig({ ...U, unoWild4Rule: 'free' }, 3, { hands: { p1: ['W4', 'R3'] }, discard: ['R5'], current: 'p1' });
    expect(legalCodes(s, 'p1')).toEqual(['R3', 'W4']);
  });

  it('§5.6 — strict: only a card of the current colour forbids the +4 (same number or other wilds do not)', () => {
    const s = rig(U, 3, { hands: { p1: ['W4', 'G5', 'W', 'W4'] }, discard: ['R5'], current: 'p1' });
    expect(legalCodes(s, 'p1')).toContain('W4');
    const d = rig(U, 3, { hands: { p1: ['W4', 'G1', 'B2'] }, discard: ['R5', 'W'], declaredColor: 'G', current: 'p1' });
    expect(legalCodes(d, 'p1')).toEqual(['G1']);
  });

  it('§5.6 — challenge: accepting draws 4 and loses the turn; the timer accepts after 10 s', () => {
    const o = { ...U, unoWild4Rule: 'challenge' };
    const s = rig(o, 3, { hands: { p1: ['W4', 'R3', 'G7'], p2: ['B1'] }, discard: ['R5'], current: 'p1' });
    const s1 = ok(play(s, 'p1', ['W4'], { chooseColor: 'B' })).state;
    expect(oneCard.view(s1, 'p2').legal).toMatchObject({
      canChallenge: true,
      canAcceptWild4: true,
      canDraw: false,
      drawCount: 4,
    });
    expect(oneCard.view(s1, 'p3').legal.canChallenge).toBe(false);
    rejects(s1, (x) => act(x, 'p3', { type: 'challengeWild4' }), '지금은 내 차례가 아니에요');
    rejects(s1, (x) => act(x, 'p2', { type: 'draw' }), '색 바꾸기+4에 응답해 주세요 (의심하기 또는 받아들이기)');
    const acc = ok(act(s1, 'p2', { type: 'acceptWild4' })).state;
    expect([acc.hands.p2.length, acc.current]).toEqual([5, 'p3']);
    expect(oneCard.deadline(s1)).toBe(s1.turnStartedAt + WILD4_RESPONSE_MS);
    const t = ok(oneCard.onTimeout(s1, s1.turnStartedAt + WILD4_RESPONSE_MS));
    expect(t.events.find((e) => e.type === 'timeout')).toMatchObject({ player: 'p2', action: 'acceptWild4' });
    expect(t.state.hands.p2).toHaveLength(5);
    rejects(acc, (x) => act(x, 'p3', { type: 'challengeWild4' }), '지금은 의심하기를 할 수 없어요');
  });

  it('§5.6 — challenge: the hand is judged as it stood when the +4 was played', () => {
    const o = { ...U, unoWild4Rule: 'challenge' };
    // p1 held only a green card on red: the +4 was legal. A catch then hands p1 two red cards,
    // which neither make the +4 illegal nor show in the reveal.
    const pile = ['R9', 'R8', 'B1', 'B2', 'B3', 'B4', 'B5', 'B6', 'B7'];
    const s = rig(o, 3, { hands: { p1: ['W4', 'G7'], p2: ['B1', 'B2'] }, discard: ['R5'], pile, current: 'p1' });
    const s1 = ok(play(s, 'p1', ['W4'], { chooseColor: 'B' })).state;
    const caught = ok(act(s1, 'p3', { type: 'declareOneCard' })).state;
    expect(hand(caught, 'p1')).toEqual(['G7', 'R9', 'R8']);
    const r = ok(act(caught, 'p2', { type: 'challengeWild4' }));
    expect(r.events.find((e) => e.type === 'wild4Challenged')).toMatchObject({ result: 'innocent' });
    expect(r.state.hands.p2).toHaveLength(8);
    expect((r.events.find((e) => e.type === 'challengeReveal')!.cards as never[]).map(codeOf)).toEqual(['G7']);
  });

  it('§5.6 — drawing: one card; with playAfterDraw (uno default) a playable drawn card may be played at once', () => {
    const s = rig(U, 3, { hands: { p1: ['G1', 'B2'] }, discard: ['R5'], pile: ['R7', 'Y1'], current: 'p1' });
    const d = ok(act(s, 'p1', { type: 'draw' })).state;
    expect(d.phase.kind).toBe('afterDraw');
    expect(ok(play(d, 'p1', ['R7'])).state.current).toBe('p2');
  });

  it('clarification 6 — voluntaryDraw applies to uno-style too (default on; off forbids drawing with a playable card)', () => {
    const s = rig(U, 3, { hands: { p1: ['R1', 'B2'] }, discard: ['R5'], current: 'p1' });
    expect(act(s, 'p1', { type: 'draw' }).ok).toBe(true);
    const off = rig({ ...U, voluntaryDraw: false }, 3, { hands: { p1: ['R1', 'B2'] }, discard: ['R5'], current: 'p1' });
    rejects(off, (x) => act(x, 'p1', { type: 'draw' }), '낼 수 있는 카드가 있으면 먹을 수 없어요');
  });

  it('§5.6 — stacking: +2 on +2, +4 on +2, +4 on +4 (not +2 on +4); the one who cannot or will not stack draws it all', () => {
    const o = { ...U, unoStacking: true, unoWild4Rule: 'free' };
    const s = rig(o, 4, {
      hands: { p1: ['R+2', 'G1'], p2: ['B+2', 'R1'], p3: ['W4', 'Y1'], p4: ['G+2', 'B9'] },
      discard: ['R5'],
      current: 'p1',
    });
    const s1 = ok(play(s, 'p1', ['R+2'])).state;
    expect([s1.pendingAttack, s1.current]).toEqual([2, 'p2']);
    rejects(s1, (x) => play(x, 'p2', ['R1']), '공격을 받고 있어요. 막을 카드를 내거나 카드를 먹으세요');
    const s2 = ok(play(s1, 'p2', ['B+2'])).state;
    const s3 = ok(play(s2, 'p3', ['W4'], { chooseColor: 'G' })).state;
    expect(s3.pendingAttack).toBe(8);
    rejects(s3, (x) => play(x, 'p4', ['G+2']));
    expect(oneCard.view(s3, 'p4').legal).toMatchObject({ canDraw: true, drawCount: 8 });
    const s4 = ok(act(s3, 'p4', { type: 'draw' })).state;
    expect([s4.hands.p4.length, s4.current, s4.pendingAttack]).toEqual([10, 'p1', 0]);
  });

  it('clarification 8 — strict applies to a stacked +4 too', () => {
    const o = { ...U, unoStacking: true };
    const s = rig(o, 3, { hands: { p2: ['W4', 'R3', 'B1'] }, discard: ['R5', 'R+2'], pendingAttack: 2, current: 'p2' });
    rejects(
      s,
      (x) => play(x, 'p2', ['W4'], { chooseColor: 'B' }),
      '현재 색 카드가 손에 있으면 색 바꾸기+4를 낼 수 없어요',
    );
    const t = rig(o, 3, { hands: { p2: ['W4', 'G3', 'B1'] }, discard: ['R5', 'R+2'], pendingAttack: 2, current: 'p2' });
    expect(ok(play(t, 'p2', ['W4'], { chooseColor: 'B' })).state.pendingAttack).toBe(6);
  });

  it('§5.6 — stacking with challenge: the challenge covers the whole stack, judged on the last +4 only', () => {
    const o = { ...U, unoStacking: true, unoWild4Rule: 'challenge' };
    const s = rig(o, 3, {
      hands: { p1: ['W4', 'G1'], p2: ['W4', 'B5', 'B6'], p3: ['Y1', 'Y2'] },
      discard: ['R5'],
      current: 'p1',
    });
    const s1 = ok(play(s, 'p1', ['W4'], { chooseColor: 'B' })).state;
    expect(s1.phase).toMatchObject({ kind: 'wild4Response', by: 'p1', target: 'p2' });
    const s2 = ok(play(s1, 'p2', ['W4'], { chooseColor: 'G' })).state; // p2 held blue: illegal
    expect(s2.phase).toMatchObject({ kind: 'wild4Response', by: 'p2', target: 'p3' });
    expect(s2.pendingAttack).toBe(8);
    const g = ok(act(s2, 'p3', { type: 'challengeWild4' })).state;
    expect([g.hands.p2.length, g.hands.p3.length, g.current]).toEqual([10, 2, 'p3']);
  });

  it('§5.6 — a +2 or +4 as the last card still makes the next player draw (it counts in the score)', () => {
    const s = rig(U, 3, { hands: { p1: ['R+2'], p2: ['B1'], p3: ['Y1'] }, discard: ['R5'], current: 'p1' });
    const r = ok(play(s, 'p1', ['R+2'])).state;
    expect(r.phase.kind).toBe('finished');
    expect(r.hands.p2).toHaveLength(3);
    expect(oneCard.result(r)!.ranking[0]).toMatchObject({ player: 'p1', score: 2 * 9 + 1 + 1 });
    const w = rig({ ...U, unoWild4Rule: 'challenge' }, 3, {
      hands: { p1: ['W4'], p2: ['B1'] },
      discard: ['R5'],
      current: 'p1',
    });
    expect(ok(play(w, 'p1', ['W4'], { chooseColor: 'R' })).state.hands.p2).toHaveLength(5);
  });

  it('§5.6 — a function card may be the last card (no lastCardRule in uno-style)', () => {
    const s = rig(U, 3, { hands: { p1: ['Rs'] }, discard: ['R5'], current: 'p1' });
    expect(ok(play(s, 'p1', ['Rs'])).state.phase.kind).toBe('finished');
  });

  it('§5.6 — cards are played one at a time', () => {
    const s = rig(U, 3, { hands: { p1: ['R1', 'G1', 'B2'] }, discard: ['R5'], current: 'p1' });
    rejects(s, (x) => play(x, 'p1', ['R1', 'G1']), '카드는 한 장씩만 낼 수 있어요');
    expect(hand(s, 'p1')).toHaveLength(3);
  });
});
