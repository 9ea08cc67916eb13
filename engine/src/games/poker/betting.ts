/**
 * What both betting styles share (§5.2, §5.3): who acts first (the 7-poker
 * boss included), who still owes an action, when a round is over, and
 * settling the round into pots. What comes after a round is flow.ts's: this
 * module never moves the hand on, so flow.ts can depend on it alone.
 */
import type { PlayerId } from '../../core/types.ts';
import { seatsFrom } from '../../core/turn-ring.ts';
import { type Ctx, P, turnMs } from './draft.ts';
import { computePots, refundUncalled, returnUnwinnable } from './pots.ts';
import { scoreOf } from './eval/hands.ts';
import { usesBlinds } from './options.ts';
import { v2, v3 } from './version.ts';
import type { Card, HandPlayer, HandState, PokerState } from './types.ts';

export function needsToAct(p: HandPlayer, currentBet: number): boolean {
  return !p.folded && !p.allIn && (!p.actedThisRound || p.committedRound < currentBet);
}

export function toCallOf(h: HandState, p: HandPlayer): number {
  return Math.max(0, (h.betting?.currentBet ?? 0) - p.committedRound);
}

/** The player who acts first this street, before skipping anyone who cannot act. */
function firstActor(s: PokerState, street: number): PlayerId {
  const h = s.hand!;
  const mode = s.options.mode;
  if (usesBlinds(mode) && street === 0 && h.bbSeat !== null) {
    // Pre-flop: the seat after the big blind (heads-up that is the dealer, who is the small blind).
    const bbId = s.seats[h.bbSeat].id;
    const i = h.seatOrder.indexOf(bbId);
    return h.seatOrder[(i + 1) % h.seatOrder.length];
  }
  if (mode === 'sevenPoker' || mode === 'sevenHiLo') return h.boss ?? h.seatOrder[0];
  // Everyone else starts at the dealer's next seat (heads-up hold'em: the big blind after the flop).
  return h.seatOrder[0];
}

/** Opens betting round `street`. Returns false when nobody needs to bet (the street is only dealt). */
export function startRound(ctx: Ctx, street: number): boolean {
  const s = ctx.s;
  const h = s.hand!;
  h.street = street;
  if (s.options.mode === 'sevenPoker' || s.options.mode === 'sevenHiLo') h.boss = bossOf(h);
  let currentBet = 0;
  for (const id of h.seatOrder) {
    const p = h.players[id];
    if (p.actedThisRound || p.raisedThisRound || p.lockedFromRaise) {
      const w = P(ctx, id);
      w.actedThisRound = false;
      w.raisedThisRound = false;
      w.lockedFromRaise = false;
    }
    if (p.committedRound > currentBet) currentBet = p.committedRound;
  }
  // One round of this hand's seat order from the first actor, without those who folded (core/turn-ring.ts).
  const ring = { seats: h.seatOrder, isIn: (id: PlayerId) => !h.players[id].folded };
  const order = seatsFrom(ring, h.seatOrder.indexOf(firstActor(s, street))).map((i) => h.seatOrder[i]);
  h.betting = {
    street,
    order,
    toAct: null,
    currentBet,
    lastRaiseSize: s.baseUnit,
    // Clarification 10: Korean betting over blinds treats the blinds as the opening bet.
    opened: currentBet > 0,
  };
  if (nobodyLeftToBet(h, currentBet)) {
    h.betting = null;
    return false;
  }
  const first = order.find((id) => needsToAct(h.players[id], currentBet))!;
  h.betting.toAct = first;
  h.phase = 'betting';
  h.deadlineAt = ctx.now + turnMs(s, first);
  return true;
}

/**
 * §5.2 round end, applied after every action (not only when a round opens):
 * when at most one player can still act and that player has matched
 * `currentBet`, nobody is left to bet against, so the round is over.
 */
export function nobodyLeftToBet(h: HandState, currentBet: number): boolean {
  let able: HandPlayer | null = null;
  for (const id of h.betting?.order ?? h.seatOrder) {
    const p = h.players[id];
    if (p.folded || p.allIn) continue;
    if (able !== null) return false;
    able = p;
  }
  return able === null || able.committedRound >= currentBet;
}

/** Moves the round's bets into pots (also for a street nobody could bet on, e.g. a short blind). */
export function settleRound(ctx: Ctx): void {
  const h = ctx.s.hand!;
  refundUncalled(ctx);
  // Version 2 gave folded players back their chips above every live contribution; version 3 never returns
  // a folded player's chips (clarification 17): that pot goes into the one below it, as version 1 did.
  const returnsFolded = v2(ctx.s) && !v3(ctx.s);
  if (returnsFolded) returnUnwinnable(ctx);
  for (const id of h.seatOrder) if (h.players[id].committedRound !== 0) P(ctx, id).committedRound = 0;
  h.pots = computePots(h, !returnsFolded, v3(ctx.s));
  h.betting = null;
}

/** Folds `id` (die/fold/timeout, and a leave before rules version 3); the indian fold penalty is charged by the caller's rules. */
export function fold(ctx: Ctx, id: PlayerId, label: string): void {
  const h = ctx.s.hand!;
  const p = P(ctx, id);
  p.folded = true;
  p.actedThisRound = true;
  p.lastAction = label;
  // Their chips stay in the pots; they just stop being able to win them.
  h.pots = h.pots.map((pot) =>
    pot.eligible.includes(id) ? { ...pot, eligible: pot.eligible.filter((x) => x !== id) } : pot,
  );
}

/**
 * The boss acts first: best open cards, judged only as pairs/two pair/trips/
 * quads/top with the Korean suit order (one deck, so never a tie). Folded
 * players keep their open cards on the table but are not candidates.
 */
export function bossOf(h: HandState): PlayerId | null {
  let best: PlayerId | null = null;
  let bestScore = -1;
  for (const id of h.seatOrder) {
    const p = h.players[id];
    if (p.folded || p.up.length === 0) continue;
    const score = openScore(p.up);
    if (score > bestScore) {
      bestScore = score;
      best = id;
    }
  }
  return best;
}

/** Open-card strength: at most four cards, so straights and flushes cannot appear. */
export function openScore(up: readonly Card[]): number {
  return scoreOf(true, up);
}
