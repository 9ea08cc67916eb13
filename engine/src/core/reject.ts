/** The rejecting half of ApplyResult: it fits every game's state and event types. */
export type Rejected = { ok: false; reason: string };

/** A rejected action: Korean reason, state untouched. */
export function reject(reason: string): Rejected {
  return { ok: false, reason };
}

/** Korean reasons shared by every game. */
export const COMMON_REASONS = {
  malformed: '잘못된 요청이에요',
  notYourTurn: '지금은 내 차례가 아니에요',
  notAPlayer: '이 게임의 참가자가 아니에요',
  finished: '게임이 이미 끝났어요',
  noTimeout: '아직 시간이 남아 있어요',
} as const;
