/**
 * The end of a hand: the uncontested win (§5.1.6), the showdown with pot
 * distribution side pots first (§6.6), hi-lo halves and swings, the indian
 * tie carry-over and fold penalties, then the hand-end pause (§5.1.8).
 */
import type { PlayerId } from '../../core/types.ts';
import { deriveSeed } from '../../core/commit.ts';
import { type Ctx, live, log, P, S, seatOf } from './draft.ts';
import { settleRound } from './betting.ts';
import { split } from './pots.ts';
import { v2 } from './version.ts';
import { bestHigh, bestLowHand, holdemHand, omahaHand } from './eval/hands.ts';
import { badugiHand, badugiName } from './eval/badugi.ts';
import { indianName, indianScore } from './eval/indian.ts';
import type { Award, HandState, PokerState, Pot, PotResult, ShowdownEntry } from './types.ts';

interface Judged {
  entry: ShowdownEntry;
  high: number;
  /** Hi-lo low score, -1 for no (qualifying) low. */
  low: number;
}

function judge(s: PokerState, h: HandState, id: PlayerId): Judged {
  const p = h.players[id];
  const o = s.options;
  switch (o.mode) {
    case 'holdem':
    case 'omaha': {
      const r = o.mode === 'holdem' ? holdemHand(p.hole, h.board) : omahaHand(p.hole, h.board);
      return { entry: { id, cards: p.hole, best: r.best, handName: r.name }, high: r.score, low: -1 };
    }
    case 'sevenPoker':
    case 'sevenHiLo': {
      const cards = [...p.hole, ...p.up];
      const r = bestHigh(true, cards);
      const entry: ShowdownEntry = { id, cards, best: r.best, handName: r.name };
      if (o.mode === 'sevenPoker') return { entry, high: r.score, low: -1 };
      const low = bestLowHand(cards, o.hiLoLow, o.hiLoQualifier);
      entry.lowName = low ? low.name : '로우 없음';
      if (low) entry.low = low.best;
      if (p.declare) entry.declare = p.declare;
      return { entry, high: r.score, low: low ? low.score : -1 };
    }
    case 'fiveDraw': {
      const r = bestHigh(false, p.hole);
      return { entry: { id, cards: p.hole, best: r.best, handName: r.name }, high: r.score, low: -1 };
    }
    case 'badugi': {
      const b = badugiHand(p.hole.map((c) => c.id));
      const best = b.picked.map((i) => p.hole[i]);
      return { entry: { id, cards: p.hole, best, handName: badugiName(b) }, high: b.score, low: -1 };
    }
    case 'indian': {
      const cards = [p.forehead!, ...p.hole];
      return { entry: { id, cards, best: cards, handName: indianName(cards) }, high: indianScore(cards), low: -1 };
    }
  }
}

function topOf(ids: PlayerId[], score: (id: PlayerId) => number): PlayerId[] {
  let best = -Infinity;
  let out: PlayerId[] = [];
  for (const id of ids) {
    const v = score(id);
    if (v > best) {
      best = v;
      out = [id];
    } else if (v === best) out.push(id);
  }
  return best < 0 ? [] : out;
}

/** §6.6 hi-lo for one pot: successful swings scoop, else high and low halves (high gets the odd chip). */
function hiLoPot(pot: Pot, i: number, h: HandState, j: Map<PlayerId, Judged>): Award[] {
  const E = pot.eligible;
  const side = (id: PlayerId) => h.players[id].declare ?? 'high';
  const high = (id: PlayerId) => j.get(id)!.high;
  const low = (id: PlayerId) => j.get(id)!.low;
  for (const sId of E.filter((id) => side(id) === 'swing')) {
    const highRivals = E.filter((id) => id !== sId && side(id) !== 'low');
    const lowRivals = E.filter((id) => id !== sId && side(id) !== 'high');
    const winsHigh = highRivals.every((id) => high(sId) > high(id));
    const winsLow = low(sId) >= 0 && lowRivals.every((id) => low(sId) > low(id));
    if (winsHigh && winsLow) return [{ potIndex: i, to: sId, amount: pot.amount, side: 'scoop' }];
  }
  const highW = topOf(
    E.filter((id) => side(id) === 'high'),
    high,
  );
  const lowW = topOf(
    E.filter((id) => side(id) === 'low' && low(id) >= 0),
    low,
  );
  if (highW.length && lowW.length) {
    const hiPart = Math.ceil(pot.amount / 2);
    return [
      ...split(hiPart, highW, h.seatOrder).map((a) => ({ potIndex: i, ...a, side: 'high' as const })),
      ...split(pot.amount - hiPart, lowW, h.seatOrder).map((a) => ({ potIndex: i, ...a, side: 'low' as const })),
    ];
  }
  if (highW.length) return split(pot.amount, highW, h.seatOrder).map((a) => ({ potIndex: i, ...a, side: 'high' }));
  if (lowW.length) return split(pot.amount, lowW, h.seatOrder).map((a) => ({ potIndex: i, ...a, side: 'low' }));
  // Every swing failed and nobody else declared: the whole pot goes to the best high among all eligible.
  return split(pot.amount, topOf(E, high), h.seatOrder).map((a) => ({ potIndex: i, ...a, side: 'high' }));
}

