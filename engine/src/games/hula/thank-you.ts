/**
 * 땡큐: taking the card just discarded, out of turn, to register a new meld
 * with it (docs/games/hula.md §5.4). 괴물 asks one player at a time; 조커 runs
 * a first-come race where claims inside a 100 ms window go to the seat nearest
 * clockwise from the discarder.
 */
import type { ApplyResult } from '../../core/types.ts';
import type { HulaEvent } from './events.ts';
import { reject } from '../../core/reject.ts';
import { beginTurn, goOut, seatAfter, type Step } from './flow.ts';
import { isJoker, thankYouMeld } from './melds.ts';
import { RACE_WINDOW_MS, TIMERS } from './timers.ts';
import type { Card, HulaState, Meld } from './types.ts';
import { REASONS, takeCards } from './hand.ts';

type R = ApplyResult<HulaState, HulaEvent>;

/** Validates a 땡큐 choice against the current top card; returns the hand cards or a reason. */
function checkClaim(s: HulaState, seat: number, cardIds: string[]): Card[] | string {
  const picked = takeCards(s.hands[seat], cardIds);
  if (typeof picked === 'string') return picked;
  if (picked.cards.some(isJoker)) return REASONS.jokerThankYou;
  const top = s.discard[s.discard.length - 1];
  if (!thankYouMeld(top, picked.cards)) return REASONS.badThankYou;
  return picked.cards;
}

export function claimThankYou(s: HulaState, seat: number, cardIds: string[], now: number): R {
  const p = s.phase;
  if (p.kind === 'thankYouAsk') {
    if (seat === p.discarder) return reject(REASONS.ownDiscard);
    if (p.order[p.index] !== seat) return reject(REASONS.notAskedYet);
    const cards = checkClaim(s, seat, cardIds);
    if (typeof cards === 'string') return reject(cards);
    const r = takeThankYou(s, seat, p.discarder, cards, now, []);
    return { ok: true, ...r };
  }
  if (p.kind !== 'thankYouRace') return reject(REASONS.noThankYou);
  if (seat === p.discarder) return reject(REASONS.ownDiscard);
  if (p.claims.some((c) => c.seat === seat)) return reject(REASONS.alreadyClaimed);
  if (p.passed.includes(seat)) return reject(REASONS.alreadyPassed);
  const cards = checkClaim(s, seat, cardIds);
  if (typeof cards === 'string') return reject(cards);
  const claims = [...p.claims, { seat, cardIds: cards.map((c) => c.id), at: now }];
  const windowEnd = p.windowEnd ?? now + RACE_WINDOW_MS;
  const next: HulaState = { ...s, phase: { ...p, claims, windowEnd } };
  const events: HulaEvent[] = [{ type: 'thankYouClaimed', player: s.seats[seat].id }];
  // Nobody else could still join the window: decide now rather than wait for it.
  if (everyoneAnswered(next)) return { ok: true, ...resolveRace(next, now, events) };
  return { ok: true, state: next, events };
}

export function passThankYou(s: HulaState, seat: number, now: number, auto: boolean): R {
  const p = s.phase;
  if (p.kind === 'thankYouAsk') {
    if (seat === p.discarder) return reject(REASONS.ownDiscard);
    if (p.order[p.index] !== seat) return reject(REASONS.notAskedYet);
    return { ok: true, ...advanceAsk(s, now, [{ type: 'thankYouPass', player: s.seats[seat].id, auto }]) };
  }
  if (p.kind !== 'thankYouRace') return reject(REASONS.noThankYou);
  if (seat === p.discarder) return reject(REASONS.ownDiscard);
  if (p.claims.some((c) => c.seat === seat)) return reject(REASONS.alreadyClaimed);
  if (p.passed.includes(seat)) return reject(REASONS.alreadyPassed);
  const next: HulaState = { ...s, phase: { ...p, passed: [...p.passed, seat] } };
  const events: HulaEvent[] = [{ type: 'thankYouPass', player: s.seats[seat].id, auto }];
  if (!everyoneAnswered(next)) return { ok: true, state: next, events };
  if (p.claims.length > 0) return { ok: true, ...resolveRace(next, now, events) };
  return { ok: true, ...beginTurn(next, seatAfter(next, p.discarder), now, events) };
}

