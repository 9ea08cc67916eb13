/**
 * apply(): one player's action (docs/games/hula.md §5, §8.2). Validation
 * comes first and touches nothing; on success only the parts that change are
 * copied. Timers are checked against `now` with the grace window of §8.5.
 */
import type { ApplyResult, PlayerId } from '../../core/types.ts';
import type { HulaEvent } from './events.ts';
import { COMMON_REASONS, reject } from '../../core/reject.ts';
import { patchAt } from '../../core/cow.ts';
import { actionSchema } from './actions.ts';
import { endRound, enterThankYou, goOut, playersInRound, startRoundFrom, type Step } from './flow.ts';
import { REASONS, takeCards } from './hand.ts';
import { classifyMeld, isJoker, layOffMany, type MeldForm } from './melds.ts';
import { handScore, specialOf, stopLimit } from './scoring.ts';
import { HAND_LIMIT } from './setup.ts';
import { claimThankYou, passThankYou, resolveRace } from './thank-you.ts';
import { GRACE_MS, TIMERS, WATCHDOG_MS } from './timers.ts';
import type { Card, HulaAction, HulaState, Meld } from './types.ts';

type R = ApplyResult<HulaState, HulaEvent>;
const done = (step: Step): R => ({ ok: true, state: step.state, events: step.events });

export function seatOf(s: HulaState, player: PlayerId): number {
  const seats = s.seats;
  for (let i = 0; i < seats.length; i++) if (seats[i].id === player) return i;
  return -1;
}

/** True once the phase's deadline plus grace, or the watchdog, has passed: onTimeout is due instead. */
export function isLate(s: HulaState, now: number): boolean {
  const p = s.phase;
  if (p.kind === 'finished') return false;
  return now > p.deadline + GRACE_MS || now >= s.turnStartedAt + WATCHDOG_MS;
}

export function apply(state: HulaState, actor: PlayerId, raw: unknown, now: number): R {
  if (state.phase.kind === 'finished') return reject(COMMON_REASONS.finished);
  const seat = seatOf(state, actor);
  if (seat < 0) return reject(COMMON_REASONS.notAPlayer);
  const parsed = actionSchema.safeParse(raw);
  if (!parsed.success) return reject(COMMON_REASONS.malformed);
  const action = parsed.data;
  if (state.seats[seat].status === 'left') return reject(REASONS.hasLeft);
  if (action.type === 'reserveLeave') return finish(state, reserveLeave(state, seat, action.on, action.auto === true));

  // §5.4.2: a race window that has closed is decided before anything else is looked at.
  let s = state;
  let pre: HulaEvent[] = [];
  const p = s.phase;
  if (p.kind === 'thankYouRace' && p.windowEnd !== null && now >= p.windowEnd) {
    const r = resolveRace(s, now, []);
    s = r.state;
    pre = r.events;
  }
  if (isLate(s, now)) return reject(REASONS.late);
  if (!s.inRound[seat] && s.phase.kind !== 'roundEnd') return reject(REASONS.notInRound);
  const r = dispatch(s, seat, action, now);
  if (!r.ok) return r;
  let next = r.state;
  const events = pre.length ? [...pre, ...r.events] : r.events;
  if (!action.substitute) next = directAction(next, seat, events);
  return { ok: true, state: { ...next, seq: state.seq + 1 }, events };
}

function finish(state: HulaState, r: R): R {
  return r.ok ? { ok: true, state: { ...r.state, seq: state.seq + 1 }, events: r.events } : r;
}

/** §8.5: a player's own action clears their timeout count and cancels an automatic leave reservation. */
function directAction(s: HulaState, seat: number, events: HulaEvent[]): HulaState {
  const x = s.seats[seat];
  const cancel = x.leave === 'timeouts' || x.leave === 'disconnected';
  if (x.timeoutsInRow === 0 && !cancel) return s;
  if (cancel) events.push({ type: 'leaveCancelled', player: x.id });
  return { ...s, seats: patchAt(s.seats, seat, { timeoutsInRow: 0, leave: cancel ? null : x.leave }) };
}

