/**
 * The room's calls into game code that are not a plain `apply`: guarded so a
 * throwing game cannot take the room loop down, and the questions the room
 * asks the game (who timed out, which fields only the runtime may set).
 */
import type { AnyGame } from '@joke/engine';
import type { RoomHost, SeatMeta } from './room-types.ts';

const ENGINE_ERROR = '서버에서 이 행동을 처리하지 못했어요';

/** `crashed`: the game code threw (code `internal`), as opposed to refusing by its rules. */
export type Safely = <T extends { ok: boolean }>(f: () => T) => T | { ok: false; reason: string; crashed: true };

/** Runs game code; a throw is logged, counted and turned into a Korean refusal. */
export function guard(host: RoomHost, roomId: string): Safely {
  return (f) => {
    try {
      return f();
    } catch (err) {
      host.metrics.errors.inc({ kind: 'game' });
      host.log.error({ err, roomId }, 'game code threw');
      return { ok: false, reason: ENGINE_ERROR, crashed: true };
    }
  };
}

/**
 * Human seats that had something to do when the deadline passed: those are the ones who timed out.
 * The game says whom it was waiting on (`activePlayers`); asking a bot instead would spend the bots'
 * random stream on a question and count optional moves as owed.
 */
export function dueSeats(game: AnyGame, state: unknown, seats: readonly SeatMeta[]): SeatMeta[] {
  let active: readonly string[];
  try {
    active = game.activePlayers(state);
  } catch {
    // A failure here must not block the timeout itself.
    return [];
  }
  return seats.filter((s) => !s.bot && active.includes(s.id));
}

/** Markers only the runtime may set (e.g. "made by the substitute"): a client sending one is refused. */
export function hasRuntimeOnlyField(game: AnyGame, action: unknown): boolean {
  const fields = game.runtimeOnlyFields;
  if (!fields || action === null || typeof action !== 'object') return false;
  for (const f of fields) if (Object.hasOwn(action, f)) return true;
  return false;
}
