/**
 * §8.5 timers. The deadline is data derived from the state, so a restored
 * room re-arms it; the automatic action is an ordinary transition.
 */
import { reject, type ApplyResult } from '../../core/index.ts';
import { R } from './reasons.ts';
import { mover } from './active.ts';
import { mostHeldColor, turnAction } from './rules.ts';
import { Tx } from './turns.ts';
import type { OneCardAction, OneCardState } from './types.ts';
import { settleWindow } from './window.ts';

export const WILD4_RESPONSE_MS = 10_000;
/** §8.5: this many timeouts in a row make a player 자리 비움 … */
export const AWAY_AFTER_TIMEOUTS = 3;
/** … and from then on their timer is this short, until they act themselves. */
export const AWAY_TURN_MS = 5_000;

/**
 * The away rule lives here rather than in the runtime because `timeoutsInRow`
 * is game state: the deadline stays a pure function of the state, so a
 * restored room re-arms the same timer and a replayed record accepts the same steps.
 */
export function deadline(s: OneCardState): number | null {
  if (s.phase.kind === 'finished') return null;
  const full = s.phase.kind === 'wild4Response' ? WILD4_RESPONSE_MS : s.options.turnSeconds * 1000;
  const away = (s.timeoutsInRow[mover(s)] ?? 0) >= AWAY_AFTER_TIMEOUTS;
  return s.turnStartedAt + (away ? Math.min(full, AWAY_TURN_MS) : full);
}

/** The automatic action: never a card play (fairer, §8.5). */
export function autoAction(s: OneCardState): Exclude<OneCardAction, { type: 'declareOneCard' }> {
  switch (s.phase.kind) {
    case 'afterDraw':
      return { type: 'pass' };
    case 'wild4Response':
      return { type: 'acceptWild4' };
    case 'chooseColor':
      return { type: 'chooseColor', color: mostHeldColor(s, s.current) };
    default:
      return { type: 'draw' };
  }
}

export function onTimeout(state: OneCardState, now: number): ApplyResult<OneCardState> {
  if (state.phase.kind === 'finished') return reject(R.finished);
  const due = deadline(state);
  if (due === null || now < due) return reject(R.noTimeout);
  const who = mover(state);
  const action = autoAction(state);
  const tx = new Tx(state, now);
  tx.emit({ type: 'timeout', player: who, action: action.type });
  const rejected = turnAction(tx, who, action, true);
  if (rejected !== null) return rejected;
  settleWindow(tx, who);
  tx.s.timeoutsInRow = { ...tx.s.timeoutsInRow, [who]: (state.timeoutsInRow[who] ?? 0) + 1 };
  return { ok: true, state: tx.done(), events: tx.events };
}
