/** §5.2 round end after every action, §5.5 pot eligibility whatever the order of folds, and the §5.3 pot-limit decision. */
import { describe, expect, it } from 'vitest';
import { poker } from '../../src/games/poker/index.ts';
import type { PokerState } from '../../src/games/poker/types.ts';
import { act, foldOut, legal, order, readyAll, setStacks, stack, start } from './helpers.ts';

const chips = (s: PokerState) =>
  s.seats.reduce((t, x) => t + x.stack, 0) +
  (s.hand
    ? s.hand.pots.reduce((t, p) => t + p.amount, 0) +
      s.hand.seatOrder.reduce((t, id) => t + s.hand!.players[id].committedRound, 0)
    : 0);

describe('포커 round end and side pots', () => {
  it('§5.2 — 행동 가능한 사람이 1명이고 currentBet을 맞췄으면 라운드가 바로 끝난다 (mid-round: BB is not asked after everyone else goes all-in short)', () => {
    let s = start({ mode: 'holdem' }, 4);
    const [SB, BB, U, D] = order(s);
    s = setStacks(s, { [U]: 8, [D]: 10, [SB]: 3 }, BB);
    s = act(s, U, { type: 'nl.allIn' }); // 8: a short call of the big blind
    s = act(s, D, { type: 'nl.allIn' }); // 10: a call
    s = act(s, SB, { type: 'nl.allIn' }); // 5 + 3
    // BB alone can still act and has matched currentBet (10): no turn for BB, the board runs out.
    expect(s.hand!.phase).toBe('handEnd');
    expect(s.hand!.board).toHaveLength(5);
    const won = Object.fromEntries([SB, BB, U, D].map((id) => [id, 0]));
    for (const a of s.hand!.awards!) won[a.to] += a.amount;
    // Whoever wins, nobody takes more than everyone's contribution capped at their own.
    const put: Record<string, number> = { [SB]: 8, [BB]: 10, [U]: 8, [D]: 10 };
    for (const id of [SB, BB, U, D]) {
      const cap = Object.values(put).reduce((t, c) => t + Math.min(c, put[id]), 0);
      expect(won[id]).toBeLessThanOrEqual(cap);
    }
  });

  it('§5.5 — rules version 2: chips no live player matched go back to who put them in; the all-in player wins only the pot he is eligible for', () => {
    // Version 2 only: clarification 17 (version 3) keeps a leaver's hand live and never returns folded chips.
    let s = start({ mode: 'holdem' }, 3, 'seed-1', undefined, 2);
    const [SB, BB, D] = order(s);
    s = setStacks(s, { [D]: 50 }, SB);
    const total = chips(s);
    s = act(s, D, { type: 'nl.allIn' }); // to 50
    s = act(s, SB, { type: 'nl.call' });
    s = act(s, BB, { type: 'nl.call' });
    s = act(s, SB, { type: 'nl.raise', to: 200 }); // flop bet
    s = act(s, BB, { type: 'nl.call' });
    s = act(s, SB, { type: 'nl.check' }); // turn
    s = act(s, BB, { type: 'nl.check' });
    s = act(s, SB, { type: 'nl.raise', to: 100 }); // river bet; BB to act
    const sbBefore = stack(s, SB);
    const bbBefore = stack(s, BB);
    s = act(s, SB, { type: 'leave' }); // folds out of turn
    s = act(s, BB, { type: 'nl.fold' });
    const h = s.hand!;
    expect(h.phase).toBe('handEnd');
    // D put in 50: the main pot is 3 × 50; the 200 + 200 above it nobody still in the hand matched.
    expect(h.potResults).toEqual([
      { amount: 150, eligible: [D], winners: [{ player: D, amount: 150 }], carried: false },
    ]);
    expect(stack(s, D)).toBe(150);
    expect(stack(s, SB)).toBe(sbBefore + 100 + 200);
    expect(stack(s, BB)).toBe(bbBefore + 200);
    expect(chips(s)).toBe(total);
  });

  it('§5.3 — rules version 2: pot limit below the minimum raise: the small blind facing a short all-in big blind after the dealer folds has nobody to bet against (§5.2); where the cap is below the minimum, a raise to exactly the pot is allowed', () => {
    // Version 2 only: clarification 16 (version 3) offers no raise there (betting-nl.test.ts).
    let s = start({ mode: 'holdem', betting: 'potLimit' }, 3, 'seed-1', undefined, 2);
    const [, B1, D1] = order(s);
    s = foldOut(s);
    // The next hand's big blind is this hand's dealer: leave that player 3 chips.
    s = readyAll(setStacks(s, { [D1]: 3 }, B1));
    const [SB, BB, D] = order(s);
    expect(BB).toBe(D1);
    expect(s.hand!.players[BB].allIn).toBe(true);
    expect(s.hand!.betting!.currentBet).toBe(5);
    // The reproduction: D folds; SB (5 in) is the only one left able to act and has matched: no turn.
    const folded = act(s, D, { type: 'nl.fold' });
    expect(folded.hand!.phase).toBe('handEnd');
    expect(folded.hand!.board).toHaveLength(5);
    // Should a player ever face a pot limit below the minimum raise (pot 8, cap 5 + 8 = 13 < minimum 15),
    // the cap wins: the only raise is to exactly 13, and it reopens the betting.
    const crafted = structuredClone(s);
    crafted.hand!.players[D].folded = true;
    crafted.hand!.players[D].actedThisRound = true;
    crafted.hand!.betting!.toAct = SB;
    expect(legal(crafted, SB, 'nl.raise')).toEqual({ type: 'nl.raise', min: 13, max: 13, bet: false });
    expect(poker.apply(crafted, SB, { type: 'nl.raise', to: 12 }, 0).ok).toBe(false);
    expect(poker.apply(crafted, SB, { type: 'nl.raise', to: 14 }, 0).ok).toBe(false);
    expect(poker.apply(crafted, SB, { type: 'nl.raise', to: 13 }, s.hand!.deadlineAt! - 1).ok).toBe(true);
  });
});
