/**
 * Messages between a client (browser, bot, load test) and the gateway, as
 * JSON text frames. Every message carries `v` so old clients get a clear
 * error instead of silent misbehaviour when the protocol changes.
 */
import { z } from 'zod';
import { ChatMessage, ChatSend } from './chat.ts';

export const PROTOCOL_VERSION = 1;
/**
 * What a client understands, said in its hello; the envelope (`v`) stays 1. A gateway refuses a
 * hello below `MIN_CLIENT_REVISION` with `versionMismatch` ("reload"), so a tab still running a
 * bundle from before a deploy is told to reload instead of drawing views it cannot read.
 * 1 (or none): the first protocol. 2: a view frame leaves out the game's fixed members and sends
 * them in `fixed` when the receiver may lack them (see the `view` message below).
 */
export const PROTOCOL_REVISION = 2;
export const MIN_CLIENT_REVISION = 2;
const v = z.literal(PROTOCOL_VERSION);
const roomId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
/** Client-chosen id that makes a retried action idempotent. */
const actionId = z.string().min(1).max(64);
/** A view's seq as a client echoes it back (`action.seq`). */
const viewSeq = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const ClientMessage = z.discriminatedUnion('t', [
  /** `revision`: the client's PROTOCOL_REVISION (absent = 1). */
  z.object({
    v,
    t: z.literal('hello'),
    token: z.string().min(1).max(4096),
    revision: z.number().int().min(1).max(1_000_000).optional(),
  }),
  /** Subscribe to a room: as its seated player if the token's user has a seat, else as a spectator. */
  z.object({ v, t: z.literal('join'), roomId, spectate: z.boolean().optional() }),
  z.object({ v, t: z.literal('leave'), roomId }),
  /**
   * `action` is validated by the game's own actionSchema on the room worker. `seq` (additive): the seq of
   * the view the move was chosen on; a worker refuses a move chosen on an older view than its current one
   * with `stale` (someone else moved first), not `illegal`. Left out by older clients: judged as before.
   */
  z.object({ v, t: z.literal('action'), roomId, actionId, action: z.unknown(), seq: viewSeq.optional() }),
  z.object({
    v,
    t: z.literal('queue'),
    game: z.string().max(32),
    mode: z.string().max(32),
    players: z.number().int().min(2).max(10),
    /** May bots take the seats nobody came for after the matchmaker's wait (default yes)? */
    bots: z.boolean().optional(),
  }),
  z.object({ v, t: z.literal('unqueue') }),
  z.object({ v, t: z.literal('ping'), at: z.number() }),
  /** Table chat (chat.ts): relayed by the room's owner to everyone watching. */
  ChatSend,
]);
export type ClientMessage = z.infer<typeof ClientMessage>;
export type ClientAction = Extract<ClientMessage, { t: 'action' }>;

const ROOM_ID = /^[A-Za-z0-9_-]{1,64}$/;
/**
 * The per-action client message in its plain shape, checked by hand: the gateway skips the zod union for
 * it (one per action; the union's walk showed in its profile). Anything this refuses still goes through
 * `ClientMessage`, which gives the reason; `contract.test.ts` checks it never accepts what that refuses.
 */
export const isClientAction = (raw: unknown): raw is ClientAction => {
  if (raw === null || typeof raw !== 'object') return false;
  // The parsed JSON as a bag of fields, each narrowed where it is read.
  const r = raw as Readonly<Record<string, unknown>>;
  return (
    r.v === PROTOCOL_VERSION &&
    r.t === 'action' &&
    typeof r.roomId === 'string' &&
    ROOM_ID.test(r.roomId) &&
    typeof r.actionId === 'string' &&
    r.actionId.length >= 1 &&
    r.actionId.length <= 64 &&
    (r.seq === undefined || (Number.isSafeInteger(r.seq) && (r.seq as number) >= 0)) &&
    'action' in r
  );
};

export const PresenceEntry = z.object({
  id: z.string(),
  connected: z.boolean(),
  /** Timed out several turns in a row (the spec's "자리 비움"). */
  away: z.boolean(),
  bot: z.boolean(),
});
export type PresenceEntry = z.infer<typeof PresenceEntry>;

