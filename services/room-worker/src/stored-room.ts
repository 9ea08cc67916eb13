/**
 * A room as its store holds it, brought to the state its last owner acknowledged: the last whole
 * snapshot (snapshot.ts), its state checked by the game (`restoreState`: shape, rules version, an older
 * shape migrated — before any step, since the steps were applied to a state of the current shape), then
 * every stored step after the snapshot's seq replayed through the game in order, exactly as the live
 * room applied it: a timeout through `onTimeout(state, n)`, any other step through `apply(state, a, x, n)`.
 *
 * A step the game refuses (or throws on), a missing or out-of-order step, or steps that do not end at
 * the stored seq mean the store does not hold what the owner acknowledged: the room is refused, like an
 * undecodable snapshot, and never guessed at. Restores use it, and so does anything else that needs a
 * room's current state from the store (tests; other packages through the index): one replay, not copies.
 */
import type { AnyGame } from '@joke/engine';
import type { StoredRoom } from '@joke/stores';
import type { RoomData, StepRec } from './room-types.ts';
import { decodeBase } from './snapshot.ts';

export type StoredState =
  | {
      ok: true;
      game: AnyGame;
      /** The room at `seq`: the snapshot's metadata with the replayed state. */
      data: RoomData;
      seq: number;
      /** Every stored step (the whole record), parsed. */
      steps: StepRec[];
      /** Steps replayed on top of the snapshot. */
      replayed: number;
    }
  | {
      ok: false;
      /** `unknownGame`: not a snapshot this worker reads (as before steps-only writes); else `badSnapshot`. */
      code: 'unknownGame' | 'badSnapshot';
      /** What is wrong, for the log. */
      problem: string;
      /** The game's own (Korean) reason, when it refused the snapshot's state. */
      reason?: string;
    };

type Refused = Extract<StoredState, { ok: false }>;
const bad = (problem: string, reason?: string): Refused => ({ ok: false, code: 'badSnapshot', problem, reason });

export function roomFromStore(
  stored: Pick<StoredRoom, 'roomId' | 'seq' | 'data' | 'steps'>,
  games: Readonly<Record<string, AnyGame>>,
): StoredState {
  const base = decodeBase(stored.data);
  if (!base) return { ok: false, code: 'unknownGame', problem: 'snapshot text not readable' };
  const game = Object.hasOwn(games, base.data.game) ? games[base.data.game] : undefined;
  if (!game) return { ok: false, code: 'unknownGame', problem: `game ${base.data.game} not served here` };
  if (base.data.roomId !== stored.roomId)
    return { ok: false, code: 'unknownGame', problem: `snapshot of room ${base.data.roomId}` };
  const checked = game.restoreState?.(base.data.state) ?? { ok: true as const, state: base.data.state };
  if (!checked.ok) return bad(`state refused by the game: ${checked.reason}`, checked.reason);
  let steps: StepRec[];
  try {
    steps = stored.steps.map((s) => JSON.parse(s) as StepRec);
  } catch {
    return bad('a stored step is not JSON');
  }
  const at = base.at ?? stored.seq;
  if (at > stored.seq) return bad(`snapshot at seq ${at} is ahead of the stored seq ${stored.seq}`);
  let state = checked.state;
  let seq = at;
  for (const step of steps) {
    if (!(step.s > at)) continue;
    if (step.s !== seq + 1) return bad(`step ${seq + 1} missing (next stored step is ${step.s})`);
    let r;
    try {
      r = step.t ? game.onTimeout(state, step.n) : game.apply(state, step.a!, step.x, step.n);
    } catch (err) {
      return bad(`game code threw replaying step ${step.s}: ${String(err)}`);
    }
    if (!r.ok) return bad(`step ${step.s} refused on replay: ${r.reason}`);
    state = r.state;
    seq = step.s;
  }
  if (seq !== stored.seq) return bad(`steps end at seq ${seq}, the stored seq is ${stored.seq}`);
  return { ok: true, game, data: { ...base.data, state }, seq, steps, replayed: seq - at };
}
