/** docs/games/hula.md §10 checklist, items 1–23: setup, turns, melds, 땡큐, stop, special wins, deck exhaustion. */
import { describe, expect, it } from 'vitest';
import { hula } from '../../src/games/hula/index.ts';
import { TIMERS } from '../../src/games/hula/timers.ts';
import type { HulaState } from '../../src/games/hula/types.ts';
import { T0, card, findEvent, handIds, no, ok, players, position, timeout } from './helpers.ts';

const act = (seat: number) => ({ kind: 'act', seat, deadline: T0 + 15_000, via: 'stock', thankYouFrom: null }) as const;
const summary = (s: HulaState) => s.lastRound!;
const line = (s: HulaState, p: string) => summary(s).lines.find((l) => l.player === p)!;

describe('§10 훌라 checklist — play', () => {
  it('§10 — 1. setup: same seed same deal; 7 cards each, one start card, the rest in the stock; never a joker on top', () => {
    for (const mode of ['monster', 'joker'] as const) {
      for (let n = 2; n <= 5; n++) {
        const opts = hula.optionsSchema.parse({ mode });
        const a = hula.setup({ seed: `s${n}`, players: players(n), options: opts, now: T0 });
        const b = hula.setup({ seed: `s${n}`, players: players(n), options: opts, now: T0 });
        expect(JSON.stringify(a)).toBe(JSON.stringify(b));
        expect(a.hands.every((h) => h.length === 7)).toBe(true);
        expect(a.discard).toHaveLength(1);
        expect(a.stock.length - a.stockTop).toBe((mode === 'joker' ? 54 : 52) - 7 * n - 1);
        expect(a.phase.kind).toBe('draw');
      }
    }
    const firsts = new Set<number>();
    for (let i = 0; i < 300; i++) {
      const s = hula.setup({
        seed: `j${i}`,
        players: players(4),
        options: hula.optionsSchema.parse({ mode: 'joker' }),
        now: T0,
      });
      expect(s.discard[0].suit).not.toBe('X');
      firsts.add((s.phase as { seat: number }).seat);
    }
    expect(firsts.size).toBe(4);
  });

  it('§10 — 2. options: defaults, rejected values, Korean labels on the form', () => {
    expect(hula.optionsSchema.parse({})).toEqual({
      mode: 'monster',
      rounds: 5,
      baseUnit: 100,
      feeNormal: 5,
      feeSpecial: 10,
      bonus: true,
      botLevel: 'normal',
    });
    for (const bad of [{ mode: 'classic' }, { rounds: 7 }, { baseUnit: 1 }, { feeNormal: 3 }, { extra: 1 }])
      expect(hula.optionsSchema.safeParse(bad).success).toBe(false);
    expect(hula.optionFields.map((f) => f.key)).toEqual([
      'mode',
      'rounds',
      'baseUnit',
      'feeNormal',
      'feeSpecial',
      'bonus',
      'botLevel',
    ]);
    for (const f of hula.optionFields) expect(f.label).toMatch(/[가-힣]/);
  });

  it('§10 — 3. draw: stock or discard top moves to act; registering or discarding first and a second draw are refused', () => {
    const s = position({ hands: ['H5 D5 C5 S9 S10 S11 S12', 'C1 C2 C3 C4 C6 C8 C9'], discard: 'D13', stock: 'H2 H3' });
    expect(no(s, 'p1', { type: 'meld', cardIds: ['H5', 'D5', 'C5'] })).toBe('먼저 카드를 뽑아야 해요');
    expect(no(s, 'p1', { type: 'discard', cardId: 'S9' })).toBe('먼저 카드를 뽑아야 해요');
    const fromStock = ok(s, 'p1', { type: 'draw', from: 'stock' }).state;
    expect(handIds(fromStock, 0)).toContain('H2');
    expect(fromStock.phase.kind).toBe('act');
    expect(no(fromStock, 'p1', { type: 'draw', from: 'stock' })).toBe('이미 카드를 뽑았어요');
    const fromDiscard = ok(s, 'p1', { type: 'draw', from: 'discard' }).state;
    expect(handIds(fromDiscard, 0)).toContain('D13');
    expect(fromDiscard.discard).toHaveLength(0);
  });

  it('§10 — 4. eight-card limit: no draw while holding 8', () => {
    const s = position({ hands: ['H5 D5 C5 S9 S10 S11 S12 S13', 'C1 C2 C3 C4 C6 C8 C9'], discard: 'D13' });
    expect(no(s, 'p1', { type: 'draw', from: 'stock' })).toBe('손패가 8장이라 더 뽑을 수 없어요');
    expect(no(s, 'p1', { type: 'draw', from: 'discard' })).toBe('손패가 8장이라 더 뽑을 수 없어요');
  });

  it('§10 — 5. melds: lone 7, sets of 3–4, same-suit runs with Q-K-A and K-A-2; mixed or short groups refused', () => {
    const s = position({ hands: ['S7 H5 D5 C5 S5 H12 H13 H1', 'C1 C2 C3 C4 C6 C8 C9'], phase: act(0) });
    const kind = (ids: string[]) => ok(s, 'p1', { type: 'meld', cardIds: ids }).state.melds[0];
    expect(kind(['S7']).kind).toBe('seven');
    expect(kind(['H5', 'D5', 'C5']).kind).toBe('set');
    expect(kind(['H5', 'D5', 'C5', 'S5']).cards).toHaveLength(4);
    const qka = kind(['H1', 'H12', 'H13']);
    expect([qka.kind, qka.rank, qka.cards.map((c) => c.id)]).toEqual(['run', 12, ['H12', 'H13', 'H1']]);
    const t = position({ hands: ['D13 D1 D2 S3 H3 C9 C10 S11', 'C1 C2 C3 C4 C6 C8 C7'], phase: act(0) });
    const kA2 = ok(t, 'p1', { type: 'meld', cardIds: ['D2', 'D13', 'D1'] }).state.melds[0];
    expect(kA2.cards.map((c) => c.id)).toEqual(['D13', 'D1', 'D2']);
    const bad = '등록할 수 없는 조합이에요 (같은 숫자 3~4장, 같은 무늬 연속 3장 이상, 또는 7 한 장)';
    expect(no(s, 'p1', { type: 'meld', cardIds: ['H12', 'H13', 'S5'] })).toBe(bad);
    expect(no(s, 'p1', { type: 'meld', cardIds: ['H5', 'D5'] })).toBe(bad);
    expect(no(s, 'p1', { type: 'meld', cardIds: ['H12'] })).toBe(bad);
    expect(no(t, 'p1', { type: 'meld', cardIds: ['C9', 'C10', 'S11'] })).toBe(bad);
  });

  it('§10 — 6. lay-offs: only after registering; run ends, missing suits, and a lone 7 grows into a set or a run', () => {
    const table = [
      { owner: 1, cards: 'D4 D5 D6' },
      { owner: 1, cards: 'S13 H13 D13' },
      { owner: 1, cards: 'C7' },
    ];
    const hand = 'D3 D7 C13 H7 C6 C8 D9';
    const un = position({ hands: [hand, 'C1 C2 C3 C4'], melds: table, phase: act(0) });
    expect(no(un, 'p1', { type: 'layOff', cardIds: ['D3'], meldId: 1 })).toBe(
      '한 번 이상 등록하거나 땡큐한 뒤에만 붙일 수 있어요',
    );
    const s = { ...un, registered: [true, true] };
    expect(ok(s, 'p1', { type: 'layOff', cardIds: ['D3'], meldId: 1 }).state.melds[0].cards.map((c) => c.id)).toEqual([
      'D3',
      'D4',
      'D5',
      'D6',
    ]);
    expect(ok(s, 'p1', { type: 'layOff', cardIds: ['D7'], meldId: 1 }).state.melds[0].cards.at(-1)!.id).toBe('D7');
    expect(ok(s, 'p1', { type: 'layOff', cardIds: ['C13'], meldId: 2 }).state.melds[1].cards).toHaveLength(4);
    const set7 = ok(s, 'p1', { type: 'layOff', cardIds: ['H7'], meldId: 3 }).state.melds[2];
    expect([set7.kind, set7.rank]).toEqual(['set', 7]);
    const low = ok(s, 'p1', { type: 'layOff', cardIds: ['C6'], meldId: 3 }).state.melds[2];
    expect([low.kind, low.rank, low.cards.map((c) => c.id)]).toEqual(['run', 6, ['C6', 'C7']]);
    const high = ok(s, 'p1', { type: 'layOff', cardIds: ['C8'], meldId: 3 }).state.melds[2];
    expect([high.kind, high.cards.map((c) => c.id)]).toEqual(['run', ['C7', 'C8']]);
    expect(no(s, 'p1', { type: 'layOff', cardIds: ['D9'], meldId: 1 })).toBe('그 자리에는 붙일 수 없어요');
    expect(no(s, 'p1', { type: 'layOff', cardIds: ['D9'], meldId: 9 })).toBe('그런 등록 카드가 없어요');
  });

  it('§10 — 7. one card left: discardPrompt names it, and discarding it is 훌라', () => {
    const s = position({ hands: ['S7 S2', 'C1 C2 C3 C4 C6 C8 C9'], phase: act(0) });
    const one = ok(s, 'p1', { type: 'meld', cardIds: ['S7'] }).state;
    expect(hula.view(one, 'p1').me!.discardPrompt).toBe('S2');
    expect(hula.view(one, 'p2').me!.discardPrompt).toBeNull();
    const out = ok(one, 'p1', { type: 'discard', cardId: 'S2' });
    expect(findEvent(out.events, 'hula')).toMatchObject({ player: 'p1', byThankYou: false });
    expect(summary(out.state)).toMatchObject({ winner: 'p1', winType: 'hula' });
  });

  it('§10 — 8. registering or laying off the last cards is 훌라 at once, without a discard', () => {
    const s = position({ hands: ['H5 D5 C5', 'C1 C2 C3 C4 C6 C8 C9'], phase: act(0) });
    expect(summary(ok(s, 'p1', { type: 'meld', cardIds: ['H5', 'D5', 'C5'] }).state).winType).toBe('hula');
    const t = position({
      hands: ['D7', 'C1 C2 C3 C4 C6 C8 C9'],
      melds: [{ owner: 1, cards: 'D4 D5 D6' }],
      registered: [true, true],
      phase: act(0),
    });
    expect(summary(ok(t, 'p1', { type: 'layOff', cardIds: ['D7'] }).state).winner).toBe('p1');
  });

  it('§10 — 9. 괴물 땡큐 asks clockwise from the discarder, one at a time; out-of-order and own claims refused; all pass → next turn', () => {
    const s = position({
      hands: ['S2 S4 S6 S8 S10 S12 C1', 'H9 C3 D5 D7 C9 C11 C13', 'H10 H11 D2 D4 D6 D8 D10', 'S9 D9 H2 H4 H6 H8 S1'],
      turn: 1,
      phase: act(1),
    });
    const asked = ok(s, 'p2', { type: 'discard', cardId: 'H9' }).state;
    const v = hula.view(asked, 'p1');
    expect(v.phase).toMatchObject({ kind: 'thankYouAsk', discarder: 'p2', asked: 'p3', order: ['p3', 'p4', 'p1'] });
    expect(no(asked, 'p4', { type: 'thankYou', cardIds: ['S9', 'D9'] })).toBe('아직 내 땡큐 차례가 아니에요');
    expect(no(asked, 'p2', { type: 'pass' })).toBe('내가 버린 카드는 땡큐할 수 없어요');
    let t = ok(asked, 'p3', { type: 'pass' }).state;
    expect(hula.view(t, null).phase).toMatchObject({ asked: 'p4' });
    t = ok(t, 'p4', { type: 'pass' }).state;
    t = ok(t, 'p1', { type: 'pass' }).state;
    expect(t.phase).toMatchObject({ kind: 'draw', seat: 2 });
  });

  it('§10 — 10. 괴물 땡큐 check: 5 s without an answer passes automatically and does not count as a timeout', () => {
    const s = position({
      hands: ['S2 S4 S6 S8 S10 S12 H9', 'C3 D5 D7 C9 C11 C13 C1', 'D2 D4 D6 D8 D10 H2 H4'],
      phase: act(0),
    });
    const asked = ok(s, 'p1', { type: 'discard', cardId: 'H9' }, T0 + 2000).state;
    expect(hula.deadline(asked)).toBe(T0 + 2000 + 5000 + 500);
    const r = timeout(asked);
    expect(findEvent(r.events, 'thankYouPass')).toMatchObject({ player: 'p2', auto: true });
    expect(hula.view(r.state, null).phase).toMatchObject({ asked: 'p3' });
    expect(r.state.seats[1].timeoutsInRow).toBe(0);
  });

  it('§10 — 11. 땡큐 registers the discard with two hand cards, no draw; one card refused; next turn is after the taker', () => {
    const s = position({
      hands: ['S2 S4 S6 S8 S10 S12 H9', 'H10 H11 C3 D5 C9 C11 C13', 'D2 D4 D6 D8 D10 H2 H4'],
      phase: act(0),
    });
    const asked = ok(s, 'p1', { type: 'discard', cardId: 'H9' }).state;
    expect(no(asked, 'p2', { type: 'thankYou', cardIds: ['H10'] })).toBe(
      '버린 카드와 손패 2장 이상으로 새 등록(같은 숫자 또는 같은 무늬 연속)을 만들어야 해요',
    );
    const taken = ok(asked, 'p2', { type: 'thankYou', cardIds: ['H10', 'H11'] }).state;
    expect(taken.melds[0]).toMatchObject({ owner: 'p2', kind: 'run', rank: 9 });
    expect(taken.registered[1]).toBe(true);
    expect(taken.hands[1]).toHaveLength(5);
    expect(taken.phase).toMatchObject({ kind: 'act', seat: 1, via: 'thankYou' });
    let t = ok(taken, 'p2', { type: 'discard', cardId: 'C13' }).state;
    expect(hula.view(t, null).phase).toMatchObject({ asked: 'p3', order: ['p3', 'p1'] });
    t = ok(ok(t, 'p3', { type: 'pass' }).state, 'p1', { type: 'pass' }).state;
    expect(t.phase).toMatchObject({ kind: 'draw', seat: 2 });
  });

  it('§10 — 12. 괴물: one card left after 땡큐 is discarded automatically — a 땡큐 훌라 with 땡큐박', () => {
    const s = position({ hands: ['S2 S4 S6 S8 S10 S12 H9', 'H10 H11 C3', 'D2 D4 D6 D8 D10 H2 H4'], phase: act(0) });
    const asked = ok(s, 'p1', { type: 'discard', cardId: 'H9' }).state;
    const r = ok(asked, 'p2', { type: 'thankYou', cardIds: ['H10', 'H11'] });
    expect(findEvent(r.events, 'discarded')).toMatchObject({ player: 'p2', auto: true, card: card('C3') });
    expect(summary(r.state)).toMatchObject({ winner: 'p2', winType: 'hula', byThankYou: true, thankYouFrom: 'p1' });
    expect(line(r.state, 'p1').multipliers.map((m) => m.code)).toContain('thankYou');
  });

  it('§10 — 13. 땡큐 to an empty hand is 훌라 at once; the discarder pays ×2 훌라 × ×2 땡큐박', () => {
    const s = position({
      hands: ['C2 C4 H9', 'H10 H11'],
      registered: [true, true],
      hadTurn: [true, true],
      phase: act(0),
    });
    const asked = ok(s, 'p1', { type: 'discard', cardId: 'H9' }).state;
    const done = ok(asked, 'p2', { type: 'thankYou', cardIds: ['H10', 'H11'] }).state;
    const p1 = line(done, 'p1');
    expect(p1.multipliers).toEqual([
      { code: 'hulaWin', factor: 2 },
      { code: 'thankYou', factor: 2 },
    ]);
    expect(p1.due).toBe(800);
    expect(summary(done).fee).toBe(40);
    expect(done.seats.map((x) => x.points)).toEqual([-800, 760]);
  });

  it('§10 — 14. 조커 race: only able players see the button; claims within 100 ms go to the nearest clockwise; decided on the next action or timeout; late claims refused', () => {
    const base = position({
      mode: 'joker',
      hands: ['S2 S4 S6 S8 S10 S12 H9', 'C3 D5 D7 C9 C11 C13 C1', 'H10 H11 D2 D4 D6 D8 D10', 'S9 D9 H2 H4 H6 H8 S1'],
      phase: act(0),
    });
    const race = ok(base, 'p1', { type: 'discard', cardId: 'H9' }, T0 + 1000).state;
    expect(hula.view(race, 'p2').me!.canThankYou).toBe(false);
    expect(hula.view(race, 'p3').me!.canThankYou).toBe(true);
    expect(hula.view(race, 'p4').me!.canThankYou).toBe(true);
    const first = ok(race, 'p4', { type: 'thankYou', cardIds: ['S9', 'D9'] }, T0 + 2000).state;
    expect(hula.deadline(first)).toBe(T0 + 2100);
    const both = ok(first, 'p3', { type: 'thankYou', cardIds: ['H10', 'H11'] }, T0 + 2099).state;
    // Decided by the next action: p3 (seat 2) is nearer to the discarder (seat 0) than p4 (seat 3).
    const viaAction = ok(both, 'p3', { type: 'discard', cardId: 'D10' }, T0 + 2300);
    expect(findEvent(viaAction.events, 'thankYou')).toMatchObject({ player: 'p3', from: 'p1' });
    expect(findEvent(viaAction.events, 'thankYouRaceResolved')).toMatchObject({ winner: 'p3', claims: 2 });
    // Decided by onTimeout at the window's end.
    const viaTimeout = timeout(both, T0 + 2100);
    expect(viaTimeout.state.phase).toMatchObject({ kind: 'act', seat: 2, via: 'thankYou' });
    // A claim after the window: the window is decided first, then the claim is refused.
    expect(no(first, 'p3', { type: 'thankYou', cardIds: ['H10', 'H11'] }, T0 + 2100)).toBe('지금은 땡큐할 수 없어요');
  });

  it('§10 — 15. 조커 race: nobody claims in 7 s → the discarder’s next player draws', () => {
    const s = position({
      mode: 'joker',
      hands: ['S2 S4 S6 S8 S10 S12 H9', 'C3 D5 D7 C9 C11 C13 C1', 'D2 D4 D6 D8 D10 S3 S5'],
      phase: act(0),
    });
    const race = ok(s, 'p1', { type: 'discard', cardId: 'H9' }, T0 + 1000).state;
    expect(hula.deadline(race)).toBe(T0 + 1000 + TIMERS.joker.thankYouMs + 500);
    const r = timeout(race);
    expect(findEvent(r.events, 'thankYouExpired')).toBeDefined();
    expect(r.state.phase).toMatchObject({ kind: 'draw', seat: 1 });
  });

  it('§10 — 16. 조커 땡큐 with a joker in the group is refused', () => {
    const s = position({ mode: 'joker', hands: ['S2 S4 S6 S8 S10 S12 H9', 'X1 H10 C3 D5', 'D2 D4'], phase: act(0) });
    const race = ok(s, 'p1', { type: 'discard', cardId: 'H9' }).state;
    expect(no(race, 'p2', { type: 'thankYou', cardIds: ['X1', 'H10'] })).toBe('땡큐에는 조커를 쓸 수 없어요');
  });

  it('§10 — 17. jokers are wild: X+5♠+6♠ plays 7♠, 5♠+X+7♠ plays 6♠, X+K♥+K♦ is a set, end=low lays off below', () => {
    const s = position({ mode: 'joker', hands: ['X1 S5 S6 S7 H13 D13 C2', 'C3 C4'], phase: act(0) });
    const up = ok(s, 'p1', { type: 'meld', cardIds: ['X1', 'S5', 'S6'] }).state.melds[0];
    expect([up.rank, up.cards.map((c) => c.id)]).toEqual([5, ['S5', 'S6', 'X1']]);
    const gap = ok(s, 'p1', { type: 'meld', cardIds: ['S5', 'X1', 'S7'] }).state.melds[0];
    expect(gap.cards.map((c) => c.id)).toEqual(['S5', 'X1', 'S7']);
    const set = ok(s, 'p1', { type: 'meld', cardIds: ['X1', 'H13', 'D13'] }).state.melds[0];
    expect([set.kind, set.rank]).toEqual(['set', 13]);
    const t = position({
      mode: 'joker',
      hands: ['X1 C2 C4', 'C3 C5'],
      melds: [{ owner: 1, cards: 'S5 S6 S7' }],
      registered: [true, true],
      phase: act(0),
    });
    const low = ok(t, 'p1', { type: 'layOff', cardIds: ['X1'], meldId: 1, end: 'low' }).state.melds[0];
    expect([low.rank, low.cards.map((c) => c.id)]).toEqual([4, ['X1', 'S5', 'S6', 'S7']]);
  });

  it('§10 — 18. a joker cannot be discarded while other cards are held; with only jokers it can', () => {
    const s = position({ mode: 'joker', hands: ['X1 S5 H9', 'C3 C4'], phase: act(0) });
    expect(no(s, 'p1', { type: 'discard', cardId: 'X1' })).toBe('조커는 버릴 수 없어요 (손패가 모두 조커일 때만 가능)');
    const t = position({ mode: 'joker', hands: ['X1 X2', 'C3 C4'], phase: act(0) });
    const r = ok(t, 'p1', { type: 'discard', cardId: 'X1' });
    expect(handIds(r.state, 0)).toEqual(['X2']);
  });

  it('§10 — 19. stop: only before drawing; limits 15/18/21/none by players, 7 counting 14 and a joker 20', () => {
    const others = ['C3 C4 C5', 'D3 D4 D5', 'H3 H4 H6', 'S3 S4 S5'];
    const at = (n: number, hand: string, mode: 'monster' | 'joker' = 'monster') =>
      position({ mode, hands: [hand, ...others.slice(0, n - 1)] });
    ok(at(2, 'S7 H1'), 'p1', { type: 'stop' });
    expect(no(at(2, 'S7 H2'), 'p1', { type: 'stop' })).toBe(
      '스톱하려면 손패 점수가 15점 이하여야 해요 (지금 16점, 7은 14점·조커는 20점으로 계산)',
    );
    ok(at(3, 'S7 H4'), 'p1', { type: 'stop' });
    expect(no(at(3, 'S7 H5'), 'p1', { type: 'stop' })).toContain('18점 이하');
    ok(at(4, 'X1 H1', 'joker'), 'p1', { type: 'stop' });
    expect(no(at(4, 'X1 H2', 'joker'), 'p1', { type: 'stop' })).toContain('21점 이하');
    ok(at(5, 'S13 H13 D13 C13 S12 H12 D12'), 'p1', { type: 'stop' });
    const drawn = ok(at(2, 'S1 H1'), 'p1', { type: 'draw', from: 'stock' }).state;
    expect(no(drawn, 'p1', { type: 'stop' })).toBe('스톱은 카드를 뽑기 전에만 선언할 수 있어요');
    expect(no(at(2, 'S1 H1'), 'p2', { type: 'stop' })).toBe('지금은 내 차례가 아니에요');
  });

  it('§10 — 20. stop success: the stopper wins, losers pay by rank, every 7 counts 14', () => {
    const s = position({
      hands: ['H1 H2', 'S7 C10', 'D13 C12 S9'],
      registered: [true, true, true],
      hadTurn: [true, true, true],
    });
    const done = ok(s, 'p1', { type: 'stop' }).state;
    expect(summary(done)).toMatchObject({ winner: 'p1', winType: 'stop', stopFailed: false, gross: 500, fee: 25 });
    expect(line(done, 'p2')).toMatchObject({ score: 24, rank: 2, base: 100, due: 200 });
    expect(line(done, 'p3')).toMatchObject({ score: 34, rank: 3, base: 300, due: 300 });
    expect(done.seats.map((x) => x.points)).toEqual([475, -200, -300]);
  });

  it('§10 — 21. stop tie fails; the stopper alone pays 1.5× what all losers together would have paid', () => {
    const s = position({
      hands: ['H1 H2', 'S1 D2', 'D13'],
      registered: [true, true, true],
      hadTurn: [true, true, true],
    });
    const done = ok(s, 'p1', { type: 'stop' }).state;
    expect(summary(done)).toMatchObject({ winner: 'p2', stopper: 'p1', stopFailed: true, gross: 600, fee: 30 });
    expect(line(done, 'p1')).toMatchObject({ rank: 2, due: 100, delta: -600 });
    expect(line(done, 'p3')).toMatchObject({ rank: 3, due: 300, delta: 0 });
    expect(done.seats.map((x) => x.points)).toEqual([-600, 570, 0]);
  });

  it('§10 — 22. special wins while unregistered: 대카, 소카, 7777 by mode; refused after registering or without the hand; ×4 and a 10% fee', () => {
    const opp = ['C3 C4', 'D3 D4 D5'];
    const declare = (hand: string, mode: 'monster' | 'joker' = 'monster', registered = false) =>
      hula.apply(
        position({ mode, hands: [hand, ...opp], registered: [registered, true, true], hadTurn: [true, true, true] }),
        'p1',
        { type: 'special' },
        T0 + 1000,
      );
    const kindOf = (r: ReturnType<typeof declare>) => (r.ok ? r.state.lastRound!.special : r.reason);
    expect(kindOf(declare('S13 H13 D13 C13 S12 H12 D8'))).toBe('daeka'); // 84 ≥ 83
    expect(kindOf(declare('S13 H13 D13 C13 S12 H12 D8', 'joker'))).toBe('대카·소카·7777 조건이 아니에요'); // 84 < 85
    expect(kindOf(declare('X1 S13 H13 D13 C13 S12 H10', 'joker'))).toBe('daeka'); // 13 + 52 + 22 = 87
    expect(kindOf(declare('S1 H1 D1 C1 S2 H2 D7'))).toBe('soka'); // 15
    expect(kindOf(declare('S1 H1 D1 C1 S2 H2 D7', 'joker'))).toBe('대카·소카·7777 조건이 아니에요'); // 15 > 13
    expect(kindOf(declare('X1 S1 H1 D1 C1 S2 H2', 'joker'))).toBe('soka'); // 1 + 4 + 4 = 9
    expect(kindOf(declare('S7 H7 D7 C7 S13 H12 D11'))).toBe('sevens');
    expect(kindOf(declare('S7 H7 D7 C7 S13 H12 D11', 'monster', true))).toBe(
      '등록한 뒤에는 특수 승리를 선언할 수 없어요',
    );
    const r = declare('S13 H13 D13 C13 S12 H12 D8');
    if (!r.ok) throw new Error(r.reason);
    expect(r.state.lastRound!.lines.slice(1).map((l) => l.due)).toEqual([400, 1200]);
    expect(r.state.lastRound).toMatchObject({ gross: 1600, fee: 160, feeRate: 10 });
    expect(r.state.seats[0].points).toBe(1440);
  });

  it('§10 — 23. deck exhaustion: when the next turn finds no stock, the lowest hand wins with 7 counting 7', () => {
    const s = position({
      hands: ['D9', 'S7 H1'],
      stock: 'H12',
      discard: 'C2',
      registered: [true, true],
      hadTurn: [true, true],
    });
    let t = ok(s, 'p1', { type: 'draw', from: 'stock' }).state;
    t = ok(t, 'p1', { type: 'discard', cardId: 'H12' }).state;
    const r = ok(t, 'p2', { type: 'pass' });
    expect(findEvent(r.events, 'deckExhausted')).toBeDefined();
    expect(summary(r.state)).toMatchObject({ winner: 'p2', winType: 'exhaustion' });
    expect(line(r.state, 'p2').score).toBe(8);
    expect(line(r.state, 'p1')).toMatchObject({ score: 9, due: 200 });
  });
});