/*
 * Every server→client frame, one schema each (types inferred from them); `ServerMessage` is their union.
 * Their encoders live in client-wire.ts (`@joke/protocol/wire`): nothing else writes a frame.
 */
export const WelcomeFrame = z.object({
  v,
  t: z.literal('welcome'),
  userId: z.string(),
  name: z.string(),
  serverTime: z.number(),
});
/**
 * The viewer's own view after transition `seq`, with the events of that
 * transition already filtered for this viewer. `result` once the game is over.
 *
 * `fixed` (additive): the view members that never change during one game
 * (game, rules version, seed commitment, options, who plays…), left out of
 * `view`. The whole view is `{ ...fixed, ...view }`. A frame without `fixed`
 * means "the same fixed members as the last frame of this room you got that
 * had them": keep the last one per room. The server sends it in every join
 * reply, in the first frame after a room changed hands, and whenever it
 * changes; a client holding none for the room when a view arrives without
 * it sends `join` again for that room and ignores the frame. The header up
 * to `"view":` is written first and always in this order (the bots read it
 * by bytes); `fixed` comes after `presence`.
 *
 * `presence` (optional since 2026-12-05): left out when it is the same list as the last one this
 * socket got for the room (a join reply, a `presence` message or a view). Keep the last one per
 * room; the server sends it in every join reply, and in a view whenever it may not be held.
 */
export const ViewFrame = z.object({
  v,
  t: z.literal('view'),
  roomId: z.string(),
  seq: z.number().int(),
  role: z.enum(['player', 'spectator']),
  view: z.unknown(),
  events: z.array(z.unknown()),
  presence: z.array(PresenceEntry).optional(),
  fixed: z.record(z.string(), z.unknown()).optional(),
  result: z.unknown().optional(),
});
/** The action was applied and its state persisted as `seq`. */
export const AckFrame = z.object({
  v,
  t: z.literal('ack'),
  roomId: z.string(),
  actionId: z.string(),
  seq: z.number().int(),
});
/**
 * The action was refused (Korean reason); nothing changed. `code` (additive) is the machine code:
 * `illegal` for the game's rules, `stale` for a move chosen on a view older than the room's current
 * one (a race: the newer view is on its way), or `botSeat`, `finished`, `malformed`… A full room queue
 * is not a rejection: it arrives as `error busy` with the actionId, to be sent again.
 */
export const RejectedFrame = z.object({
  v,
  t: z.literal('rejected'),
  roomId: z.string(),
  actionId: z.string(),
  reason: z.string(),
  code: z.string().optional(),
});
/** Protocol-level problem (Korean message): malformed frame, not signed in, rate limited… */
export const ErrorFrame = z.object({
  v,
  t: z.literal('error'),
  code: z.string(),
  message: z.string(),
  /** Set when the error concerns one action (e.g. `unavailable`): retry it with the same actionId. */
  roomId: z.string().optional(),
  actionId: z.string().optional(),
  /** With `queueRejected` (additive): the matchmaker's refusal code (REFUSALS), e.g. `addressTables`. */
  refusal: z.string().optional(),
});
export const PresenceFrame = z.object({
  v,
  t: z.literal('presence'),
  roomId: z.string(),
  presence: z.array(PresenceEntry),
});
export const QueuedFrame = z.object({
  v,
  t: z.literal('queued'),
  game: z.string(),
  mode: z.string(),
  players: z.number().int(),
});
export const MatchedFrame = z.object({
  v,
  t: z.literal('matched'),
  roomId: z.string(),
  game: z.string(),
  mode: z.string(),
});
/**
 * How the wait goes (additive): `waiting` people (you included) in this queue; `botsAt` the server
 * time at which bots fill the empty seats, or null when they will not.
 */
