/** §5.2 classic turn rules, one test per rule, plus clarifications 1–5. */
import { describe, expect, it } from 'vitest';
import { oneCard } from '../../src/games/one-card/index.ts';
import type { OneCardState } from '../../src/games/one-card/types.ts';
import { act, codeOf, hand, idOf, ok, play, rejects, rig } from './helpers.ts';

const UNDER = '공격을 받고 있어요. 막을 카드를 내거나 카드를 먹으세요';

/** p1 to move on `discard` with `pending`; returns whether `code` may be played. */
function can(discard: string[], pending: number, code: string, o: Record<string, unknown> = {}, n = 3): boolean {
  const s = rig(o, n, { hands: { p1: [code, 'C9', 'D9'] }, discard, pendingAttack: pending, current: 'p1' });
  const r = play(s, 'p1', [code], { chooseSuit: 'S' });
  return r.ok;
}

const legalCodes = (s: OneCardState, p: string) =>
  oneCard
    .view(s, p)
    .legalCardIds.map((id) => codeOf(s.hands[p].find((c) => c.id === id)!))
    .sort();

describe('§5.1 common concepts', () => {
  it('§5.1 — one action per turn; the attack total carries to the next player; a declared suit stands in for the top card’s suit', () => {
    const s = rig({}, 3, { hands: { p1: ['H2', 'H5', 'C9'], p2: ['S9', 'C4'] }, discard: ['H8'], current: 'p1' });
    const s1 = ok(play(s, 'p1', ['H2'])).state;
    expect(s1.current).toBe('p2');
    rejects(s1, (x) => play(x, 'p1', ['H5']), '지금은 내 차례가 아니에요');
    expect(oneCard.view(s1, 'p2').legal).toMatchObject({ canDraw: true, drawCount: 2, canPlay: false });
    const d = rig({}, 3, { hands: { p1: ['S4', 'H5', 'C9'] }, discard: ['H7'], declaredSuit: 'S', current: 'p1' });
    expect(legalCodes(d, 'p1')).toEqual(['S4']);
  });
});

