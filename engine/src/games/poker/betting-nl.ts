/**
 * 노리밋 / 팟리밋 (§5.3). A raise names its total for the round (`to`). The
 * minimum raise adds the last full raise (never less than baseUnit,
 * clarification 13); an all-in short of that is incomplete and does not
 * reopen betting for anyone who has already acted and not since faced a full
 * raise (clarification 9). Pot limit caps `to` at currentBet + pot + toCall,
 * the pot counting every chip in the middle (clarification 11). When that cap
 * lies below the minimum raise, rules version 2 allowed a raise to exactly the
 * cap; version 3 offers no raise at all (clarification 16: call or fold).
 */
import type { PlayerId } from '../../core/types.ts';
import { type Ctx, log, P, pay, potTotal, seatOf } from './draft.ts';
import { fold, toCallOf } from './betting.ts';
import { afterAction } from './flow.ts';
import { chargeFoldPenalty } from './flow-indian.ts';
import { R } from './reasons.ts';
import { v2, v3 } from './version.ts';
import type { LegalAction, PokerAction, PokerState } from './types.ts';

export type NlAction = Extract<PokerAction, { type: `nl.${string}` }>;

export interface NlLimits {
  toCall: number;
  /** Smallest legal raise-to (ignoring the all-in exception). */
  minTo: number;
  /** Largest raise-to: the whole stack, or the pot limit. */
  maxTo: number;
  /** committedRound + stack. */
  allInTo: number;
  /** Pot-limit cap on raise-to (Infinity in no-limit). */
  capTo: number;
  canRaise: boolean;
  /** Clarification 16 (version 3): the pot-limit cap is below the minimum raise, so no raise is offered. */
  capBelowMin: boolean;
}

export function nlLimits(s: PokerState, id: PlayerId): NlLimits {
  const h = s.hand!;
  const b = h.betting!;
  const p = h.players[id];
  const stack = seatOf(s, id)!.stack;
  const toCall = toCallOf(h, p);
  const allInTo = p.committedRound + stack;
  const capTo = s.betting === 'potLimit' ? b.currentBet + potTotal(s) + toCall : Infinity;
  const fullTo = b.currentBet + Math.max(b.lastRaiseSize, s.baseUnit);
  // A pot limit below the minimum raise (a short all-in blind makes a tiny pot): version 2 let the cap win
  // (a raise to exactly the pot, counted as full); version 3 follows clarification 16 — no raise at all.
  const capBelowMin = v3(s) && capTo < fullTo;
  const minTo = v2(s) && !v3(s) ? Math.min(fullTo, capTo) : fullTo;
  const maxTo = Math.min(allInTo, capTo);
  const canRaise = !p.lockedFromRaise && !capBelowMin && maxTo > b.currentBet;
  return { toCall, minTo, maxTo, allInTo, capTo, canRaise, capBelowMin };
}

export function nlProblem(s: PokerState, id: PlayerId, a: NlAction): string | null {
  const L = nlLimits(s, id);
  switch (a.type) {
    case 'nl.fold':
      return null;
    case 'nl.check':
      return L.toCall === 0 ? null : R.cannotCheck;
    case 'nl.call':
      return L.toCall > 0 ? null : R.nothingToCall;
    case 'nl.allIn':
      if (L.allInTo <= s.hand!.betting!.currentBet) return null; // an all-in call
      // Clarification 16: an all-in above the bet is a raise, and under a cap below the minimum none fits.
      if (L.capBelowMin) return R.capBelowMinRaise(L.capTo, L.minTo);
      if (!L.canRaise) return R.noMoreRaise;
      // Clarification 12: the all-in total is what must fit under the pot limit.
      return L.allInTo > L.capTo ? R.potLimitAllIn(L.capTo) : null;
    case 'nl.raise': {
      const to = a.to;
      if (L.capBelowMin) return R.capBelowMinRaise(L.capTo, L.minTo);
      if (!L.canRaise) return R.noMoreRaise;
      if (to <= s.hand!.betting!.currentBet) return R.raiseAboveBet;
      if (to > L.maxTo) return R.maxRaise(L.maxTo);
      if (to < L.minTo && to !== L.allInTo) return R.minRaise(Math.min(L.minTo, L.maxTo));
      return null;
    }
  }
}