function dispatch(s: HulaState, seat: number, a: HulaAction, now: number): R {
  switch (a.type) {
    case 'draw':
      return draw(s, seat, a.from, now);
    case 'meld':
      return meld(s, seat, a.cardIds, a.form, now);
    case 'layOff':
      return layOff(s, seat, a.cardIds, a.meldId, a.end, now);
    case 'discard':
      return discard(s, seat, a.cardId, now, false);
    case 'stop':
      return stop(s, seat, now);
    case 'special':
      return special(s, seat, now);
    case 'thankYou':
      return claimThankYou(s, seat, a.cardIds, now);
    case 'pass':
      return passThankYou(s, seat, now, false);
    case 'ready':
      return ready(s, seat, now);
    default:
      return reject(COMMON_REASONS.malformed);
  }
}

export function draw(s: HulaState, seat: number, from: 'stock' | 'discard', now: number): R {
  const p = s.phase;
  if (p.kind === 'act' && p.seat === seat) return reject(REASONS.alreadyDrew);
  if (p.kind !== 'draw') return reject(REASONS.cannotDrawNow);
  if (p.seat !== seat) return reject(COMMON_REASONS.notYourTurn);
  const hand = s.hands[seat];
  if (hand.length >= HAND_LIMIT) return reject(REASONS.handFull);
  let card: Card;
  let next: HulaState;
  if (from === 'stock') {
    if (s.stockTop >= s.stock.length) return reject(REASONS.stockEmpty);
    card = s.stock[s.stockTop];
    next = { ...s, stockTop: s.stockTop + 1 };
  } else {
    if (s.discard.length === 0) return reject(REASONS.discardEmpty);
    card = s.discard[s.discard.length - 1];
    next = { ...s, discard: s.discard.slice(0, -1) };
  }
  const hands = [...s.hands];
  hands[seat] = [...hand, card];
  next.hands = hands;
  next.phase = { kind: 'act', seat, deadline: now + TIMERS[s.options.mode].actMs, via: from, thankYouFrom: null };
  return { ok: true, state: next, events: [{ type: 'drew', player: s.seats[seat].id, from, card }] };
}

function actingCheck(s: HulaState, seat: number): string | null {
  const p = s.phase;
  if (p.kind === 'draw' && p.seat === seat) return REASONS.drawFirst;
  if (p.kind !== 'act') return REASONS.notActing;
  if (p.seat !== seat) return COMMON_REASONS.notYourTurn;
  return null;
}

/** The 땡큐 giver when the current act phase began with a 땡큐 (a 훌라 now carries 땡큐박). */
const thankYouSource = (s: HulaState): number | null =>
  s.phase.kind === 'act' && s.phase.via === 'thankYou' ? s.phase.thankYouFrom : null;

function meld(s: HulaState, seat: number, cardIds: string[], form: MeldForm | undefined, now: number): R {
  const bad = actingCheck(s, seat);
  if (bad) return reject(bad);
  const picked = takeCards(s.hands[seat], cardIds);
  if (typeof picked === 'string') return reject(picked);
  const shape = classifyMeld(picked.cards, form);
  if (!shape) return reject(form && classifyMeld(picked.cards) ? REASONS.badMeldForm : REASONS.badMeld);
  const m: Meld = { id: s.nextMeldId, owner: s.seats[seat].id, ...shape };
  const hands = s.hands.with(seat, picked.rest);
  const next: HulaState = {
    ...s,
    hands,
    registered: s.registered[seat] ? s.registered : s.registered.with(seat, true),
    melds: [...s.melds, m],
    nextMeldId: s.nextMeldId + 1,
  };
  const events: HulaEvent[] = [{ type: 'melded', player: s.seats[seat].id, meld: m }];
  if (picked.rest.length === 0) return done(goOut(next, seat, thankYouSource(s), now, events));
  return { ok: true, state: next, events };
}

