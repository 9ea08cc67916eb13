/**
 * What each viewer may see (docs/games/hula.md §8.3): their own hand, public
 * table facts, and counts for everything hidden. Other hands and the stock
 * order never leave the state until a round's settlement reveals the hands.
 * A view is the join of the members every viewer shares (`sharedView`) and
 * the viewer's own (`ownView`).
 */
import type { GameEvent, PlayerId } from '../../core/types.ts';
import { playersInRound, stockCount } from './flow.ts';
import { findThankYouCards } from './melds.ts';
import { handScore, specialOf, stopLimit } from './scoring.ts';
import { HAND_LIMIT } from './setup.ts';
import { GRACE_MS } from './timers.ts';
import type { HulaFixedView, HulaOwnView, HulaSharedView, HulaState, HulaView, MyLegal, PhaseView } from './types.ts';

export function view(s: HulaState, viewer: PlayerId | null): HulaView {
  // Assigned onto the fresh shared object, not spread: a spread of ~30 members built a slow
  // object here (≈ 60 µs against ≈ 4 µs, one-card, bench/views.ts's set-up).
  return Object.assign(fixedView(s), sharedView(s), ownView(s, viewer));
}

/** The members no transition of this game changes: the room worker sends them once per viewer, not per frame. */
export function fixedView(s: HulaState): HulaFixedView {
  return {
    game: 'hula',
    rulesVersion: s.rulesVersion,
    seedCommit: s.seedCommit,
    players: s.players,
    mode: s.options.mode,
    options: s.options,
    roundsTotal: s.options.rounds,
    graceMs: GRACE_MS,
  };
}

/** Every viewer's members: built once per state by the room worker, so nothing here may depend on who looks. */
export function sharedView(s: HulaState): HulaSharedView {
  const p = s.phase;
  const ids = (seats: number[]): PlayerId[] => seats.map((i) => s.seats[i].id);
  let phase: PhaseView;
  let current: PlayerId | null = null;
  switch (p.kind) {
    case 'draw':
      current = s.seats[p.seat].id;
      phase = { kind: 'draw', player: current };
      break;
    case 'act':
      current = s.seats[p.seat].id;
      phase = { kind: 'act', player: current, via: p.via };
      break;
    case 'thankYouAsk':
      phase = {
        kind: 'thankYouAsk',
        discarder: s.seats[p.discarder].id,
        asked: s.seats[p.order[p.index]].id,
        order: ids(p.order),
      };
      break;
    case 'thankYouRace':
      phase = {
        kind: 'thankYouRace',
        discarder: s.seats[p.discarder].id,
        claimants: ids(p.claims.map((c) => c.seat)),
        passed: ids(p.passed),
      };
      break;
    case 'roundEnd':
      phase = { kind: 'roundEnd', ready: ids(p.ready) };
      break;
    default:
      phase = { kind: 'finished' };
  }
  const finished = p.kind === 'finished';
  const revealed = finished || p.kind === 'roundEnd';
  return {
    seq: s.seq,
    deadline: finished ? null : p.deadline,
    finished,
    round: s.round,
    phase,
    current,
    seats: s.seats.map((x, i) => ({
      id: x.id,
      name: s.players[i].name,
      status: x.status,
      inRound: s.inRound[i],
      handCount: s.hands[i].length,
      registered: s.registered[i],
      points: x.points,
      leaveReserved: x.leave !== null,
      timeoutsInRow: x.timeoutsInRow,
      wins: x.wins,
    })),
    stockCount: stockCount(s),
    discardTop: s.discard.length ? s.discard[s.discard.length - 1] : null,
    discardCount: s.discard.length,
    melds: s.melds,
    bonus: s.bonus,
    feeTotal: s.feeTotal,
    lastRound: revealed ? s.lastRound : null,
    history: s.history,
  };
}

/** The viewer's members: their hand and what they may do, null for spectators and players out of the round. */
export function ownView(s: HulaState, viewer: PlayerId | null): HulaOwnView {
  let seat = -1;
  if (viewer !== null) for (let i = 0; i < s.seats.length; i++) if (s.seats[i].id === viewer) seat = i;
  const inHand = seat >= 0 && s.inRound[seat] && s.seats[seat].status === 'playing';
  return {
    viewer,
    hand: inHand ? s.hands[seat].slice() : null,
    me: inHand && s.phase.kind !== 'finished' ? legal(s, seat) : null,
  };
}

function legal(s: HulaState, seat: number): MyLegal {
  const p = s.phase;
  const hand = s.hands[seat];
  const mine = (p.kind === 'draw' || p.kind === 'act') && p.seat === seat;
  const drawing = mine && p.kind === 'draw';
  const limit = stopLimit(playersInRound(s));
  const stopScore = handScore(hand, true);
  const top = s.discard.length ? s.discard[s.discard.length - 1] : null;
  let eligible = false;
  if (p.kind === 'thankYouAsk') eligible = p.order[p.index] === seat;
  else if (p.kind === 'thankYouRace')
    eligible = p.discarder !== seat && !p.passed.includes(seat) && !p.claims.some((c) => c.seat === seat);
  const thankYouCards = eligible ? findThankYouCards(hand, top) : null;
  const canDraw = drawing && hand.length < HAND_LIMIT && stockCount(s) > 0;
  return {
    canDraw,
    canDrawDiscard: drawing && hand.length < HAND_LIMIT && s.discard.length > 0,
    canStop: drawing && (limit === null || stopScore <= limit),
    stopScore,
    stopLimit: limit,
    special: mine && !s.registered[seat] ? specialOf(hand, s.options.mode) : null,
    canThankYou: thankYouCards !== null,
    thankYouCardIds: thankYouCards ? thankYouCards.map((c) => c.id) : null,
    discardPrompt: mine && p.kind === 'act' && hand.length === 1 ? hand[0].id : null,
    mustAct: mine || (p.kind === 'thankYouAsk' && eligible) || (p.kind === 'roundEnd' && !p.ready.includes(seat)),
  };
}

/**
 * A drawn card is named only to its drawer. From the stock it is secret; from
 * the discard pile everyone saw it on top already, so others get `from` and
 * their client animates the card it was showing. Every other event is public.
 */
export function eventView(e: GameEvent, viewer: PlayerId | null): GameEvent | null {
  if (e.type === 'drew' && e.player !== viewer) {
    const { card: _card, ...rest } = e;
    return rest;
  }
  return e;
}