describe('§5.2 A — counters under attack', () => {
  it('§5.2 A — on a 2: any 2, the A of the same suit (♠A on ♠2 too) and both jokers', () => {
    expect(can(['H8', 'H2'], 2, 'S2')).toBe(true);
    expect(can(['H8', 'H2'], 2, 'HA')).toBe(true);
    expect(can(['S8', 'S2'], 2, 'SA')).toBe(true);
    expect(can(['H8', 'H2'], 2, 'DA')).toBe(false);
    expect(can(['H8', 'H2'], 2, 'BJ')).toBe(true);
    expect(can(['H8', 'H2'], 2, 'CJ')).toBe(true);
    expect(can(['H8', 'H2'], 2, 'H5')).toBe(false);
  });

  it('§5.2 A — on a ♥/♦/♣ A: any A including ♠A and the jokers, but not a 2', () => {
    expect(can(['H8', 'HA'], 3, 'CA')).toBe(true);
    expect(can(['H8', 'HA'], 3, 'SA')).toBe(true);
    expect(can(['H8', 'HA'], 3, 'BJ')).toBe(true);
    expect(can(['H8', 'HA'], 3, 'H2')).toBe(false);
  });

  it('§5.2 A — on ♠A only jokers; with two decks another ♠A too', () => {
    expect(can(['S8', 'SA'], 5, 'HA')).toBe(false);
    expect(can(['S8', 'SA'], 5, 'SA')).toBe(false);
    expect(can(['S8', 'SA'], 5, 'CJ')).toBe(true);
    expect(can(['S8', 'SA'], 5, 'SA', { deckCount: 2 })).toBe(true);
    expect(can(['S8', 'SA'], 5, 'HA', { deckCount: 2 })).toBe(false);
  });

  it('§5.2 A — black joker only yields to the colour joker (two decks: to a black joker too); colour joker to nothing (two decks: colour joker)', () => {
    expect(can(['S8', 'BJ'], 5, 'CJ')).toBe(true);
    expect(can(['S8', 'BJ'], 5, 'BJ')).toBe(false);
    expect(can(['S8', 'BJ'], 5, 'BJ', { deckCount: 2 })).toBe(true);
    expect(can(['S8', 'BJ'], 5, 'SA')).toBe(false);
    expect(can(['S8', 'CJ'], 7, 'BJ')).toBe(false);
    expect(can(['S8', 'CJ'], 7, 'CJ')).toBe(false);
    expect(can(['S8', 'CJ'], 7, 'CJ', { deckCount: 2 })).toBe(true);
    expect(can(['S8', 'CJ'], 7, 'BJ', { deckCount: 2 })).toBe(false);
  });

  it('§5.2 A — a counter adds its amount (options respected) and passes the attack on', () => {
    const o = { attack2: 1, attackA: 4, attackSpadeA: 8, attackBlackJoker: 6, attackColorJoker: 13 };
    const s = rig(o, 3, {
      hands: { p1: ['H2', 'C9'], p2: ['HA', 'C9'], p3: ['SA', 'C9'] },
      discard: ['H8'],
      current: 'p1',
    });
    const s1 = ok(play(s, 'p1', ['H2'])).state;
    const s2 = ok(play(s1, 'p2', ['HA'])).state;
    const s3 = ok(play(s2, 'p3', ['SA'])).state;
    expect([s1.pendingAttack, s2.pendingAttack, s3.pendingAttack]).toEqual([1, 5, 13]);
    expect(s3.current).toBe('p1');
    const j = rig(o, 3, { hands: { p1: ['BJ', 'C9'], p2: ['CJ', 'C9'] }, discard: ['H8'], current: 'p1' });
    const j1 = ok(play(j, 'p1', ['BJ'])).state;
    expect(j1.pendingAttack).toBe(6);
    expect(ok(play(j1, 'p2', ['CJ'])).state.pendingAttack).toBe(19);
  });

  it('§5.2 A — under attack any other card is refused, and drawing takes the whole total even with a counter in hand', () => {
    const s = rig({ voluntaryDraw: false }, 3, {
      hands: { p1: ['H9', 'C2'] },
      discard: ['H8', 'H2'],
      pendingAttack: 2,
      current: 'p1',
    });
    rejects(s, (x) => play(x, 'p1', ['H9']), UNDER);
    const r = ok(act(s, 'p1', { type: 'draw' }));
    expect(r.state.hands.p1).toHaveLength(4);
    expect(r.state.current).toBe('p2');
    expect(oneCard.view(s, 'p1').legal).toMatchObject({ canDraw: true, drawCount: 2, canPlay: true });
  });

  it('§5.2 A — a counter that would be the last card is still checked against lastCardRule', () => {
    const s = rig({ lastCardRule: 'attack' }, 3, {
      hands: { p1: ['C2'] },
      discard: ['H8', 'H2'],
      pendingAttack: 2,
      current: 'p1',
    });
    rejects(s, (x) => play(x, 'p1', ['C2']), '마지막 카드로 공격 카드(2·A·조커)는 낼 수 없어요');
    const t = rig({ lastCardRule: 'joker' }, 3, {
      hands: { p1: ['CJ'] },
      discard: ['H8', 'H2'],
      pendingAttack: 2,
      current: 'p1',
    });
    rejects(t, (x) => play(x, 'p1', ['CJ']), '마지막 카드로 조커는 낼 수 없어요');
  });

  it('§5.2 A-2 — threeDefense off: a 3 never stops an attack', () => {
    expect(can(['D8', 'DA'], 3, 'D3', { threeDefense: 'off' })).toBe(false);
    expect(can(['D8', 'DA'], 3, 'D3')).toBe(true);
  });

  it('clarification 1 — ♠3 stops ♠A (an A is an A), never a joker', () => {
    const s = rig({}, 3, { hands: { p1: ['S3', 'C9'] }, discard: ['S8', 'SA'], pendingAttack: 5, current: 'p1' });
    const r = ok(play(s, 'p1', ['S3']));
    expect(r.state.pendingAttack).toBe(0);
    expect(can(['S8', 'BJ'], 5, 'S3')).toBe(false);
    expect(can(['S8', 'CJ'], 7, 'S3')).toBe(false);
  });

  it('clarification 2 — after ♥2 then ♣2 only ♣3 blocks (the suit of the attack card on top)', () => {
    expect(can(['H8', 'H2', 'C2'], 4, 'H3')).toBe(false);
    expect(can(['H8', 'H2', 'C2'], 4, 'C3')).toBe(true);
  });
});