export function nlLegal(s: PokerState, id: PlayerId): LegalAction[] {
  const L = nlLimits(s, id);
  const b = s.hand!.betting!;
  const stack = seatOf(s, id)!.stack;
  const out: LegalAction[] = [{ type: 'nl.fold', amount: 0, allIn: false }];
  if (L.toCall === 0) out.push({ type: 'nl.check', amount: 0, allIn: false });
  else {
    const amount = Math.min(L.toCall, stack);
    out.push({ type: 'nl.call', amount, allIn: amount === stack });
  }
  if (L.canRaise) {
    const min = L.minTo <= L.maxTo ? L.minTo : L.maxTo === L.allInTo ? L.allInTo : L.maxTo;
    if (nlProblem(s, id, { type: 'nl.raise', to: min }) === null)
      out.push({ type: 'nl.raise', min, max: L.maxTo, bet: b.currentBet === 0 });
  }
  if (stack > 0 && L.toCall < stack && nlProblem(s, id, { type: 'nl.allIn' }) === null)
    out.push({ type: 'nl.allIn', amount: stack, to: L.allInTo });
  return out;
}

export function applyNl(ctx: Ctx, id: PlayerId, a: NlAction): void {
  const s = ctx.s;
  const h = s.hand!;
  const b = h.betting!;
  const p = P(ctx, id);
  if (a.type === 'nl.fold') {
    fold(ctx, id, '폴드');
    chargeFoldPenalty(ctx, id);
    ctx.ev.push({ type: 'action', player: id, action: a.type, amount: 0 });
    log(ctx, { player: id, text: '폴드' });
    return afterAction(ctx, id);
  }
  let label: string;
  let paid: number;
  let logged: number | undefined;
  if (
    a.type === 'nl.check' ||
    a.type === 'nl.call' ||
    (a.type === 'nl.allIn' && nlLimits(s, id).allInTo <= b.currentBet)
  ) {
    paid = pay(ctx, id, toCallOf(h, p));
    label = a.type === 'nl.check' ? '체크' : '콜';
  } else {
    const to = a.type === 'nl.raise' ? a.to : p.committedRound + seatOf(s, id)!.stack;
    const wasBet = b.currentBet === 0;
    const raiseSize = to - b.currentBet;
    const capTo = nlLimits(s, id).capTo;
    paid = pay(ctx, id, to - p.committedRound);
    const full = raiseSize >= Math.max(b.lastRaiseSize, s.baseUnit);
    if (full || (to === capTo && v2(s) && !v3(s))) {
      // A full raise reopens the betting for everyone else; so does a raise to a pot
      // limit that lies below the minimum raise (it is the largest raise the pot allows).
      // lastRaiseSize only grows with a full raise.
      if (full) b.lastRaiseSize = raiseSize;
      for (const other of h.seatOrder)
        if (other !== id && h.players[other].lockedFromRaise) P(ctx, other).lockedFromRaise = false;
    }
    b.currentBet = to;
    b.opened = true;
    p.raisedThisRound = true;
    label = wasBet ? '벳' : '레이즈';
    // A bet or raise is logged as its raise-to total, the figure its button showed (issue 15: the log
    // said "레이즈 20" where the button had said "레이즈 확인 (30)"); check and call log what they paid.
    logged = p.committedRound;
  }
  p.actedThisRound = true;
  p.lockedFromRaise = true;
  if (p.allIn) label = `${label}(올인)`;
  p.lastAction = label;
  ctx.ev.push({ type: 'action', player: id, action: a.type, amount: paid, allIn: p.allIn, to: p.committedRound });
  log(ctx, { player: id, text: label, amount: logged ?? paid });
  afterAction(ctx, id);
}
