/**
 * The actions a session waits on an answer for, each under its client-chosen actionId, which the
 * room applies at most once: so it can be sent again after a reconnect, after the gateway answered
 * `unavailable`/`busy` for it, or after `actionResendMs` of silence, until `ack`/`rejected` settles it,
 * its retry budget runs out (`gaveUp`) or `actionGiveUpMs` passes (`timeout`). Each try carries the seq
 * of the view the move was chosen on, so a move that lost a race comes back `stale`, not `illegal`.
 */
import type { ActResult } from './types.ts';

export interface PendingAction {
  readonly roomId: string;
  readonly actionId: string;
  readonly action: unknown;
  /** The seq of the room's view the move was chosen on, or undefined before any view. */
  readonly viewSeq: number | undefined;
  readonly firstSentAt: number;
  /** Tries after an error for it (reconnects and silence do not count). */
  retries: number;
  /** The resend/retry timer, or null. */
  timer: unknown;
  readonly done: (r: ActResult) => void;
}

let counter = 0;
/** A fresh actionId: time, a process counter and randomness (ids must not repeat across reloads). */
export function newActionId(now: number = Date.now()): string {
  const rnd =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID().replace(/-/g, '').slice(0, 16)
      : Math.random().toString(36).slice(2, 12);
  counter = (counter + 1) % 1e6;
  return `a${now.toString(36)}${counter.toString(36)}${rnd}`.slice(0, 64);
}

export const CLOSED: ActResult = { ok: false, reason: '연결을 닫았어요', code: 'closed' };
export const TIMED_OUT: ActResult = {
  ok: false,
  reason: '서버가 응답하지 않아요. 다시 시도해 주세요',
  code: 'timeout',
};
export const GAVE_UP: ActResult = { ok: false, reason: '서버가 잠시 바빠요. 다시 시도해 주세요', code: 'gaveUp' };

/** A `rejected` answer as a result: `stale` is a race the player lost, not a wrong move. */
export const refused = (reason: string, code: string | undefined): ActResult => ({
  ok: false,
  reason,
  code,
  ...(code === 'stale' && { race: true }),
});