describe('§5.2 B — normal turn', () => {
  it('§5.2 B — same suit or same rank may be played; anything else is refused with the spec’s reason', () => {
    const s = rig({}, 3, { hands: { p1: ['H4', 'C8', 'D5', 'CJ'] }, discard: ['H8'], current: 'p1' });
    expect(legalCodes(s, 'p1')).toEqual(['C8', 'CJ', 'H4']);
    rejects(s, (x) => play(x, 'p1', ['D5']), '같은 무늬나 같은 숫자 카드만 낼 수 있어요');
  });

  it('§5.2 B — a joker may be played at any time and opens an attack', () => {
    const s = rig({}, 3, { hands: { p1: ['BJ', 'C9'] }, discard: ['H8'], current: 'p1' });
    const r = ok(play(s, 'p1', ['BJ']));
    expect(r.state.pendingAttack).toBe(5);
    expect(r.state.current).toBe('p2');
  });

  it('§5.2 B — afterJoker previous: a card on a joker is judged against the first non-joker beneath', () => {
    const s = rig({}, 3, { hands: { p1: ['H4', 'C4', 'D8', 'S9'] }, discard: ['D8', 'BJ', 'CJ'], current: 'p1' });
    expect(legalCodes(s, 'p1')).toEqual(['D8']);
    expect(oneCard.view(s, 'p1').reference && codeOf(oneCard.view(s, 'p1').reference!)).toBe('D8');
    const t = rig({}, 3, { hands: { p1: ['D4', 'C8', 'S9'] }, discard: ['D8', 'BJ'], current: 'p1' });
    expect(legalCodes(t, 'p1')).toEqual(['C8', 'D4']);
  });

  it('§5.2 B — afterJoker any: any card may follow a joker', () => {
    const s = rig({ afterJoker: 'any' }, 3, {
      hands: { p1: ['H4', 'C4', 'S9'] },
      discard: ['D8', 'BJ'],
      current: 'p1',
    });
    expect(legalCodes(s, 'p1')).toEqual(['C4', 'H4', 'S9']);
  });

  it('§5.2 B-2 — drawing takes one card and ends the turn', () => {
    const s = rig({}, 3, { hands: { p1: ['H4', 'C9'] }, discard: ['H8'], pile: ['S5', 'S6'], current: 'p1' });
    const r = ok(act(s, 'p1', { type: 'draw' }));
    expect(hand(r.state, 'p1')).toEqual(['H4', 'C9', 'S5']);
    expect(r.state.current).toBe('p2');
    expect(r.state.drawPile.map(codeOf)).toEqual(['S6']);
  });

  it('§5.2 B-2 — voluntaryDraw off: drawing is refused while a card can be played, allowed otherwise', () => {
    const s = rig({ voluntaryDraw: false }, 3, { hands: { p1: ['H4', 'C9'] }, discard: ['H8'], current: 'p1' });
    rejects(s, (x) => act(x, 'p1', { type: 'draw' }), '낼 수 있는 카드가 있으면 먹을 수 없어요');
    expect(oneCard.view(s, 'p1').legal.canDraw).toBe(false);
    const t = rig({ voluntaryDraw: false }, 3, { hands: { p1: ['D4', 'C9'] }, discard: ['H8'], current: 'p1' });
    expect(ok(act(t, 'p1', { type: 'draw' })).state.current).toBe('p2');
  });

  it('§5.2 B-2 — playAfterDraw: a playable drawn card may be played at once (only that card) or passed', () => {
    const o = { playAfterDraw: true };
    const s = rig(o, 3, { hands: { p1: ['H4', 'C9'] }, discard: ['H8'], pile: ['H5', 'S6'], current: 'p1' });
    const d = ok(act(s, 'p1', { type: 'draw' })).state;
    expect(d.phase).toEqual({ kind: 'afterDraw', drawnCardId: d.hands.p1[2].id });
    expect(d.current).toBe('p1');
    const v = oneCard.view(d, 'p1');
    expect(v.legalCardIds).toEqual([d.hands.p1[2].id]);
    expect(v.legal).toMatchObject({ canPass: true, canDraw: false });
    rejects(d, (x) => play(x, 'p1', ['H4']), '방금 뽑은 카드만 낼 수 있어요');
    rejects(d, (x) => act(x, 'p1', { type: 'draw' }), '뽑은 카드를 내거나 넘기세요');
    expect(ok(play(d, 'p1', ['H5'])).state.current).toBe('p2');
    expect(ok(act(d, 'p1', { type: 'pass' })).state.hands.p1).toHaveLength(3);
    const u = rig(o, 3, { hands: { p1: ['H4', 'C9'] }, discard: ['H8'], pile: ['S6'], current: 'p1' });
    expect(ok(act(u, 'p1', { type: 'draw' })).state.current).toBe('p2');
    rejects(s, (x) => act(x, 'p1', { type: 'pass' }), '카드를 뽑은 뒤에만 넘길 수 있어요');
    const off = rig({}, 3, { hands: { p1: ['H4', 'C9'] }, discard: ['H8'], pile: ['H5'], current: 'p1' });
    expect(ok(act(off, 'p1', { type: 'draw' })).state.current).toBe('p2');
  });
});

