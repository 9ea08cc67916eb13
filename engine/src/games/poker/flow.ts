/**
 * The hand as a script per mode (§5.4): a list of steps run in order. Deals
 * run straight through; betting rounds, the 7-poker choice, draws and the
 * hi-lo declaration wait for players. A street nobody can bet on (everyone
 * all-in) is dealt without betting, as §5.2 asks. This module drives the
 * hand on (after an action, after a round); betting.ts only answers questions
 * about a round and settles it, so the two do not import each other.
 */
import type { Card } from './types.ts';
import type { PlayerId } from '../../core/types.ts';
import { nextInRing } from '../../core/turn-ring.ts';
import { type Ctx, liveCount, P, simultaneousMs, turnMs } from './draft.ts';
import { v2 } from './version.ts';
import { needsToAct, nobodyLeftToBet, settleRound, startRound } from './betting.ts';
import { endByFold, resolveShowdown } from './showdown.ts';
import { dealIndianHole } from './flow-indian.ts';
import type { PokerState } from './types.ts';

export type Step =
  'bet' | 'flop' | 'turn' | 'river' | 'up' | 'down' | 'indianHole' | 'choice' | 'draw' | 'declare' | 'showdown';

const BOARD: Step[] = ['bet', 'flop', 'bet', 'turn', 'bet', 'river', 'bet', 'showdown'];
const SEVEN: Step[] = ['choice', 'up', 'bet', 'up', 'bet', 'up', 'bet', 'down', 'bet', 'showdown'];
const HILO: Step[] = ['choice', 'up', 'bet', 'up', 'bet', 'up', 'bet', 'down', 'bet', 'declare', 'showdown'];
const BADUGI: Step[] = ['bet', 'draw', 'bet', 'draw', 'bet', 'draw', 'bet', 'showdown'];
const FIVE_DRAW: Step[] = ['bet', 'draw', 'bet', 'showdown'];
const INDIAN1: Step[] = ['bet', 'showdown'];
const INDIAN2: Step[] = ['bet', 'indianHole', 'bet', 'showdown'];

export function scriptOf(s: PokerState): Step[] {
  switch (s.options.mode) {
    case 'holdem':
    case 'omaha':
      return BOARD;
    case 'sevenPoker':
      return SEVEN;
    case 'sevenHiLo':
      return HILO;
    case 'badugi':
      return BADUGI;
    case 'fiveDraw':
      return FIVE_DRAW;
    case 'indian':
      return s.options.indianCards === 2 ? INDIAN2 : INDIAN1;
  }
}

/** Number of betting rounds before `step` in the script: the street index of a 'bet' step. */
function streetAt(script: Step[], step: number): number {
  let n = 0;
  for (let i = 0; i < step; i++) if (script[i] === 'bet') n++;
  return n;
}

/** Takes `n` cards off the top of the hand's deck. */
export function take(ctx: Ctx, n: number): Card[] {
  const h = ctx.s.hand!;
  const cards = h.deck.slice(0, n);
  h.deck = h.deck.slice(n);
  return cards;
}

function dealBoard(ctx: Ctx, n: number): void {
  const h = ctx.s.hand!;
  const [burn, ...cards] = take(ctx, n + 1);
  h.muck = [...h.muck, burn];
  h.board = [...h.board, ...cards];
  ctx.ev.push({ type: 'board', cards });
}

/** One card to every live player from the dealer's next seat: face up (7-poker 4th–6th) or down (7th). */
function dealEach(ctx: Ctx, faceUp: boolean): void {
  const h = ctx.s.hand!;
  for (const id of h.seatOrder) {
    if (h.players[id].folded) continue;
    const p = P(ctx, id);
    const [card] = take(ctx, 1);
    if (faceUp) {
      p.up = [...p.up, card];
      ctx.ev.push({ type: 'dealt', to: id, count: 1, faceUp: card });
    } else {
      p.hole = [...p.hole, card];
      ctx.ev.push({ type: 'dealt', to: id, count: 1 });
    }
  }
}

export function advance(ctx: Ctx): void {
  const s = ctx.s;
  const h = s.hand!;
  const script = scriptOf(s);
  for (;;) {
    if (liveCount(h) <= 1) return endByFold(ctx);
    h.step++;
    switch (script[h.step]) {
      case 'bet':
        if (startRound(ctx, streetAt(script, h.step))) return;
        settleRound(ctx);
        break;
      case 'flop':
        dealBoard(ctx, 3);
        break;
      case 'turn':
      case 'river':
        dealBoard(ctx, 1);
        break;
      case 'up':
        dealEach(ctx, true);
        break;
      case 'down':
        dealEach(ctx, false);
        break;
      case 'indianHole':
        dealIndianHole(ctx);
        break;
      case 'choice':
      case 'draw':
      case 'declare':
        h.phase = script[h.step] as 'choice' | 'draw' | 'declare';
        h.betting = null;
        h.deadlineAt = ctx.now + simultaneousMs(s);
        ctx.ev.push({ type: 'phase', phase: h.phase });
        return;
      case 'showdown':
        return resolveShowdown(ctx);
    }
  }
}

/** After `from` acted (or left): the next player owing an action, or the end of the round / hand. */
export function afterAction(ctx: Ctx, from: PlayerId): void {
  const h = ctx.s.hand!;
  if (liveCount(h) <= 1) return endByFold(ctx);
  const b = h.betting!;
  if (v2(ctx.s) && nobodyLeftToBet(h, b.currentBet)) return finishRound(ctx);
  // `from` itself comes last (it may owe a call after everyone else raised); -1 when it left the order.
  const next = nextInRing(
    { seats: b.order, isIn: (id) => needsToAct(h.players[id], b.currentBet) },
    b.order.indexOf(from),
  );
  if (next < 0) return finishRound(ctx);
  const id = b.order[next];
  b.toAct = id;
  h.deadlineAt = ctx.now + turnMs(ctx.s, id);
}

/** Round over: return the uncalled part, rebuild pots, clear the round's bets, go on with the script. */
export function finishRound(ctx: Ctx): void {
  settleRound(ctx);
  const h = ctx.s.hand!;
  ctx.ev.push({ type: 'roundEnd', street: h.street, pots: h.pots });
  advance(ctx);
}
