/**
 * Clocks and automatic actions (docs/games/hula.md §8.5–8.6): per-phase
 * timeouts, the race window, the 60 s watchdog, the timeout count that
 * reserves a leave, and the AI substitute for a disconnected player.
 */
import type { ApplyResult, PlayerId } from '../../core/types.ts';
import type { HulaEvent } from './events.ts';
import { COMMON_REASONS, reject } from '../../core/reject.ts';
import { SUITS } from '../../core/cards.ts';
import { patchAt } from '../../core/cow.ts';
import { beginTurn, seatAfter, startRoundFrom, type Step } from './flow.ts';
import { isJoker } from './melds.ts';
import { discard, draw, seatOf } from './rules.ts';
import { HAND_LIMIT } from './setup.ts';
import { advanceAsk, resolveRace } from './thank-you.ts';
import { GRACE_MS, LEAVE_AFTER_DISCONNECT_MS, SUBSTITUTE_DELAY_MS, TIMERS, WATCHDOG_MS } from './timers.ts';
import type { Card, HulaAction, HulaState } from './types.ts';
import { view } from './view.ts';

type R = ApplyResult<HulaState, HulaEvent>;

export function deadline(s: HulaState): number | null {
  const p = s.phase;
  if (p.kind === 'finished') return null;
  let d = Math.min(p.deadline + GRACE_MS, s.turnStartedAt + WATCHDOG_MS);
  if (p.kind === 'thankYouRace' && p.windowEnd !== null) d = Math.min(d, p.windowEnd);
  return d;
}

/** §8.5: the highest-scoring card (A=1 … K=13); never a joker unless only jokers are left; ties by ♠♥♦♣. */
export function autoDiscardCard(hand: readonly Card[]): Card {
  let best: Card | null = null;
  for (const c of hand) {
    if (isJoker(c)) continue;
    if (
      !best ||
      c.rank > best.rank ||
      (c.rank === best.rank && SUITS.indexOf(c.suit as never) < SUITS.indexOf(best.suit as never))
    )
      best = c;
  }
  return best ?? hand[0];
}

export function onTimeout(s: HulaState, now: number): R {
  const due = deadline(s);
  if (due === null) return reject(COMMON_REASONS.finished);
  if (now < due) return reject(COMMON_REASONS.noTimeout);
  const step = now >= s.turnStartedAt + WATCHDOG_MS ? watchdog(s, now) : phaseTimeout(s, now);
  return { ok: true, state: { ...step.state, seq: s.seq + 1 }, events: step.events };
}

function phaseTimeout(s: HulaState, now: number): Step {
  const p = s.phase;
  const events: HulaEvent[] = [];
  switch (p.kind) {
    case 'draw':
      return autoDraw(countTimeout(s, p.seat, 'draw', events), p.seat, now, events);
    case 'act':
      return autoDiscard(countTimeout(s, p.seat, 'act', events), p.seat, now, events);
    case 'thankYouAsk':
      // Letting the check run out is how most players pass, so it does not count toward a leave.
      return advanceAsk(s, now, [{ type: 'thankYouPass', player: s.seats[p.order[p.index]].id, auto: true }]);
    case 'thankYouRace':
      if (p.windowEnd !== null && now >= p.windowEnd) return resolveRace(s, now, []);
      return beginTurn(s, seatAfter(s, p.discarder), now, [{ type: 'thankYouExpired' }]);
    case 'roundEnd':
      return startRoundFrom(s, now, []);
    default:
      throw new Error('no timer in this phase');
  }
}

/** §8.5 watchdog: whatever is pending, the turn is forced over in one step. */
function watchdog(s: HulaState, now: number): Step {
  const p = s.phase;
  const events: HulaEvent[] = [{ type: 'watchdog', phase: p.kind }];
  switch (p.kind) {
    case 'draw': {
      const drawn = autoDraw(countTimeout(s, p.seat, 'draw', events), p.seat, now, events);
      return drawn.state.phase.kind === 'act' ? autoDiscard(drawn.state, p.seat, now, drawn.events) : drawn;
    }
    case 'act':
      return autoDiscard(countTimeout(s, p.seat, 'act', events), p.seat, now, events);
    case 'thankYouAsk':
      return beginTurn(s, seatAfter(s, p.discarder), now, events);
    case 'thankYouRace':
      if (p.claims.length > 0) return resolveRace(s, now, events);
      return beginTurn(s, seatAfter(s, p.discarder), now, events);
    case 'roundEnd':
      return startRoundFrom(s, now, events);
    default:
      throw new Error('no timer in this phase');
  }
}

/** Two own-turn timeouts in a row reserve a leave at the next deal (§8.5). */
function countTimeout(s: HulaState, seat: number, phase: string, events: HulaEvent[]): HulaState {
  const x = s.seats[seat];
  const timeoutsInRow = x.timeoutsInRow + 1;
  const reserve = timeoutsInRow >= 2 && x.leave === null;
  events.push({ type: 'timeout', player: x.id, phase });
  if (reserve) events.push({ type: 'leaveReserved', player: x.id, reason: 'timeouts' });
  return { ...s, seats: patchAt(s.seats, seat, { timeoutsInRow, leave: reserve ? 'timeouts' : x.leave }) };
}

