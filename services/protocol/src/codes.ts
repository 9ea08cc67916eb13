/**
 * Stable machine codes of every refusal on the bus, each next to the Korean
 * text a player may see. Code decides control flow (a matchmaker stops trying
 * other workers on `roomExists`, a gateway tells `busy` apart from an illegal
 * move); the message is only ever shown.
 */
export const REFUSALS = {
  /** The message did not decode (not JSON, wrong shape, wrong version). */
  malformed: '잘못된 요청이에요',
  /** The room's queue is full: nothing was applied, the same actionId may be sent again later. */
  busy: '방이 바빠요. 잠시 후 다시 시도해 주세요',
  /** The game refused the action (its Korean reason goes in `reason`). */
  illegal: '할 수 없는 행동이에요',
  /**
   * The move was chosen on an older view than the room's current one (`RoomCommand.viewSeq`): someone
   * else moved first. Nothing changed; the newer view is on its way. A race, not a wrong move.
   */
  stale: '이미 지난 화면에서 보낸 동작이에요',
  botSeat: '봇 자리는 조작할 수 없어요',
  finished: '게임이 이미 끝났어요',
  draining: '이 서버는 종료 중이에요',
  full: '이 서버에 방이 가득 찼어요',
  unknownGame: '알 수 없는 게임이에요',
  badOptions: '옵션이 올바르지 않아요',
  players: '참가 인원이 이 게임에 맞지 않아요',
  duplicateSeat: '같은 참가자가 두 번 들어 있어요',
  roomExists: '이미 있는 방이에요',
  notHere: '이 서버에 없는 방이에요',
  sameWorker: '이미 이 서버에 있어요',
  nobodyTook: '옮길 서버가 없어 그대로 두었어요',
  noSnapshot: '방 정보를 찾을 수 없어요',
  /** The engine refused the snapshot's state (malformed, another game, or newer rules than this worker knows). */
  badSnapshot: '이 서버에서는 방 정보를 되살릴 수 없어요',
  /**
   * Every worker is out of headroom (rooms, event-loop delay or queued work past its limits): the table was
   * not opened, nothing else changed; try again later. A worker refuses an open with it when it has none.
   */
  capacity: '지금은 게임 서버가 모두 가득 찼어요. 잠시 후 다시 시도해 주세요',
  noWorkers: '지금은 게임 서버가 없어요. 잠시 후 다시 시도해 주세요',
  /** A spectator join to a room already watched by ROOM_MAX_SPECTATORS connected spectators. */
  spectatorsFull: '관전 자리가 가득 찼어요. 잠시 후 다시 시도해 주세요',
  /** Too many quick-match requests from one user (per replica, QUEUE_RATE_PER_USER a minute). */
  tooMany: '빠른 대전 요청이 너무 많아요. 잠시 후 다시 시도해 주세요',
  /** Too many quick-match requests from one client address (QUEUE_RATE_PER_ADDRESS a minute, shared over Redis). */
  addressQueueRate: '같은 네트워크에서 빠른 대전 요청이 너무 많아요. 잠시 후 다시 시도해 주세요',
  /** One client address started QUEUE_TABLES_PER_ADDRESS quick-match tables this minute. */
  addressTables: '같은 네트워크에서 시작된 게임이 너무 많아요. 잠시 후 다시 시도해 주세요',
  /** An open request reached the worker after its deadline: nothing was taken, the matchmaker has moved on. */
  expired: '요청 시간이 지나 처리하지 않았어요',
  /** A worker or store did not answer in time. */
  timeout: '서버가 응답하지 않아요',
  /** Anything unexpected on the serving side (logged there). */
  internal: '서버 오류가 났어요',
} as const;
export type RefusalCode = keyof typeof REFUSALS;
export const REFUSAL_CODES = Object.keys(REFUSALS) as RefusalCode[];

/** `reason` is the Korean text (the field name predates the codes); `code` is what programs read. */
export interface Refusal {
  ok: false;
  code: RefusalCode;
  reason: string;
}

/** A refusal with its code's standard message, or a more precise Korean one. */
export function refuse(code: RefusalCode, reason: string = REFUSALS[code]): Refusal {
  return { ok: false, code, reason };
}
