/**
 * Clarifications 16 and 17 (rules version 3): the pot-limit cap below the
 * minimum raise, and leaving mid-hand with the pots nobody live can win. One
 * test per sentence of each clarification; version-2 games keep their rules
 * (the older behaviour is pinned in round-end-and-pots.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { poker } from '../../src/games/poker/index.ts';
import type { PokerState } from '../../src/games/poker/types.ts';
import { act, foldOut, legal, legalTypes, order, readyAll, rej, rig, setStacks, stack, start } from './helpers.ts';

const chips = (s: PokerState) =>
  s.seats.reduce((t, x) => t + x.stack, 0) +
  (s.hand
    ? s.hand.pots.reduce((t, p) => t + p.amount, 0) +
      s.hand.seatOrder.reduce((t, id) => t + s.hand!.players[id].committedRound, 0)
    : 0);

/**
 * Hold'em pot limit, blinds 5/10, hand 2 with a 2-chip small blind and a 3-chip big blind (both all-in):
 * the first to act faces currentBet 3 in a pot of 5 — cap 3 + 5 + 3 = 11, minimum raise 3 + 10 = 13.
 */
function shortBlinds(rulesVersion?: number) {
  let s = start({ mode: 'holdem', betting: 'potLimit' }, 4, 'seed-1', undefined, rulesVersion);
  const [bank, nextSb, nextBb] = order(s);
  s = readyAll(setStacks(foldOut(s), { [nextSb]: 2, [nextBb]: 3 }, bank));
  const [SB, BB, U, D] = order(s);
  return { s, SB, BB, U, D };
}

const CAP_BELOW = '팟리밋 한도(11)가 최소 레이즈(13)보다 작아서 레이즈할 수 없어요(콜 또는 폴드만 가능)';

describe('clarification 16 — 팟리밋 최대가 최소 레이즈보다 작을 때', () => {
  it('clarification 16 — 팟리밋 최대 레이즈 총액(11)이 최소 레이즈 총액(13)보다 작으면 레이즈를 주지 않고 콜 또는 폴드만', () => {
    const { s, SB, BB, U } = shortBlinds();
    expect(s.hand!.players[SB].allIn && s.hand!.players[BB].allIn).toBe(true);
    expect(s.hand!.betting!.toAct).toBe(U);
    expect(legalTypes(s, U)).toEqual(['nl.fold', 'nl.call']);
    expect(rej(s, U, { type: 'nl.raise', to: 11 })).toBe(CAP_BELOW);
    expect(rej(s, U, { type: 'nl.raise', to: 13 })).toBe(CAP_BELOW);
    expect(act(s, U, { type: 'nl.call' }).hand!.players[U].committedRound).toBe(3);
    // A version-2 game keeps its rule: the cap wins and a raise to exactly 11 is offered.
    const old = shortBlinds(2);
    expect(legal(old.s, old.U, 'nl.raise')).toEqual({ type: 'nl.raise', min: 11, max: 11, bet: false });
  });

  it('clarification 16 — 그때 올인은 총액이 두 한도 사이에 있을 때만 레이즈: 콜 금액을 넘는 올인은 거부, 콜 이하 올인은 콜', () => {
    // 8 chips: an all-in to 8 lies under the cap but below the minimum — not within both bounds, refused.
    const { s, U, D } = shortBlinds();
    const mid = setStacks(s, { [U]: 8 }, D);
    expect(legalTypes(mid, U)).toEqual(['nl.fold', 'nl.call']);
    expect(rej(mid, U, { type: 'nl.allIn' })).toBe(CAP_BELOW);
    // 2 chips: the all-in is a short call and stays allowed.
    const short = setStacks(s, { [U]: 2 }, D);
    expect(legal(short, U, 'nl.call')).toEqual({ type: 'nl.call', amount: 2, allIn: true });
    const called = act(short, U, { type: 'nl.allIn' });
    expect(called.hand!.players[U]).toMatchObject({ allIn: true, committedRound: 2, lastAction: '콜(올인)' });
  });

  it('clarification 16 — 한도가 최소 레이즈 이상이면 평소대로: 두 한도 사이 올인은 풀 레이즈, 모자란 올인은 불완전 레이즈(clarification 9), 한도를 넘는 올인은 거부(clarification 12)', () => {
    const { s: s0, U, D } = shortBlinds();
    const s = act(s0, U, { type: 'nl.call' });
    // D: pot 8, toCall 3 → cap 14 ≥ minimum 13.
    expect(legal(s, D, 'nl.raise')).toEqual({ type: 'nl.raise', min: 13, max: 14, bet: false });
    const full = act(setStacks(s, { [D]: 13 }, U), D, { type: 'nl.allIn' });
    expect(full.hand!.betting!.toAct).toBe(U);
    expect(legalTypes(full, U)).toContain('nl.raise'); // a full raise reopens the betting
    const incomplete = act(setStacks(s, { [D]: 12 }, U), D, { type: 'nl.allIn' });
    expect(incomplete.hand!.betting!.currentBet).toBe(12);
    expect(legalTypes(incomplete, U)).toEqual(['nl.fold', 'nl.call']); // U acted and faces only 9 more
    expect(rej(setStacks(s, { [D]: 20 }, U), D, { type: 'nl.allIn' })).toBe(
      '팟리밋이라 올인할 수 없어요. 최대 14까지 레이즈할 수 있어요',
    );
  });
});

