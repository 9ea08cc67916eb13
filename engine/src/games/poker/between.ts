/**
 * Between hands: busting, rebuys and elimination (§5.6), blind/ante increases
 * (§5.7), the end of the game (§6.7), and players leaving (§5.8).
 */
import type { PlayerId } from '../../core/types.ts';
import { type Ctx, log, S, seatOf } from './draft.ts';
import { startHand } from './setup.ts';
import { SAFETY_HANDS } from './showdown.ts';
import { split } from './pots.ts';
import type { PokerState, SeatState } from './types.ts';

export const REBUY_MS = 15_000;

function hasChips(seat: SeatState): boolean {
  return seat.stack > 0 && (seat.status === 'playing' || seat.status === 'left');
}

/** Everyone pressed 다음 판 (or the pause ran out). */
export function afterHand(ctx: Ctx): void {
  const s = ctx.s;
  const h = s.hand!;
  const o = s.options;
  if (o.blindUpEvery > 0 && s.handsPlayed % o.blindUpEvery === 0) {
    const next = Math.min(s.baseUnit * 2, Math.floor(o.startingChips / 5));
    if (next > s.baseUnit) {
      s.baseUnit = next;
      ctx.ev.push({ type: 'blindUp', baseUnit: next });
      log(ctx, { player: null, text: '기본 단위 상승', amount: next });
    }
  }
  const lastHand = o.endCondition === 'hands' && s.handsPlayed >= o.handLimit;
  const out: PlayerId[] = [];
  const pending: PlayerId[] = [];
  for (const seen of s.seats) {
    if (!h.seatOrder.includes(seen.id) || seen.stack > 0) continue;
    const seat = S(ctx, seen.id);
    if (seat.status === 'playing') seat.status = 'busted';
    const rebuysLeft = o.rebuy === 'unlimited' || (o.rebuy === 'limited' && seat.rebuys < o.rebuyLimit);
    if (seat.status === 'busted' && rebuysLeft && !lastHand) pending.push(seat.id);
    else if (!lastHand || seat.status === 'left') out.push(seat.id);
  }
  eliminate(ctx, out);
  if (pending.length > 0) {
    s.phase = 'rebuy';
    s.rebuyPending = pending;
    s.rebuyDeadlineAt = ctx.now + REBUY_MS;
    ctx.ev.push({ type: 'rebuyAsk', players: pending });
    return;
  }
  continueOrFinish(ctx);
}

function eliminate(ctx: Ctx, ids: PlayerId[]): void {
  if (ids.length === 0) return;
  const s = ctx.s;
  const handNo = s.hand!.handNo;
  for (const id of ids) {
    const seat = S(ctx, id);
    seat.status = 'eliminated';
    seat.eliminatedAtHand = handNo;
  }
  // One group per hand: players out in the same hand are ranked by their chips at its start (§6.7).
  const seq = s.eliminationSeq;
  const lastGroup = seq[seq.length - 1];
  const sameHand = lastGroup && seatOf(s, lastGroup[0])!.eliminatedAtHand === handNo;
  s.eliminationSeq = sameHand ? [...seq.slice(0, -1), [...lastGroup, ...ids]] : [...seq, ids];
  ctx.ev.push({ type: 'eliminated', players: ids });
  for (const id of ids) log(ctx, { player: id, text: '탈락' });
}

/** A busted player's answer (or the 15-second timeout, which declines). */
export function decideRebuy(ctx: Ctx, id: PlayerId, accept: boolean): void {
  const s = ctx.s;
  const seat = S(ctx, id);
  s.rebuyPending = s.rebuyPending.filter((x) => x !== id);
  if (accept && seat.status === 'busted') {
    seat.stack = s.options.startingChips;
    seat.rebuys += 1;
    seat.status = 'playing';
    ctx.ev.push({ type: 'rebuy', player: id, accept: true });
    log(ctx, { player: id, text: '리바이', amount: seat.stack });
  } else {
    ctx.ev.push({ type: 'rebuy', player: id, accept: false });
    eliminate(ctx, [id]);
  }
  if (s.rebuyPending.length === 0) {
    s.phase = 'playing';
    s.rebuyDeadlineAt = null;
    continueOrFinish(ctx);
  }
}

function continueOrFinish(ctx: Ctx): void {
  const s = ctx.s;
  const o = s.options;
  const withChips = s.seats.filter(hasChips);
  const connected = withChips.filter((x) => x.status === 'playing');
  if (o.endCondition === 'hands' && s.handsPlayed >= o.handLimit) return finish(ctx, 'hands');
  if (connected.length <= 1)
    return finish(ctx, o.endCondition === 'lastStanding' && withChips.length <= 1 ? 'lastStanding' : 'left');
  if (o.endCondition === 'lastStanding' && s.handsPlayed >= SAFETY_HANDS) return finish(ctx, 'safetyCap');
  startHand(ctx);
}

export function finish(ctx: Ctx, reason: NonNullable<PokerState['endReason']>): void {
  const s = ctx.s;
  if (s.carryOver > 0) {
    // Nobody won the carried pot before the end: the players who tied for it split it.
    const from = s.carryFrom.length ? s.carryFrom : s.seats.filter(hasChips).map((x) => x.id);
    const order = s.seats.map((x) => x.id);
    for (const a of split(s.carryOver, from, order)) S(ctx, a.to).stack += a.amount;
    ctx.ev.push({ type: 'carrySplit', amount: s.carryOver, players: from });
    s.carryOver = 0;
    s.carryFrom = [];
  }
  const zero = s.seats.filter((x) => x.stack === 0 && x.status !== 'eliminated').map((x) => x.id);
  if (zero.length && s.hand) eliminate(ctx, zero);
  s.phase = 'finished';
  s.rebuyPending = [];
  s.rebuyDeadlineAt = null;
  s.endReason = reason;
  if (s.hand) s.hand = { ...s.hand, deadlineAt: null };
  ctx.ev.push({ type: 'gameEnd', reason });
}