export const QueueStatusFrame = z.object({
  v,
  t: z.literal('queueStatus'),
  game: z.string(),
  mode: z.string(),
  players: z.number().int(),
  waiting: z.number().int(),
  botsAt: z.number().nullable(),
  /** True while the fleet is full (additive): the table formed but no worker had room; it is retried. */
  full: z.boolean().optional(),
});
export const PongFrame = z.object({ v, t: z.literal('pong'), at: z.number(), serverTime: z.number() });

export const ServerMessage = z.discriminatedUnion('t', [
  WelcomeFrame,
  ViewFrame,
  AckFrame,
  RejectedFrame,
  ErrorFrame,
  PresenceFrame,
  QueuedFrame,
  MatchedFrame,
  QueueStatusFrame,
  PongFrame,
  ChatMessage,
]);
export type ServerMessage = z.infer<typeof ServerMessage>;

/** Error codes of `error` messages; the Korean text is what players see. */
export const ERRORS = {
  malformed: '잘못된 메시지예요',
  tooLarge: '메시지가 너무 커요',
  unauthenticated: '먼저 로그인해 주세요',
  badToken: '로그인 정보가 올바르지 않아요. 다시 로그인해 주세요',
  rateLimited: '너무 빨리 보내고 있어요. 잠시 후 다시 시도해 주세요',
  versionMismatch: '앱을 새로 고쳐 주세요 (프로토콜 버전이 달라요)',
  noRoom: '방을 찾을 수 없어요',
  notJoined: '먼저 방에 들어가 주세요',
  unavailable: '서버가 잠시 바빠요. 곧 다시 연결할게요',
  /** The room's queue is full; carries roomId (and actionId for an action): send the same again shortly. */
  busy: '방이 바빠요. 잠시 후 다시 시도해 주세요',
  /**
   * A join refused for load (issue 37: shed load, counted as refused, not an error): the room's worker is
   * behind on its playing tables and deferred it past its wait, or its room's queue was full, or it was too
   * slow to answer within the gateway's retry budget or time; carries roomId: the client joins again
   * shortly. (A quick-match request refused so comes as `queueRejected` with refusal `capacity`.)
   */
  capacity: '게임 서버가 붐벼서 잠시 기다리고 있어요. 곧 다시 들어갈게요',
  /**
   * The game server's store lost this table's state (wiped, or restarted without persistence): the game
   * cannot go on. Carries roomId; the lobby room can be started again.
   */
  tableLost: '서버 저장소에 문제가 생겨 이 테이블을 되살릴 수 없어요. 로비로 돌아가 방을 다시 시작해 주세요',
  /** The game belongs to a private room the user is not a member of (checked with the lobby); carries roomId. */
  privateRoom: '비공개 방이에요. 초대 코드로 들어온 사람만 보거나 참여할 수 있어요',
  /** The room has ROOM_MAX_SPECTATORS connected spectators; carries roomId. */
  spectatorsFull: '관전 자리가 가득 찼어요. 잠시 후 다시 시도해 주세요',
  /** The socket is in GATEWAY_MAX_ROOMS_PER_SOCKET rooms already; carries roomId. */
  tooManyRooms: '동시에 들어가 있을 수 있는 방이 너무 많아요. 다른 방에서 나간 뒤 다시 시도해 주세요',
  /** The user holds GATEWAY_MAX_SOCKETS_PER_USER sockets on this gateway; the socket closes with 4429. */
  tooManySockets: '같은 계정으로 열린 연결이 너무 많아요. 다른 창이나 탭을 닫고 다시 시도해 주세요',
  /** GATEWAY_MAX_PENDING_PER_SOCKET requests still wait for an answer; carries roomId/actionId: send it again later. */
  tooManyPending: '처리 중인 요청이 너무 많아요. 답을 받은 뒤에 다시 보내 주세요',
  /**
   * The matchmaker refused or ended a quick-match request; `message` is its Korean reason and `refusal`
   * its code (`tooMany`, `addressQueueRate`, `addressTables`, `unknownGame`…). The client stops waiting.
   */
  queueRejected: '빠른 대전을 시작할 수 없어요',
} as const;
export type ErrorCode = keyof typeof ERRORS;
