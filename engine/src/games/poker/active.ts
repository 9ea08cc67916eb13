/**
 * Who the game is waiting on, read from the state alone (no view, no RNG):
 * the runtime counts a passed deadline against these players and arms bot
 * think timers for them. Leaving is always allowed and never awaited, so it
 * makes nobody active. Also what the clock plays for an awaited player
 * (`timeoutAction`), which timeouts.ts and rules.ts (for leavers) both use, so
 * neither imports the other. Pure; never throws on a valid state.
 */
import type { PlayerId } from '../../core/types.ts';
import { toCallOf } from './betting.ts';
import { autoChoice } from './flow-seven.ts';
import type { HandPlayer, HandState, PokerAction, PokerState } from './types.ts';

export function activePlayers(s: PokerState): PlayerId[] {
  if (s.phase === 'rebuy') return [...s.rebuyPending];
  if (s.phase !== 'playing' || !s.hand) return [];
  const h = s.hand;
  if (h.phase === 'betting') return h.betting?.toAct ? [h.betting.toAct] : [];
  const out: PlayerId[] = [];
  for (const id of h.seatOrder) {
    const p = h.players[id];
    if (p && waitsOn(h, p)) out.push(id);
  }
  return out;
}

function waitsOn(h: HandState, p: HandPlayer): boolean {
  if (h.phase === 'handEnd') return !p.ready;
  if (p.folded) return false;
  switch (h.phase) {
    case 'choice':
      return !p.choiceDone;
    case 'draw':
      return p.drawPending === null;
    case 'declare':
      return p.declare === null;
    default:
      return false;
  }
}

/** The table's phase, or the hand's street kind while a hand is played. */
export function phaseOf(s: PokerState): string {
  return s.phase === 'playing' && s.hand ? s.hand.phase : s.phase;
}

/** The automatic action (§8.5) of `id` at the decision the hand now waits for: betting, choice, draw or declaration. */
export function timeoutAction(s: PokerState, id: PlayerId): PokerAction {
  const h = s.hand!;
  const p = h.players[id];
  const korean = s.betting === 'korean';
  switch (h.phase) {
    case 'choice':
      return { type: 'choose', ...autoChoice(p.choice!) };
    case 'draw':
      return { type: 'draw', cardIds: [] };
    case 'declare':
      return { type: 'declare', side: 'high' };
    default:
      if (toCallOf(h, p) === 0) return { type: korean ? 'k.check' : 'nl.check' };
      return { type: korean ? 'k.die' : 'nl.fold' };
  }
}
