/**
 * 원카드 situations for the dev harness (`scenario=attack|pick|onecard|wild4|declare`):
 * rare in a random game but they must look right, so the state is rearranged
 * (still a valid engine state) and the engine computes the views.
 */
import type { GameStateBase, OneCardCard as Card, OneCardState } from '@joke/engine/client';

const std = (id: string, suit: 'S' | 'H' | 'D' | 'C', rank: number): Card => ({ id, kind: 'std', suit, rank });

/**
 * Situations that are rare in a random game but must look right: the state is
 * rearranged (still a valid engine state) and the engine computes the views.
 * Seat 0 is the viewer.
 */
const ONE_CARD: Record<string, (s: OneCardState, seats: string[]) => void> = {
  /** Under a stacked attack of 7 with counters in hand (§9 "N장 먹기", blockers highlighted). */
  attack(s, [me, b]) {
    s.current = me;
    s.discard = [std('x-top0', 'H', 6), std('x-top1', 'H', 2), std('x-top', 'C', 2)];
    s.pendingAttack = 7;
    s.hands[me] = [
      std('x1', 'D', 2),
      std('x2', 'H', 9),
      { id: 'x3', kind: 'joker', joker: 'color' },
      std('x4', 'C', 3),
      std('x5', 'S', 11),
      std('x6', 'D', 13),
      std('x7', 'S', 5),
    ];
    s.hands[b] = s.hands[b].slice(0, 1);
    s.oneCardWindow = { player: b, declared: true, openedSeq: s.seq };
    s.direction = -1;
  },
  /** Colour cards: a wild in hand opens the colour picker (§9 four big buttons). */
  pick(s, [me]) {
    s.current = me;
    s.discard = [{ id: 'x-top', kind: 'num', color: 'B', value: 5 }];
    s.declaredColor = null;
    s.hands[me] = [
      { id: 'x1', kind: 'wild' },
      { id: 'x2', kind: 'num', color: 'R', value: 7 },
      { id: 'x3', kind: 'skip', color: 'B' },
      { id: 'x4', kind: 'reverse', color: 'G' },
      { id: 'x5', kind: 'draw2', color: 'Y' },
      { id: 'x6', kind: 'wild4' },
      { id: 'x7', kind: 'num', color: 'B', value: 9 },
    ];
  },
  /** Someone else is down to one card and has not called it: the button shakes and catches. */
  onecard(s, [me, b, c]) {
    s.current = c ?? me;
    s.hands[b] = s.hands[b].slice(0, 1);
    s.oneCardWindow = { player: b, declared: false, openedSeq: s.seq };
  },
  /** A colour-card +4 was just played on us under the challenge rule: 의심하기 or 받아들이기. */
  wild4(s, [me, b]) {
    s.current = me;
    s.discard = [
      { id: 'x-top0', kind: 'num', color: 'R', value: 3 },
      { id: 'x-top', kind: 'wild4' },
    ];
    s.declaredColor = 'G';
    s.pendingAttack = 4;
    s.phase = {
      kind: 'wild4Response',
      by: b,
      target: me,
      prevColor: 'R',
      illegal: true,
      handAtPlay: s.hands[b].length,
    };
  },
  /** Two cards left, both playable: choosing one offers "원카드 외치며 내기". */
  declare(s, [me]) {
    s.current = me;
    s.discard = [std('x-top', 'H', 4)];
    s.declaredSuit = null;
    s.hands[me] = [std('x1', 'H', 8), std('x2', 'H', 10)];
  },
};

/** The same situations as `prepare` hooks of a GameLocalSource (seat 0 is the viewer). */
export const ONE_CARD_SCENARIOS: Record<string, (s: GameStateBase, seats: string[]) => void> = Object.fromEntries(
  Object.entries(ONE_CARD).map(([name, f]) => [
    name,
    (s: GameStateBase, seats: string[]) => f(s as OneCardState, seats),
  ]),
);
