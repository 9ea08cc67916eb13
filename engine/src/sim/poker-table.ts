/**
 * One poker table played to its end by policies through the engine contract: each step, the first seat
 * whose policy has a move makes it; when nobody has one the clock jumps to the table's deadline and the
 * timeout is applied. Shared by the bot-against-bot match (bot-match.ts) and the fair-play simulator
 * (fairplay/world.ts), which differ only in who decides and how long they think.
 *
 * Pure and deterministic for its inputs. Failure modes (thrown, they are bugs of a policy or the engine):
 * a policy's illegal move, a timeout the engine refuses, a table where nobody can act and no timer runs.
 */
import type { GameEvent } from '../core/types.ts';
import type { RecordedStep } from '../record/record.ts';
import { poker, type PokerView } from '../games/poker/index.ts';
import type { PokerAction, PokerState } from '../games/poker/types.ts';

/** A seat's move on its view and the milliseconds it thinks first; null: no move now. */
export type SeatPolicy = (id: string, view: PokerView) => { action: PokerAction; thinkMs: number } | null;

export function playPokerTable(
  start: PokerState,
  seats: readonly string[],
  now: number,
  policy: SeatPolicy,
  onStep: (step: RecordedStep, state: PokerState, events: readonly GameEvent[]) => void = () => {},
): PokerState {
  let state = start;
  // A bound, as a guard against a policy that never ends a game: past it the table stops where it is.
  for (let step = 0; step < 200_000 && !poker.result(state); step++) {
    let acted = false;
    for (const id of seats) {
      const move = policy(id, poker.view(state, id));
      if (!move) continue;
      now += move.thinkMs;
      const r = poker.apply(state, id, move.action, now);
      if (!r.ok) throw new Error(`${id} made an illegal move: ${r.reason}`);
      state = r.state;
      onStep({ actor: id, action: move.action, now }, state, r.events);
      acted = true;
      break;
    }
    if (!acted) {
      const d = poker.deadline(state);
      if (d === null) throw new Error('nobody can act and no timer runs');
      now = Math.max(now, d);
      const r = poker.onTimeout(state, now);
      if (!r.ok) throw new Error(`timeout refused: ${r.reason}`);
      state = r.state;
      onStep({ timeout: true, now }, state, r.events);
    }
  }
  return state;
}