interface Plan {
  awards: Award[];
  carry: number;
  carryFrom: PlayerId[];
}

function plan(s: PokerState, pots: Pot[], j: Map<PlayerId, Judged>, allowCarry: boolean): Plan {
  const h = s.hand!;
  const awards: Award[] = [];
  let carry = 0;
  let carryFrom: PlayerId[] = [];
  let mainWinners: PlayerId[] = [];
  for (let i = pots.length - 1; i >= 0; i--) {
    const pot = pots[i];
    if (pot.amount === 0) continue;
    // Version 2: every pot has an eligible player (returnUnwinnable, pots.ts); version 1 gave such a pot to everyone live.
    const E = pot.eligible.length || v2(s) ? pot.eligible : live(h).map((p) => p.id);
    let got: Award[];
    if (E.length === 1) got = [{ potIndex: i, to: E[0], amount: pot.amount, kind: 'return' }];
    else if (s.options.mode === 'sevenHiLo') got = hiLoPot(pot, i, h, j);
    else {
      const winners = topOf(E, (id) => j.get(id)!.high);
      if (winners.length > 1 && allowCarry) {
        carry += pot.amount;
        if (i === 0) carryFrom = winners;
        got = [];
      } else got = split(pot.amount, winners, h.seatOrder).map((a) => ({ potIndex: i, ...a }));
    }
    if (i === 0) mainWinners = [...new Set(got.map((a) => a.to))];
    awards.push(...got);
  }
  const penalty = h.penalties.reduce((t, p) => t + p.amount, 0);
  if (penalty > 0) {
    if (mainWinners.length === 0) carry += penalty;
    else
      awards.push(
        ...split(penalty, mainWinners, h.seatOrder).map((a) => ({ potIndex: 0, ...a, kind: 'penalty' as const })),
      );
  }
  if (carry > 0 && carryFrom.length === 0)
    carryFrom = topOf(
      live(h).map((p) => p.id),
      (id) => j.get(id)!.high,
    );
  return { awards, carry, carryFrom };
}

export function isLastHand(s: PokerState, handNo: number): boolean {
  if (s.options.endCondition === 'hands') return handNo >= s.options.handLimit;
  return handNo >= SAFETY_HANDS;
}

/** §6.7: a `lastStanding` game is scored like `hands` once this many hands are played. */
export const SAFETY_HANDS = 300;

export function resolveShowdown(ctx: Ctx): void {
  const s = ctx.s;
  const h = s.hand!;
  settleRound(ctx);
  const judged = new Map<PlayerId, Judged>();
  for (const p of live(h)) judged.set(p.id, judge(s, h, p.id));
  const pots = h.pots.map((p, i) => (i === 0 ? { ...p, amount: p.amount + s.carryOver } : p));
  const indianCarry = s.options.mode === 'indian' && s.options.indianTie === 'carry' && !isLastHand(s, h.handNo);
  let result = plan(s, pots, judged, indianCarry);
  if (result.carry > 0 && !canCarry(s, result.awards)) result = plan(s, pots, judged, false);
  s.carryOver = result.carry;
  s.carryFrom = result.carryFrom;
  if (result.carry > 0) ctx.ev.push({ type: 'carry', amount: result.carry, tied: result.carryFrom });
  const entries = [...judged.values()].map((x) => x.entry);
  const top = [...judged.entries()].reduce((a, b) => (b[1].high > a[1].high ? b : a));
  const st = s.stats;
  if (!st.bestHand || top[1].high > st.bestHand.score)
    s.stats = {
      ...st,
      bestHand: { playerId: top[0], handName: top[1].entry.handName, handNo: h.handNo, score: top[1].high },
    };
  h.phase = 'showdown';
  ctx.ev.push({ type: 'showdown', entries });
  enterHandEnd(ctx, result.awards, entries, pots);
}