describe('§5.2 C — card effects', () => {
  it('§5.2 C — 2, A and jokers played on a normal turn start an attack on the next player', () => {
    for (const [code, amount] of [
      ['H2', 2],
      ['HA', 3],
      ['SA', 5],
      ['BJ', 5],
      ['CJ', 7],
    ] as const) {
      const s = rig({}, 3, { hands: { p1: [code, 'C9'] }, discard: [code === 'SA' ? 'S8' : 'H8'], current: 'p1' });
      const r = ok(play(s, 'p1', [code]));
      expect(r.state.pendingAttack).toBe(amount);
      expect(r.events.find((e) => e.type === 'attackStacked')).toMatchObject({ total: amount });
    }
  });

  it('§5.2 C — a 3 outside an attack is an ordinary card', () => {
    const s = rig({}, 3, { hands: { p1: ['H3', 'C9'] }, discard: ['H8'], current: 'p1' });
    const r = ok(play(s, 'p1', ['H3']));
    expect(r.state.pendingAttack).toBe(0);
    expect(r.events.some((e) => e.type === 'attackBlocked')).toBe(false);
  });

  it('§5.2 C — 7 names a suit (its own suit too); the next card clears the declaration', () => {
    const s = rig({}, 3, { hands: { p1: ['H7', 'C9'], p2: ['H4', 'S9'] }, discard: ['H8'], current: 'p1' });
    const s1 = ok(play(s, 'p1', ['H7'], { chooseSuit: 'H' })).state;
    expect(s1.declaredSuit).toBe('H');
    const s2 = ok(play(s1, 'p2', ['H4'])).state;
    expect(s2.declaredSuit).toBeNull();
  });

  it('§5.2 C — J skips the next player', () => {
    const s = rig({}, 4, { hands: { p1: ['HJ', 'C9'] }, discard: ['H8'], current: 'p1' });
    const r = ok(play(s, 'p1', ['HJ']));
    expect(r.state.current).toBe('p3');
    expect(r.events.find((e) => e.type === 'skipped')).toMatchObject({ players: ['p2'] });
  });

  it('§5.2 C — Q reverses the direction with three or more players', () => {
    const s = rig({}, 4, { hands: { p1: ['HQ', 'C9'] }, discard: ['H8'], current: 'p1' });
    const r = ok(play(s, 'p1', ['HQ']));
    expect(r.state.direction).toBe(-1);
    expect(r.state.current).toBe('p4');
  });

  it('§5.2 C — Q with two players and qInTwoPlayer = as-skip acts like J', () => {
    const s = rig({ qInTwoPlayer: 'as-skip' }, 2, { hands: { p1: ['HQ', 'C9'] }, discard: ['H8'], current: 'p1' });
    expect(ok(play(s, 'p1', ['HQ'])).state.current).toBe('p1');
  });

  it('§5.2 C — K skip-two skips two players, and with three or fewer comes back to the player', () => {
    const o = { kEffect: 'skip-two' };
    const four = rig(o, 4, { hands: { p1: ['HK', 'C9'] }, discard: ['H8'], current: 'p1' });
    expect(ok(play(four, 'p1', ['HK'])).state.current).toBe('p4');
    const three = rig(o, 3, { hands: { p1: ['HK', 'C9'] }, discard: ['H8'], current: 'p1' });
    expect(ok(play(three, 'p1', ['HK'])).state.current).toBe('p1');
    const two = rig(o, 2, { hands: { p1: ['HK', 'C9'] }, discard: ['H8'], current: 'p1' });
    expect(ok(play(two, 'p1', ['HK'])).state.current).toBe('p1');
  });

  it('§5.2 C — K none is an ordinary card', () => {
    const s = rig({ kEffect: 'none' }, 3, { hands: { p1: ['HK', 'C9'] }, discard: ['H8'], current: 'p1' });
    const r = ok(play(s, 'p1', ['HK'])).state;
    expect(r.current).toBe('p2');
    expect(r.extraTurn).toBe(false);
  });

  it('§5.2 C — multiPlay: same-rank cards together, effects counted per card, the last card becomes the reference', () => {
    const o = { multiPlay: true };
    const two = rig(o, 4, { hands: { p1: ['H2', 'C2', 'D9'] }, discard: ['H8'], current: 'p1' });
    const a = ok(play(two, 'p1', ['H2', 'C2'])).state;
    expect(a.pendingAttack).toBe(4);
    expect(codeOf(a.discard.at(-1)!)).toBe('C2');
    const j = rig(o, 4, { hands: { p1: ['HJ', 'SJ', 'D9'] }, discard: ['H8'], current: 'p1' });
    expect(ok(play(j, 'p1', ['HJ', 'SJ'])).state.current).toBe('p4');
    const q = rig(o, 4, { hands: { p1: ['HQ', 'CQ', 'D9'] }, discard: ['H8'], current: 'p1' });
    const qs = ok(play(q, 'p1', ['HQ', 'CQ'])).state;
    expect([qs.direction, qs.current]).toEqual([1, 'p2']);
    const k = rig(o, 4, { hands: { p1: ['HK', 'CK', 'D9'] }, discard: ['H8'], current: 'p1' });
    const ks = ok(play(k, 'p1', ['HK', 'CK'])).state;
    expect([ks.current, ks.extraTurn]).toEqual(['p1', true]);
    const d2 = ok(act(ks, 'p1', { type: 'draw' })).state;
    expect(d2.current).toBe('p2');
    const seven = rig(o, 4, { hands: { p1: ['H7', 'C7', 'D9'] }, discard: ['H8'], current: 'p1' });
    rejects(seven, (x) => play(x, 'p1', ['H7', 'C7']), '무늬를 골라 주세요');
    expect(ok(play(seven, 'p1', ['H7', 'C7'], { chooseSuit: 'D' })).state.declaredSuit).toBe('D');
  });

  it('§5.2 C — multiPlay: the first card must be playable, the rest only share its rank; off → one card at a time', () => {
    const o = { multiPlay: true };
    const s = rig(o, 3, { hands: { p1: ['H5', 'C5', 'C6', 'D9'] }, discard: ['H8'], current: 'p1' });
    rejects(s, (x) => play(x, 'p1', ['C5', 'H5']), '같은 무늬나 같은 숫자 카드만 낼 수 있어요');
    rejects(s, (x) => play(x, 'p1', ['H5', 'C6']), '같은 숫자 카드만 함께 낼 수 있어요');
    rejects(
      s,
      (x) => act(x, 'p1', { type: 'play', cardIds: [idOf(x, 'p1', 'H5'), idOf(x, 'p1', 'H5')] }),
      '같은 카드를 두 번 낼 수 없어요',
    );
    expect(hand(ok(play(s, 'p1', ['H5', 'C5'])).state, 'p1')).toEqual(['C6', 'D9']);
    const off = rig({}, 3, { hands: { p1: ['H5', 'C5', 'D9'] }, discard: ['H8'], current: 'p1' });
    rejects(off, (x) => play(x, 'p1', ['H5', 'C5']), '카드는 한 장씩만 낼 수 있어요');
  });

  it('clarification 5 — multiPlay under attack: a legal counter first, same rank after, amounts add up; emptying the hand checks every card', () => {
    const o = { multiPlay: true };
    const s = rig(o, 3, { hands: { p1: ['HA', 'CA', 'D9'] }, discard: ['H8', 'H2'], pendingAttack: 2, current: 'p1' });
    const r = ok(play(s, 'p1', ['HA', 'CA'])).state;
    expect(r.pendingAttack).toBe(8);
    rejects(s, (x) => play(x, 'p1', ['CA', 'HA']), UNDER);
    const three = rig(o, 3, {
      hands: { p1: ['H3', 'C3', 'D9'] },
      discard: ['H8', 'H2'],
      pendingAttack: 2,
      current: 'p1',
    });
    expect(ok(play(three, 'p1', ['H3', 'C3'])).state.pendingAttack).toBe(0);
    const last = rig({ ...o, lastCardRule: 'attack' }, 3, {
      hands: { p1: ['H5', 'C5'] },
      discard: ['H8'],
      current: 'p1',
    });
    expect(ok(play(last, 'p1', ['H5', 'C5'])).state.status.p1).toBe('out');
    const sp = rig({ ...o, lastCardRule: 'special' }, 3, {
      hands: { p1: ['H7', 'C7'] },
      discard: ['H8'],
      current: 'p1',
    });
    rejects(sp, (x) => play(x, 'p1', ['H7', 'C7'], { chooseSuit: 'S' }), '마지막 카드로 특수 카드는 낼 수 없어요');
    const mixed = rig({ ...o, lastCardRule: 'attack' }, 3, {
      hands: { p1: ['H2', 'C2'] },
      discard: ['H8'],
      current: 'p1',
    });
    rejects(mixed, (x) => play(x, 'p1', ['H2', 'C2']), '마지막 카드로 공격 카드(2·A·조커)는 낼 수 없어요');
  });
});

