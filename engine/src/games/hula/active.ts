/**
 * Who the game is waiting on, read from the state alone (no view, no RNG):
 * the runtime counts a passed deadline against these players and arms bot
 * think timers for them. In the 조커 race everyone still eligible may claim or
 * pass, so all of them are active; a leave reservation is always allowed and
 * never awaited. Pure; never throws on a valid state.
 */
import type { PlayerId } from '../../core/types.ts';
import type { HulaState } from './types.ts';

export function activePlayers(s: HulaState): PlayerId[] {
  const p = s.phase;
  const out: PlayerId[] = [];
  for (let seat = 0; seat < s.seats.length; seat++) {
    if (!s.inRound[seat] || s.seats[seat].status !== 'playing') continue;
    let waits = false;
    switch (p.kind) {
      case 'draw':
      case 'act':
        waits = p.seat === seat;
        break;
      case 'thankYouAsk':
        waits = p.order[p.index] === seat;
        break;
      case 'thankYouRace':
        waits = p.discarder !== seat && !p.passed.includes(seat) && !p.claims.some((c) => c.seat === seat);
        break;
      case 'roundEnd':
        waits = !p.ready.includes(seat);
        break;
    }
    if (waits) out.push(s.seats[seat].id);
  }
  return out;
}

export function phaseOf(s: HulaState): string {
  return s.phase.kind;
}