/** 괴물: the next player is asked, or, when everyone has passed, the discarder's next player takes the turn. */
export function advanceAsk(s: HulaState, now: number, events: HulaEvent[]): Step {
  const p = s.phase;
  if (p.kind !== 'thankYouAsk') throw new Error('not asking');
  const index = p.index + 1;
  if (index >= p.order.length) return beginTurn(s, seatAfter(s, p.discarder), now, events);
  events.push({ type: 'thankYouAsk', player: s.seats[p.order[index]].id });
  return {
    state: { ...s, phase: { ...p, index, deadline: now + TIMERS[s.options.mode].thankYouMs } },
    events,
  };
}

function everyoneAnswered(s: HulaState): boolean {
  const p = s.phase;
  if (p.kind !== 'thankYouRace') return false;
  for (let i = 0; i < s.seats.length; i++) {
    if (!s.inRound[i] || i === p.discarder) continue;
    if (!p.passed.includes(i) && !p.claims.some((c) => c.seat === i)) return false;
  }
  return true;
}

/** 조커: the claim nearest clockwise from the discarder wins the window (§5.4.2). */
export function resolveRace(s: HulaState, now: number, events: HulaEvent[]): Step {
  const p = s.phase;
  if (p.kind !== 'thankYouRace' || p.claims.length === 0) throw new Error('no race to resolve');
  const n = s.seats.length;
  const dist = (seat: number): number => (seat - p.discarder + n) % n;
  let best = p.claims[0];
  for (const c of p.claims) if (dist(c.seat) < dist(best.seat)) best = c;
  const hand = s.hands[best.seat];
  const cards = best.cardIds.map((id) => hand.find((c) => c.id === id)!);
  if (p.claims.length > 1)
    events.push({ type: 'thankYouRaceResolved', winner: s.seats[best.seat].id, claims: p.claims.length });
  return takeThankYou(s, best.seat, p.discarder, cards, now, events);
}

/**
 * The taker registers the discard with `cards`, then (without drawing) may
 * register and lay off more and must discard. An empty hand is a 훌라 made
 * by 땡큐; in 괴물 a single card left is discarded for them at once (§5.4.1).
 */
export function takeThankYou(
  s: HulaState,
  seat: number,
  discarder: number,
  cards: Card[],
  now: number,
  events: HulaEvent[],
): Step {
  const top = s.discard[s.discard.length - 1];
  const shape = thankYouMeld(top, cards)!;
  const meld: Meld = { id: s.nextMeldId, owner: s.seats[seat].id, ...shape };
  const used = new Set(cards);
  const hand = s.hands[seat].filter((c) => !used.has(c));
  const hands = [...s.hands];
  hands[seat] = hand;
  const registered = s.registered[seat] ? s.registered : s.registered.with(seat, true);
  let discard = s.discard.slice(0, -1);
  let next: HulaState = {
    ...s,
    hands,
    registered,
    discard,
    melds: [...s.melds, meld],
    nextMeldId: s.nextMeldId + 1,
  };
  events.push({ type: 'thankYou', player: s.seats[seat].id, from: s.seats[discarder].id, meld });
  if (hand.length === 0) return goOut(next, seat, discarder, now, events);
  if (hand.length === 1 && s.options.mode === 'monster') {
    const last = hand[0];
    discard = [...discard, last];
    hands[seat] = [];
    next = { ...next, discard };
    events.push({ type: 'discarded', player: s.seats[seat].id, card: last, auto: true });
    return goOut(next, seat, discarder, now, events);
  }
  return {
    state: {
      ...next,
      phase: {
        kind: 'act',
        seat,
        deadline: now + TIMERS[s.options.mode].actMs,
        via: 'thankYou',
        thankYouFrom: discarder,
      },
      turnStartedAt: now,
    },
    events,
  };
}
