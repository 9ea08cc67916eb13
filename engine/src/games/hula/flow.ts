/**
 * Moving the round along: next turn, deck exhaustion, going out (훌라) and
 * the end of a round with its settlement (docs/games/hula.md §5.1, §5.7, §6).
 */
import { nextInRing, seatsAfter, type TurnRing } from '../../core/turn-ring.ts';

import type { HulaEvent } from './events.ts';
import { settle, type Contestant, type RoundOutcome } from './scoring.ts';
import { startRound } from './setup.ts';
import { ROUND_END_MS, TIMERS } from './timers.ts';
import type { HulaState, RoundSummary } from './types.ts';

export interface Step {
  state: HulaState;
  events: HulaEvent[];
}

/** Clockwise over the seats still in this round (core/turn-ring.ts). */
const roundRing = (s: HulaState): TurnRing<boolean> => ({ seats: s.inRound, isIn: (inRound) => inRound });

export const seatAfter = (s: HulaState, seat: number): number => nextInRing(roundRing(s), seat);

export const stockCount = (s: HulaState): number => s.stock.length - s.stockTop;

export const playersInRound = (s: HulaState): number => {
  let n = 0;
  for (const x of s.inRound) if (x) n++;
  return n;
};

/** Gives `seat` its turn, unless the stock is empty: then the round ends by deck exhaustion (§5.7). */
export function beginTurn(s: HulaState, seat: number, now: number, events: HulaEvent[]): Step {
  if (stockCount(s) === 0) {
    events.push({ type: 'deckExhausted' });
    return endRound(s, { type: 'exhaustion', seat }, now, events);
  }
  let hadTurn = s.hadTurn;
  if (!hadTurn[seat]) {
    hadTurn = [...hadTurn];
    hadTurn[seat] = true;
  }
  events.push({ type: 'turn', player: s.seats[seat].id });
  return {
    state: {
      ...s,
      hadTurn,
      phase: { kind: 'draw', seat, deadline: now + TIMERS[s.options.mode].drawMs },
      turnStartedAt: now,
    },
    events,
  };
}

/**
 * After a discard that did not end the round: the 땡큐 phase of the mode.
 * A joker on top cannot be taken by 땡큐, so the phase is skipped.
 */
export function enterThankYou(s: HulaState, discarder: number, now: number, events: HulaEvent[]): Step {
  const top = s.discard[s.discard.length - 1];
  if (top.suit === 'X') return beginTurn(s, seatAfter(s, discarder), now, events);
  const ms = TIMERS[s.options.mode].thankYouMs;
  if (s.options.mode === 'monster') {
    const order = seatsAfter(roundRing(s), discarder);
    events.push({ type: 'thankYouAsk', player: s.seats[order[0]].id });
    return {
      state: {
        ...s,
        phase: { kind: 'thankYouAsk', discarder, order, index: 0, deadline: now + ms },
        turnStartedAt: now,
      },
      events,
    };
  }
  events.push({ type: 'thankYouRace', discarder: s.seats[discarder].id });
  return {
    state: {
      ...s,
      phase: { kind: 'thankYouRace', discarder, deadline: now + ms, claims: [], windowEnd: null, passed: [] },
      turnStartedAt: now,
    },
    events,
  };
}

/** The player's hand is empty: 훌라. `thankYouFrom` is set when the discard taken by 땡큐 made it (땡큐박). */
export function goOut(s: HulaState, seat: number, thankYouFrom: number | null, now: number, events: HulaEvent[]): Step {
  events.push({ type: 'hula', player: s.seats[seat].id, byThankYou: thankYouFrom !== null });
  return endRound(s, { type: 'hula', seat, thankYouFrom }, now, events);
}

export function endRound(s: HulaState, outcome: RoundOutcome, now: number, events: HulaEvent[]): Step {
  const contestants: Contestant[] = [];
  for (let i = 0; i < s.seats.length; i++) {
    if (!s.inRound[i]) continue;
    contestants.push({
      seat: i,
      id: s.seats[i].id,
      hand: s.hands[i],
      registered: s.registered[i],
      hadTurn: s.hadTurn[i],
    });
  }
  const st = settle(contestants, outcome, s.options, s.bonus, s.seats.length, s.rulesVersion);
  const summary: RoundSummary = { round: s.round, ...st.summary };
  const seats = s.seats.map((x, i) => {
    const d = st.deltas.get(i);
    if (d === undefined) return x;
    return { ...x, points: x.points + d, wins: i === st.winnerSeat ? x.wins + 1 : x.wins };
  });
  const deltas: Record<string, number> = {};
  for (const [seat, d] of st.deltas) deltas[s.seats[seat].id] = d;
  events.push({ type: 'roundEnd', summary });
  const last = s.round >= s.options.rounds;
  if (last) events.push({ type: 'gameEnd', reason: 'rounds' });
  return {
    state: {
      ...s,
      seats,
      feeTotal: s.feeTotal + summary.fee,
      bonus: st.bonusAfter,
      lastRound: summary,
      history: [
        ...s.history,
        {
          round: s.round,
          winner: summary.winner,
          winType: summary.winType,
          special: summary.special,
          deltas,
          fee: summary.fee,
        },
      ],
      phase: last ? { kind: 'finished' } : { kind: 'roundEnd', deadline: now + ROUND_END_MS, ready: [] },
      turnStartedAt: now,
    },
    events,
  };
}

/** From the result screen to the next deal (or the end of the game if too few players stay). */
export function startRoundFrom(s: HulaState, now: number, events: HulaEvent[]): Step {
  const r = startRound(s, now);
  return { state: r.state, events: [...events, ...r.events] };
}