function layOff(
  s: HulaState,
  seat: number,
  cardIds: string[],
  meldId: number | undefined,
  end: 'low' | 'high' | undefined,
  now: number,
): R {
  const bad = actingCheck(s, seat);
  if (bad) return reject(bad);
  if (!s.registered[seat]) return reject(REASONS.notRegistered);
  const picked = takeCards(s.hands[seat], cardIds);
  if (typeof picked === 'string') return reject(picked);
  let index = -1;
  let grown: Meld | null = null;
  if (meldId !== undefined) {
    index = s.melds.findIndex((m) => m.id === meldId);
    if (index < 0) return reject(REASONS.noMeld);
    grown = layOffMany(s.melds[index], picked.cards, end);
  } else {
    // The smart button: the first meld on the table that takes every chosen card.
    for (let i = 0; i < s.melds.length && !grown; i++) {
      grown = layOffMany(s.melds[i], picked.cards, end);
      index = i;
    }
  }
  if (!grown) return reject(REASONS.cannotLayOff);
  const next: HulaState = { ...s, hands: s.hands.with(seat, picked.rest), melds: s.melds.with(index, grown) };
  const events: HulaEvent[] = [
    { type: 'laidOff', player: s.seats[seat].id, meldId: grown.id, cards: picked.cards, meld: grown },
  ];
  if (picked.rest.length === 0) return done(goOut(next, seat, thankYouSource(s), now, events));
  return { ok: true, state: next, events };
}

/** Discarding ends the turn; discarding the last card is going out (§5.1). */
export function discard(s: HulaState, seat: number, cardId: string, now: number, auto: boolean): R {
  const bad = actingCheck(s, seat);
  if (bad) return reject(bad);
  const hand = s.hands[seat];
  const card = hand.find((c) => c.id === cardId);
  if (!card) return reject(REASONS.notInHand);
  if (isJoker(card) && hand.some((c) => !isJoker(c))) return reject(REASONS.jokerDiscard);
  const rest = hand.filter((c) => c !== card);
  const next: HulaState = { ...s, hands: s.hands.with(seat, rest), discard: [...s.discard, card] };
  const events: HulaEvent[] = [{ type: 'discarded', player: s.seats[seat].id, card, auto }];
  if (rest.length === 0) return done(goOut(next, seat, thankYouSource(s), now, events));
  return done(enterThankYou(next, seat, now, events));
}

function stop(s: HulaState, seat: number, now: number): R {
  const p = s.phase;
  if (p.kind === 'act' && p.seat === seat) return reject(REASONS.stopAfterDraw);
  if (p.kind !== 'draw') return reject(REASONS.stopAfterDraw);
  if (p.seat !== seat) return reject(COMMON_REASONS.notYourTurn);
  const score = handScore(s.hands[seat], true);
  const limit = stopLimit(playersInRound(s));
  if (limit !== null && score > limit) return reject(REASONS.stopTooHigh(limit, score));
  return done(endRound(s, { type: 'stop', seat }, now, [{ type: 'stop', player: s.seats[seat].id }]));
}

function special(s: HulaState, seat: number, now: number): R {
  const p = s.phase;
  if ((p.kind !== 'draw' && p.kind !== 'act') || p.seat !== seat) return reject(REASONS.specialNotNow);
  if (s.registered[seat]) return reject(REASONS.specialRegistered);
  const kind = specialOf(s.hands[seat], s.options.mode);
  if (!kind) return reject(REASONS.notSpecial);
  return done(
    endRound(s, { type: 'special', seat, special: kind }, now, [{ type: 'special', player: s.seats[seat].id, kind }]),
  );
}

function ready(s: HulaState, seat: number, now: number): R {
  const p = s.phase;
  if (p.kind !== 'roundEnd') return reject(REASONS.notRoundEnd);
  if (p.ready.includes(seat)) return reject(REASONS.alreadyReady);
  const readySeats = [...p.ready, seat];
  const next: HulaState = { ...s, phase: { ...p, ready: readySeats } };
  const events: HulaEvent[] = [{ type: 'ready', player: s.seats[seat].id }];
  const waiting = s.seats.some((x, i) => x.status === 'playing' && !readySeats.includes(i));
  if (waiting) return { ok: true, state: next, events };
  return done(startRoundFrom(next, now, events));
}

function reserveLeave(s: HulaState, seat: number, on: boolean, auto: boolean): R {
  const x = s.seats[seat];
  if (on && x.leave) return reject(REASONS.alreadyLeaving);
  if (!on && !x.leave) return reject(REASONS.notLeaving);
  const leave = on ? (auto ? 'disconnected' : 'requested') : null;
  const seats = patchAt(s.seats, seat, { leave });
  const event: HulaEvent = leave
    ? { type: 'leaveReserved', player: x.id, reason: leave }
    : { type: 'leaveCancelled', player: x.id };
  return { ok: true, state: { ...s, seats }, events: [event] };
}