/** Carrying a tie only makes sense if at least two players can play the next hand without it. */
function canCarry(s: PokerState, awards: Award[]): boolean {
  let n = 0;
  for (const seat of s.seats) {
    if (seat.status === 'eliminated' || seat.status === 'left') continue;
    const won = awards.filter((a) => a.to === seat.id).reduce((t, a) => t + a.amount, 0);
    if (seat.stack + won > 0) n++;
  }
  return n >= 2;
}

/** Everyone else folded: the last player takes every pot unseen (§5.1.6). */
export function endByFold(ctx: Ctx): void {
  const s = ctx.s;
  const h = s.hand!;
  settleRound(ctx);
  const winner = live(h)[0].id;
  const awards: Award[] = [];
  const pots = h.pots.map((pot, i) => (i === 0 ? { ...pot, amount: pot.amount + s.carryOver } : pot));
  pots.forEach((pot, i) => {
    if (pot.amount > 0) awards.push({ potIndex: i, to: winner, amount: pot.amount });
  });
  const penalty = h.penalties.reduce((t, p) => t + p.amount, 0);
  if (penalty > 0) awards.push({ potIndex: 0, to: winner, amount: penalty, kind: 'penalty' });
  s.carryOver = 0;
  s.carryFrom = [];
  enterHandEnd(ctx, awards, null, pots);
}

/** The auditable record of each pot (§5.5, §6.6), index for index with `Award.potIndex`: amount, who could win it, who took what. */
function potResultsOf(pots: Pot[], awards: Award[]): PotResult[] {
  const out: PotResult[] = [];
  pots.forEach((pot, i) => {
    const winners = awards
      .filter((a) => a.potIndex === i && a.kind !== 'penalty')
      .map((a) => (a.side ? { player: a.to, amount: a.amount, side: a.side } : { player: a.to, amount: a.amount }));
    out.push({ amount: pot.amount, eligible: pot.eligible, winners, carried: pot.amount > 0 && winners.length === 0 });
  });
  return out;
}

function enterHandEnd(ctx: Ctx, awards: Award[], showdown: ShowdownEntry[] | null, pots: Pot[]): void {
  const s = ctx.s;
  const h = s.hand!;
  for (const a of awards) S(ctx, a.to).stack += a.amount;
  const total = awards.reduce((t, a) => t + a.amount, 0);
  const winners = [...new Set(awards.filter((a) => a.kind !== 'return').map((a) => a.to))];
  if (total > s.stats.biggestPot.amount && winners.length > 0)
    s.stats = { ...s.stats, biggestPot: { handNo: h.handNo, amount: total, winners } };
  s.lastWinner = largestPotWinner(h, awards);
  h.awards = awards;
  h.potResults = potResultsOf(pots, awards);
  h.showdown = showdown;
  h.pots = [];
  h.penalties = [];
  h.betting = null;
  h.phase = 'handEnd';
  h.deadlineAt = ctx.now + HAND_END_MS;
  for (const id of h.seatOrder) {
    const ready = seatOf(s, id)!.status === 'left';
    if (h.players[id].ready !== ready) P(ctx, id).ready = ready;
  }
  s.handsPlayed = h.handNo;
  if (!h.shuffledIndianDeck) h.seedRevealed = deriveSeed(s.seed, `hand:${h.handNo}`);
  for (const a of awards)
    log(ctx, { player: a.to, text: a.kind === 'penalty' ? '벌칙 획득' : '획득', amount: a.amount });
  ctx.ev.push({
    type: 'handEnd',
    handNo: h.handNo,
    awards,
    pots: h.potResults,
    seed: h.seedRevealed,
    carryOver: s.carryOver,
  });
}

export const HAND_END_MS = 4000;

/** `dealerRule = winner`: who took the biggest pot; on a split the one nearest the dealer's left. */
function largestPotWinner(h: HandState, awards: Award[]): PlayerId | null {
  const byPot = new Map<number, number>();
  for (const a of awards) if (a.kind !== 'penalty') byPot.set(a.potIndex, (byPot.get(a.potIndex) ?? 0) + a.amount);
  let bestPot = -1;
  let bestAmount = 0;
  for (const [i, amount] of byPot) {
    if (amount > bestAmount) {
      bestAmount = amount;
      bestPot = i;
    }
  }
  if (bestPot < 0) return null;
  const ids = new Set(awards.filter((a) => a.potIndex === bestPot && a.kind !== 'penalty').map((a) => a.to));
  return h.seatOrder.find((id) => ids.has(id)) ?? null;
}