describe('clarification 17 — 판 도중 나가기와 아무도 이길 수 없는 팟', () => {
  it('clarification 17 — 나간 사람은 그 판의 이후 결정마다 시간 초과로 처리: 낼 것이 없으면 체크, 있으면 폴드(시계를 기다리지 않음)', () => {
    let s = start({ mode: 'holdem' }, 3);
    const [SB, BB, D] = order(s);
    s = act(s, D, { type: 'nl.call' });
    s = act(s, SB, { type: 'nl.call' });
    s = act(s, BB, { type: 'nl.check' });
    expect(s.hand!.betting!.toAct).toBe(SB); // flop
    s = act(s, BB, { type: 'leave' }); // not BB's turn: nothing happens yet, the cards stay live
    expect(s.hand!.players[BB].folded).toBe(false);
    expect(s.hand!.betting!.toAct).toBe(SB);
    s = act(s, SB, { type: 'nl.check' });
    // BB's turn came with nothing owed: checked at once, D is to act.
    expect(s.hand!.players[BB]).toMatchObject({ folded: false, lastAction: '체크' });
    expect(s.hand!.betting!.toAct).toBe(D);
    s = act(s, D, { type: 'nl.raise', to: 20 });
    s = act(s, SB, { type: 'nl.call' });
    // Now BB owes 20: folded at once, and the turn card is out.
    expect(s.hand!.players[BB]).toMatchObject({ folded: true, lastAction: '폴드' });
    expect(s.hand!.board).toHaveLength(4);
    expect(s.seats.find((x) => x.id === BB)!.away).toBe(false);
    // Leaving on one's own turn: the automatic action is taken in the same step.
    s = act(s, SB, { type: 'leave' });
    expect(s.hand!.players[SB]).toMatchObject({ folded: false, lastAction: '체크' });
    expect(s.hand!.betting!.toAct).toBe(D);
  });

  it('clarification 17 — 교환·선언 같은 동시 결정도 시간 초과의 자동 행동(교환은 패스)으로 바로 처리', () => {
    let s = start({ mode: 'fiveDraw', betting: 'noLimit' }, 3);
    const [A, B, C] = order(s);
    for (const id of [A, B, C]) s = act(s, id, { type: 'nl.check' });
    expect(s.hand!.phase).toBe('draw');
    const hole = s.hand!.players[C].hole;
    s = act(s, C, { type: 'leave' });
    expect(s.hand!.players[C].drawPending).toEqual([]);
    s = act(s, A, { type: 'draw', cardIds: [] });
    s = act(s, B, { type: 'draw', cardIds: [] });
    expect(s.hand!.phase).toBe('betting');
    expect(s.hand!.players[C].hole).toEqual(hole);
  });

  it('clarification 17 — 다른 살아 있는 사람이 모두 올인이면 나간 사람의 패는 쇼다운까지 살아 있고 보통처럼 이기거나 짐', () => {
    const play = (rulesVersion?: number) => {
      let s = start({ mode: 'fiveDraw', betting: 'noLimit' }, 3, 'seed-1', undefined, rulesVersion);
      const [A, B, C] = order(s);
      s = setStacks(s, { [A]: 100, [B]: 60 }, C);
      s = rig(s, { hole: { [A]: '2c 3d 5h 7s 9c', [B]: '2d 4d 6h 8s Tc', [C]: 'As Ah Ad Ac Ks' } });
      s = act(s, A, { type: 'nl.allIn' });
      s = act(s, B, { type: 'nl.allIn' });
      s = act(s, C, { type: 'nl.call' });
      expect(s.hand!.phase).toBe('draw');
      const before = stack(s, C);
      s = act(s, C, { type: 'leave' }); // C has matched; A and B are all-in: nothing more can be owed
      s = act(s, A, { type: 'draw', cardIds: [] });
      s = act(s, B, { type: 'draw', cardIds: [] });
      return { s, C, before };
    };
    const { s, C, before } = play();
    expect(s.hand!.phase).toBe('handEnd');
    expect(s.hand!.showdown!.map((e) => e.id)).toContain(C);
    // C's four aces take the main pot (3 × 70) and the side pot (2 × 40): everything but nothing returned.
    expect(stack(s, C)).toBe(before + 210 + 80);
    // Under rules version 2 the leaver folded at once and lost what was in.
    const old = play(2);
    expect(old.s.hand!.players[old.C].folded).toBe(true);
    expect(stack(old.s, old.C)).toBe(old.before);
  });

  it('clarification 17 — 다이한 사람의 칩은 돌려주지 않고, 아무도 받지 않은 베팅 부분만 건 사람에게 돌아감', () => {
    let s = start({ mode: 'holdem' }, 3);
    const [SB, BB, D] = order(s);
    s = setStacks(s, { [D]: 50 }, SB);
    const total = chips(s);
    s = act(s, D, { type: 'nl.allIn' }); // to 50
    s = act(s, SB, { type: 'nl.call' });
    s = act(s, BB, { type: 'nl.call' });
    s = act(s, SB, { type: 'nl.raise', to: 200 }); // flop
    s = act(s, BB, { type: 'nl.call' });
    s = act(s, SB, { type: 'nl.check' }); // turn
    s = act(s, BB, { type: 'nl.check' });
    s = act(s, SB, { type: 'nl.raise', to: 100 }); // river bet; BB to act
    s = act(s, SB, { type: 'leave' }); // SB's hand stays live
    const bbBefore = stack(s, BB);
    const sbBefore = stack(s, SB);
    const r = poker.apply(s, BB, { type: 'nl.fold' }, s.hand!.deadlineAt! - 1);
    if (!r.ok) throw new Error(r.reason);
    s = r.state;
    // Only SB's uncalled river bet goes back; BB's 250 stays in the pots.
    expect(r.events.filter((e) => e.type === 'returned')).toEqual([{ type: 'returned', player: SB, amount: 100 }]);
    expect(stack(s, BB)).toBe(bbBefore);
    const pots = s.hand!.potResults!;
    expect(pots.map((p) => [p.amount, [...p.eligible].sort()])).toEqual([
      [150, [SB, D].sort()],
      [400, [SB]],
    ]);
    expect(pots[1].winners).toEqual([{ player: SB, amount: 400 }]);
    expect(stack(s, SB)).toBe(sbBefore + 100 + 400 + (pots[0].winners.find((w) => w.player === SB)?.amount ?? 0));
    expect(chips(s)).toBe(total);
  });

  it('clarification 17 — 기여한 사람이 모두 다이한 팟은 바로 아래 팟에 더해져 그 팟의 승자가 가져감', () => {
    // 6 players, blinds 5/10. After hand 1 the next blinds leave (folded after posting in hand 2, §5.8),
    // and the next three seats hold 3, 4 and 4 chips: all three go all-in under the dead blinds.
    let s = start({ mode: 'holdem' }, 6);
    const [bank, sb, bb, u, x, y] = order(s);
    s = setStacks(foldOut(s), { [u]: 3, [x]: 4, [y]: 4 }, bank);
    s = act(act(s, sb, { type: 'leave' }), bb, { type: 'leave' });
    s = readyAll(s);
    expect(order(s)).toEqual([sb, bb, u, x, y, bank]);
    expect(s.hand!.players[sb].folded && s.hand!.players[bb].folded).toBe(true);
    s = rig(s, { hole: { [u]: 'As Ah', [x]: 'Ks Kh', [y]: 'Qs Qh' }, deck: '2c 7d 8c 9s 3h Jd 4c 5d' });
    const total = chips(s);
    s = act(s, u, { type: 'nl.allIn' });
    s = act(s, x, { type: 'nl.allIn' });
    s = act(s, y, { type: 'nl.allIn' });
    s = act(s, bank, { type: 'nl.fold' });
    const h = s.hand!;
    expect(h.phase).toBe('handEnd');
    // BB's 10 over SB's 5 was a bet nobody called: 5 goes back. Then SB 5, BB 5, U 3, X 4, Y 4:
    // main 5 × 3 = 15 (U, X, Y); X and Y's pot 4 × 1 = 4, plus the 1 + 1 of SB and BB above 4 that no
    // live player reached — that pot's contributors all folded, so it joins the pot below: 6.
    expect(h.potResults!.map((p) => [p.amount, p.eligible, p.winners])).toEqual([
      [15, [u, x, y], [{ player: u, amount: 15 }]],
      [6, [x, y], [{ player: x, amount: 6 }]],
    ]);
    expect(stack(s, u)).toBe(15);
    expect(stack(s, x)).toBe(6);
    expect(chips(s)).toBe(total);
  });
});