/** Draws from the stock for the player; the act timer restarts from now. */
function autoDraw(s: HulaState, seat: number, now: number, evs: HulaEvent[]): Step {
  if (s.hands[seat].length >= HAND_LIMIT || s.stockTop >= s.stock.length) {
    // Cannot draw (never happens with 7-card hands, kept for safety): go straight to discarding.
    const deadline = now + TIMERS[s.options.mode].actMs;
    return { state: { ...s, phase: { kind: 'act', seat, deadline, via: 'stock', thankYouFrom: null } }, events: evs };
  }
  const r = draw(s, seat, 'stock', now);
  if (!r.ok) throw new Error(r.reason);
  // draw() reports only the draw itself.
  for (const e of r.events) evs.push(e.type === 'drew' ? { ...e, auto: true } : e);
  return { state: r.state, events: evs };
}

function autoDiscard(s: HulaState, seat: number, now: number, events: HulaEvent[]): Step {
  const card = autoDiscardCard(s.hands[seat]);
  const r = discard(s, seat, card.id, now, true);
  if (!r.ok) throw new Error(r.reason);
  return { state: r.state, events: [...events, ...r.events] };
}

/**
 * When the AI substitute may act for `player` (§8.6): 5 s after their turn
 * (or a 땡큐 taken for them) began; at once when asked for 땡큐 or on the
 * result screen; `LEAVE_AFTER_DISCONNECT_MS` after `disconnectedSince` to
 * reserve their leave (once: not while any leave is reserved); null when there
 * is nothing for them to do.
 */
export function substituteDue(s: HulaState, player: PlayerId, disconnectedSince?: number | null): number | null {
  const seat = seatOf(s, player);
  if (seat < 0 || s.seats[seat].status === 'left') return null;
  const move = moveDue(s, seat);
  const leave = leaveDue(s, seat, disconnectedSince);
  if (move === null) return leave;
  return leave === null ? move : Math.min(move, leave);
}

function moveDue(s: HulaState, seat: number): number | null {
  const p = s.phase;
  switch (p.kind) {
    case 'draw':
    case 'act':
      return p.seat === seat ? s.turnStartedAt + SUBSTITUTE_DELAY_MS : null;
    case 'thankYouAsk':
      return p.order[p.index] === seat ? s.turnStartedAt : null;
    case 'roundEnd':
      return p.ready.includes(seat) ? null : s.turnStartedAt;
    default:
      return null;
  }
}

/** §8.6: away this long → leave reserved automatically; an existing reservation (of any kind) already covers it. */
function leaveDue(s: HulaState, seat: number, disconnectedSince: number | null | undefined): number | null {
  if (typeof disconnectedSince !== 'number' || !Number.isFinite(disconnectedSince)) return null;
  if (s.phase.kind === 'finished' || s.seats[seat].leave !== null) return null;
  return disconnectedSince + LEAVE_AFTER_DISCONNECT_MS;
}

/**
 * The AI substitute's next action for a disconnected `player`, or null if
 * none is due at `now`. Once they have been away `LEAVE_AFTER_DISCONNECT_MS`
 * it first reserves their leave (`reserveLeave` with `auto: true`, which their
 * own next action cancels). Otherwise it follows the product note exactly —
 * draw from the stock, pass every 땡큐, discard the highest card — working from
 * the player's own view. Moves carry `substitute: true`, so they neither reset
 * the timeout count nor cancel a leave reservation. Apply the result with
 * `apply(state, player, action, now)`; call again for the next step.
 */
export function substituteAction(
  s: HulaState,
  player: PlayerId,
  now: number,
  disconnectedSince?: number | null,
): HulaAction | null {
  const seat = seatOf(s, player);
  if (seat < 0 || s.seats[seat].status === 'left') return null;
  const leave = leaveDue(s, seat, disconnectedSince);
  if (leave !== null && now >= leave) return { type: 'reserveLeave', on: true, auto: true };
  const due = moveDue(s, seat);
  if (due === null || now < due) return null;
  const v = view(s, player);
  const me = v.me;
  if (!me || !v.hand) return v.phase.kind === 'roundEnd' ? { type: 'ready', substitute: true } : null;
  switch (v.phase.kind) {
    case 'draw':
      if (me.canDraw) return { type: 'draw', from: 'stock', substitute: true };
      return me.canDrawDiscard ? { type: 'draw', from: 'discard', substitute: true } : null;
    case 'act':
      return { type: 'discard', cardId: autoDiscardCard(v.hand).id, substitute: true };
    case 'thankYouAsk':
      return { type: 'pass', substitute: true };
    case 'roundEnd':
      return { type: 'ready', substitute: true };
    default:
      return null;
  }
}
