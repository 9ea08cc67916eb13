/**
 * Who the game is waiting on, read from the state alone (no view, no RNG):
 * the runtime counts a passed deadline against these players and arms bot
 * think timers for them. The out-of-turn 원카드 call and catch are never
 * awaited, so they make nobody active. Pure; never throws on a valid state.
 */
import type { PlayerId } from '../../core/index.ts';
import type { OneCardState } from './types.ts';

/** Who must act now (the +4 target while a challenge is open, else the current player). */
export function mover(s: OneCardState): PlayerId {
  return s.phase.kind === 'wild4Response' ? s.phase.target : s.current;
}

export function activePlayers(s: OneCardState): PlayerId[] {
  return s.phase.kind === 'finished' ? [] : [mover(s)];
}

export function phaseOf(s: OneCardState): string {
  return s.phase.kind;
}
