/**
 * 한국식 판돈 베팅 (§5.2). Every amount is what leaves the stack now:
 * 삥 = baseUnit, 따당 = 2 × toCall, 쿼터/하프/풀 = toCall plus a quarter/half/
 * all of the pot after calling (at least baseUnit more). One raise (삥 counts)
 * per player per round, and nobody raises after checking or calling.
 */
import type { PlayerId } from '../../core/types.ts';
import { type Ctx, log, P, pay, potTotal, seatOf } from './draft.ts';
import { fold, toCallOf } from './betting.ts';
import { afterAction } from './flow.ts';
import { chargeFoldPenalty } from './flow-indian.ts';
import { R } from './reasons.ts';
import type { LegalAction, PokerState } from './types.ts';

export type KoreanType = 'k.check' | 'k.ping' | 'k.call' | 'k.ddadang' | 'k.quarter' | 'k.half' | 'k.full' | 'k.die';

export const KOREAN_LABEL: Record<KoreanType, string> = {
  'k.check': '체크',
  'k.ping': '삥',
  'k.call': '콜',
  'k.ddadang': '따당',
  'k.quarter': '쿼터',
  'k.half': '하프',
  'k.full': '풀',
  'k.die': '다이',
};

/** What the action would take from the stack before capping at the stack (all-in). */
export function koreanAmount(s: PokerState, id: PlayerId, type: KoreanType): number {
  const h = s.hand!;
  const p = h.players[id];
  const toCall = toCallOf(h, p);
  const pot = potTotal(s);
  const raiseBy = (extra: number) => toCall + Math.max(extra, s.baseUnit);
  switch (type) {
    case 'k.check':
    case 'k.die':
      return 0;
    case 'k.ping':
      return s.baseUnit;
    case 'k.call':
      return toCall;
    case 'k.ddadang':
      return 2 * toCall;
    case 'k.quarter':
      return raiseBy(Math.floor((pot + toCall) / 4));
    case 'k.half':
      return raiseBy(Math.floor((pot + toCall) / 2));
    case 'k.full':
      return raiseBy(pot + toCall);
  }
}

/** Why `type` is not allowed now for `id` (whose turn it is), or null. */
export function koreanProblem(s: PokerState, id: PlayerId, type: KoreanType): string | null {
  const h = s.hand!;
  const b = h.betting!;
  const p = h.players[id];
  const stack = seatOf(s, id)!.stack;
  const toCall = toCallOf(h, p);
  const canRaise = !p.raisedThisRound && !p.lockedFromRaise && stack > toCall;
  switch (type) {
    case 'k.die':
      return null;
    case 'k.check':
      // Toll-free only while nobody has bet; with blinds the unraised big blind may check too (clarification 10).
      return toCall === 0 ? null : R.cannotCheck;
    case 'k.ping':
      if (b.opened) return R.alreadyOpened;
      return canRaise ? null : R.noMoreRaise;
    case 'k.call':
      return toCall > 0 ? null : R.nothingToCall;
    case 'k.ddadang':
      if (toCall === 0) return R.nothingToCall;
      return canRaise ? null : R.noMoreRaise;
    case 'k.full':
      if (s.options.koreanMaxRaise !== 'full') return R.fullNotAllowed;
      return canRaise ? null : R.noMoreRaise;
    case 'k.quarter':
    case 'k.half':
      return canRaise ? null : R.noMoreRaise;
  }
}

const ORDER: KoreanType[] = ['k.die', 'k.check', 'k.ping', 'k.call', 'k.ddadang', 'k.quarter', 'k.half', 'k.full'];

export function koreanLegal(s: PokerState, id: PlayerId): LegalAction[] {
  const stack = seatOf(s, id)!.stack;
  const out: LegalAction[] = [];
  for (const type of ORDER) {
    if (koreanProblem(s, id, type) !== null) continue;
    const amount = Math.min(koreanAmount(s, id, type), stack);
    out.push({ type, amount, allIn: amount > 0 && amount === stack });
  }
  return out;
}

export function applyKorean(ctx: Ctx, id: PlayerId, type: KoreanType): void {
  const s = ctx.s;
  const h = s.hand!;
  const b = h.betting!;
  if (type === 'k.die') {
    fold(ctx, id, KOREAN_LABEL[type]);
    chargeFoldPenalty(ctx, id);
    ctx.ev.push({ type: 'action', player: id, action: type, amount: 0 });
    log(ctx, { player: id, text: '다이' });
    return afterAction(ctx, id);
  }
  const paid = pay(ctx, id, koreanAmount(s, id, type));
  const p = P(ctx, id);
  p.actedThisRound = true;
  if (type === 'k.check' || type === 'k.call') p.lockedFromRaise = true;
  else {
    p.raisedThisRound = true;
    b.opened = true;
  }
  if (p.committedRound > b.currentBet) b.currentBet = p.committedRound;
  const label = p.allIn ? `${KOREAN_LABEL[type]}(올인)` : KOREAN_LABEL[type];
  p.lastAction = label;
  ctx.ev.push({ type: 'action', player: id, action: type, amount: paid, allIn: p.allIn });
  log(ctx, { player: id, text: label, amount: paid });
  afterAction(ctx, id);
}
