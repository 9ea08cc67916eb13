/**
 * Side pots (§5.5) and splitting chips (§6.1 odd chips). Pots are always
 * rebuilt from each player's total contribution, so there is one source of
 * truth and no incremental bookkeeping to drift.
 */
import type { PlayerId } from '../../core/types.ts';
import type { Ctx } from './draft.ts';
import { P, S } from './draft.ts';
import type { HandState, Pot } from './types.ts';

/**
 * The part of the top contribution nobody else matched goes back to its owner
 * (§5.5: "C가 처음 500을 걸었다면 … 200은 C에게 돌려준다"). Done at the end of each round.
 */
export function refundUncalled(ctx: Ctx): void {
  const h = ctx.s.hand!;
  let top: PlayerId | null = null;
  let max = -1;
  let second = -1;
  for (const id of h.seatOrder) {
    const t = h.players[id].committedTotal;
    if (t > max) {
      second = max;
      max = t;
      top = id;
    } else if (t > second) second = t;
  }
  if (top === null || second < 0 || max <= second) return;
  const back = Math.min(max - second, h.players[top].committedRound);
  if (back <= 0) return;
  const p = P(ctx, top);
  p.committedTotal -= back;
  p.committedRound -= back;
  const seat = S(ctx, top);
  seat.stack += back;
  if (seat.stack > 0) p.allIn = false;
  ctx.ev.push({ type: 'returned', player: top, amount: back });
}

/**
 * Rules version 2 only: chips above the largest contribution of a player
 * still in the hand can be won by nobody (no live player put that much in),
 * so each player got back their own part above that line — folded players
 * included. Clarification 17 (version 3) overrules it: a folded player's
 * chips are never returned, and that top pot is merged into the pot below
 * (`computePots` with `mergeUnclaimed`), as version 1 did.
 */
export function returnUnwinnable(ctx: Ctx): void {
  const h = ctx.s.hand!;
  let line = 0;
  for (const id of h.seatOrder) if (!h.players[id].folded) line = Math.max(line, h.players[id].committedTotal);
  for (const id of h.seatOrder) {
    const back = h.players[id].committedTotal - line;
    if (back <= 0) continue;
    const p = P(ctx, id);
    p.committedTotal -= back;
    p.committedRound = Math.max(0, p.committedRound - back);
    S(ctx, id).stack += back;
    ctx.ev.push({ type: 'returned', player: id, amount: back });
  }
}

/**
 * Pots from the settled part of each contribution (total minus this round's
 * bets): one level per distinct all-in amount of a live player, then the rest.
 * Folded players' chips stay in the level they reached; they are never eligible.
 * Only the top level can lack an eligible player (every lower level is some live
 * player's all-in): version 2 returns it first (`returnUnwinnable`); versions 1
 * and 3 add it to the pot below, which goes to that pot's winner (clarification 17).
 * With no pot below (`liveTakeBottom`, version 3) the live players are its eligible ones.
 */
export function computePots(h: HandState, mergeUnclaimed = false, liveTakeBottom = false): Pot[] {
  const ids = h.seatOrder;
  const settled = ids.map((id) => h.players[id].committedTotal - h.players[id].committedRound);
  const levels = [
    ...new Set(
      ids.flatMap((id, i) => (h.players[id].allIn && !h.players[id].folded ? [settled[i]] : [])).filter((v) => v > 0),
    ),
  ].sort((a, b) => a - b);
  const pots: Pot[] = [];
  let floor = 0;
  for (const level of [...levels, Infinity]) {
    let amount = 0;
    const eligible: PlayerId[] = [];
    ids.forEach((id, i) => {
      const c = settled[i];
      if (c > floor) amount += Math.min(c, level) - floor;
      const p = h.players[id];
      if (!p.folded && c >= level) eligible.push(id);
      if (level === Infinity && !p.folded && !p.allIn && c > floor) eligible.push(id);
    });
    if (amount > 0 || pots.length === 0) {
      // A level nobody live reached joins the pot below (versions 1 and 3; version 2 returned it first).
      if (mergeUnclaimed && eligible.length === 0 && pots.length > 0) pots[pots.length - 1].amount += amount;
      else if (liveTakeBottom && eligible.length === 0 && amount > 0)
        // Nothing below it: folded players' chips only (say the blinds of players who left) and live players
        // who have put nothing in yet. They are the ones who can take it, so version 3 records them.
        pots.push({ amount, eligible: ids.filter((id) => !h.players[id].folded) });
      else pots.push({ amount, eligible });
    }
    if (level === Infinity) break;
    floor = level;
  }
  return pots;
}

/**
 * Splits `amount` among `winners`; odd chips go one by one to the winners
 * nearest the dealer's left (`order` starts at the dealer's next seat).
 */
export function split(amount: number, winners: PlayerId[], order: PlayerId[]): { to: PlayerId; amount: number }[] {
  const sorted = order.filter((id) => winners.includes(id));
  const each = Math.floor(amount / sorted.length);
  let odd = amount - each * sorted.length;
  return sorted.map((to) => {
    const extra = odd > 0 ? 1 : 0;
    odd -= extra;
    return { to, amount: each + extra };
  });
}