describe('§5.2 D — lastCardRule', () => {
  it('§5.2 D — none: any card may be the last one (a joker included)', () => {
    const s = rig({ lastCardRule: 'none' }, 3, { hands: { p1: ['BJ'] }, discard: ['H8'], current: 'p1' });
    expect(ok(play(s, 'p1', ['BJ'])).state.status.p1).toBe('out');
  });

  it('§5.2 D — attack: 2, A and jokers cannot be the last card; other specials can', () => {
    const o = { lastCardRule: 'attack' };
    for (const code of ['H2', 'HA', 'BJ']) {
      const s = rig(o, 3, { hands: { p1: [code] }, discard: ['H8'], current: 'p1' });
      rejects(s, (x) => play(x, 'p1', [code]), '마지막 카드로 공격 카드(2·A·조커)는 낼 수 없어요');
    }
    const s = rig(o, 3, { hands: { p1: ['HJ'] }, discard: ['H8'], current: 'p1' });
    expect(ok(play(s, 'p1', ['HJ'])).state.status.p1).toBe('out');
  });

  it('§5.2 D — the rule only concerns a play that empties the hand', () => {
    const s = rig({ lastCardRule: 'special' }, 3, { hands: { p1: ['HJ', 'C9'] }, discard: ['H8'], current: 'p1' });
    expect(ok(play(s, 'p1', ['HJ'])).state.hands.p1).toHaveLength(1);
  });

  it('clarification 3 — special forbids every card of the §3 table (2, A, 3, 7, J, Q, K, jokers) whatever the effect options', () => {
    const o = { lastCardRule: 'special', kEffect: 'none', threeDefense: 'off' };
    for (const code of ['H2', 'HA', 'H3', 'H7', 'HJ', 'HQ', 'HK', 'BJ', 'CJ']) {
      const s = rig(o, 3, { hands: { p1: [code] }, discard: ['H8'], current: 'p1' });
      rejects(s, (x) => play(x, 'p1', [code], { chooseSuit: 'S' }), '마지막 카드로 특수 카드는 낼 수 없어요');
    }
    for (const code of ['H4', 'H5', 'H6', 'H8', 'H9', 'H10']) {
      const s = rig(o, 3, { hands: { p1: [code] }, discard: ['H8'], current: 'p1' });
      expect(play(s, 'p1', [code]).ok).toBe(true);
    }
  });
});

describe('clarification 4 — joker on a declared suit', () => {
  it('clarification 4 — with afterJoker previous, the declared suit still binds after a joker; only a non-joker ends it', () => {
    const s = rig({}, 3, {
      hands: { p1: ['BJ', 'C9'], p2: ['C4', 'C5'], p3: ['H4', 'S4', 'H7', 'D9'] },
      discard: ['H8', 'H7'],
      declaredSuit: 'S',
      current: 'p1',
    });
    const s1 = ok(play(s, 'p1', ['BJ'])).state;
    expect(s1.declaredSuit).toBe('S');
    const s2 = ok(act(s1, 'p2', { type: 'draw' })).state;
    expect(s2.current).toBe('p3');
    expect(legalCodes(s2, 'p3')).toEqual(['H7', 'S4']);
    const s3 = ok(play(s2, 'p3', ['S4'])).state;
    expect(s3.declaredSuit).toBeNull();
  });
});
