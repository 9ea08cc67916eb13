/** Payloads on the NATS subjects of subjects.ts (JSON). */
import { z } from 'zod';
import { ChatPolicy } from './chat.ts';
import { REFUSAL_CODES } from './codes.ts';

const v = z.literal(1);

/** Every refusal: a stable machine `code` (what programs branch on) and the Korean `reason` (what people read). */
export const Refused = z.object({ ok: z.literal(false), code: z.enum(REFUSAL_CODES), reason: z.string() });

export const SeatInfo = z.object({
  id: z.string().min(1).max(64),
  name: z.string().min(1).max(32),
  /** Seat played by the room worker with the engine's bot policy. */
  bot: z.boolean(),
});
export type SeatInfo = z.infer<typeof SeatInfo>;

export const RoomSpec = z.object({
  roomId: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  game: z.string(),
  /** Raw options; the worker parses them with the game's optionsSchema. */
  options: z.record(z.string(), z.unknown()),
  players: z.array(SeatInfo).min(1).max(10),
  /** Who may chat and how (chat.ts); absent = phrases and emotes, players only. */
  chat: ChatPolicy.optional(),
});
export type RoomSpec = z.infer<typeof RoomSpec>;

export const CreateRoomRequest = z.object({ v, room: RoomSpec });
export type CreateRoomRequest = z.infer<typeof CreateRoomRequest>;
export const CreateRoomReply = z.union([
  z.object({ ok: z.literal(true), workerId: z.string(), shard: z.number().int() }),
  Refused,
]);
export type CreateRoomReply = z.infer<typeof CreateRoomReply>;

/** `create` for a new room; `restore` to take over a room from its Redis snapshot at a new lease epoch. */
export const OpenRoomRequest = z.object({
  v,
  roomId: z.string(),
  create: RoomSpec.optional(),
  restore: z.boolean().optional(),
  /**
   * Wall-clock ms (as `Date.now()`) after which the worker must not take the room any more: the asking
   * matchmaker has moved on to another worker by then, and a late lease would move the table twice.
   * The worker refuses with `expired` instead. Absent: no deadline (a matchmaker on fake time has no wall
   * clock to share with other processes).
   */
  deadline: z.number().int().optional(),
});
export const OpenRoomReply = z.union([
  z.object({ ok: z.literal(true), epoch: z.number().int(), seq: z.number().int() }),
  Refused,
]);
export type OpenRoomRequest = z.infer<typeof OpenRoomRequest>;
export type OpenRoomReply = z.infer<typeof OpenRoomReply>;

export const RoomCommand = z.object({
  v,
  userId: z.string(),
  actionId: z.string(),
  action: z.unknown(),
  gatewayId: z.string(),
  /** Gateway receive time, for latency metrics. */
  at: z.number(),
  /**
   * The gateway takes the frames the accepted action produced for its own viewers IN the reply
   * (`CommandReply.delivery`): one bus message and one socket write less per action. A gateway that
   * leaves it out (an older one, during a rolling upgrade) gets plain replies and a separate Delivery.
   */
  framesInReply: z.boolean().optional(),
  /**
   * The seq of the view the move was chosen on (the client's `action.seq`, additive): older than the
   * room's current seq, the move is refused `stale` without asking the game. Absent: judged as before.
   */
  viewSeq: z.number().int().min(0).optional(),
});
export type RoomCommand = z.infer<typeof RoomCommand>;
export const CommandReply = z.union([z.object({ ok: z.literal(true), seq: z.number().int() }), Refused]);
/**
 * With `delivery`: the action was accepted at `seq`, and these are the requesting gateway's frames of
 * that transition (`delivery.seq === seq`), which it would otherwise get as a `gatewayDeliver` message.
 * Only sent to a command that asked for it (`framesInReply`); travels as the binary envelope (delivery.ts).
 */
export type CommandReply = z.infer<typeof CommandReply> | { ok: true; seq: number; delivery: Delivery };

export const JoinRequest = z.object({
  v,
  userId: z.string(),
  spectate: z.boolean(),
  gatewayId: z.string(),
});
export type JoinRequest = z.infer<typeof JoinRequest>;
export const JoinReply = z.union([
  /**
   * `frame` is the complete `view` ServerMessage text for this viewer at `seq`, ready to send;
   * `owner` (`workerId/incarnation`) names the process that answered, so the gateway learns who runs the room.
   */
  z.object({
    ok: z.literal(true),
    role: z.enum(['player', 'spectator']),
    seq: z.number().int(),
    owner: z.string(),
    frame: z.string(),
  }),
  Refused,
]);
export type JoinReply = z.infer<typeof JoinReply>;

export const PresenceChange = z.object({
  v,
  userId: z.string(),
  gatewayId: z.string(),
  connected: z.boolean(),
  /** The viewer unsubscribed from the room (left the table screen), not just lost its socket. */
  left: z.boolean().optional(),
  /**
   * Which of the user's viewers on this gateway changed (a seated player may also watch as a
   * spectator from another socket). Absent (older gateways): both.
   */
  role: z.enum(['player', 'spectator']).optional(),
});
export type PresenceChange = z.infer<typeof PresenceChange>;

/**
 * One publish per gateway per transition: each viewer's frame, encoded once (binary envelope,
 * `delivery.ts`). `viewer` is the user id of a seated player (send to that user's sockets of this
 * room), or null for the one spectator frame every spectator of the room on this gateway gets.
 * `kind` says whether the frame is a `view` or a `presence` ServerMessage, so the gateway never
 * opens it. `seq` only grows per room; equal or older seqs can be dropped. `owner`
 * (`workerId/incarnation`) names the process that runs the room now.
 */
export interface DeliveryFrame {
  kind: 'view' | 'presence';
  viewer: string | null;
  /** UTF-8 text of the ServerMessage, written to the socket as it is. */
  bytes: Uint8Array;
}
export interface Delivery {
  roomId: string;
  seq: number;
  owner: string;
  frames: DeliveryFrame[];
}

export const WorkerHeartbeat = z.object({
  v,
  workerId: z.string(),
  shard: z.number().int(),
  /**
   * How many rooms, not which: the heartbeat stays the same size at any table count. Who runs a
   * given room is its fenced lease in the snapshot store (`ownedBy`, `lease`).
   */
  rooms: z.number().int(),
  actionsPerSec: z.number(),
  loopLagMs: z.number(),
  draining: z.boolean(),
  at: z.number(),
  /**
   * Random per process start. A worker restarted under the same id is a new
   * incarnation: the rooms of the old one are gone and get failed over.
   */
  incarnation: z.string().optional(),
  /**
   * The TTL the worker gives its room leases: with it a matchmaker reads from a lease's remaining time when
   * the worker last renewed it, a sign of life when its heartbeats are late (absent: older workers).
   */
  leaseTtlMs: z.number().int().positive().optional(),
  /**
   * New rooms the worker will open now, from what it measures (rooms, event-loop delay, queued work); 0 = it
   * refuses opens (code `capacity`) and the matchmaker places none there. Absent: older workers, no limit known.
   */
  headroom: z.number().int().min(0).optional(),
});
export type WorkerHeartbeat = z.infer<typeof WorkerHeartbeat>;

/**
 * Payload of subjects.workerPing: a matchmaker asks a worker whether it is on the bus. What matters is
 * mostly the failure: NATS answers "no responders" at once when the worker's subscription is gone (its
 * process died, or its connection dropped), long before its heartbeats are missed.
 */
export const WorkerPing = z.object({ v, from: z.string() });
export type WorkerPing = z.infer<typeof WorkerPing>;
export const WorkerPong = z.object({ v, workerId: z.string(), incarnation: z.string() });
export type WorkerPong = z.infer<typeof WorkerPong>;

export const GatewayHeartbeat = z.object({ v, gatewayId: z.string(), sockets: z.number().int(), at: z.number() });
export type GatewayHeartbeat = z.infer<typeof GatewayHeartbeat>;

export const QueueRequest = z.object({
  v,
  userId: z.string(),
  name: z.string(),
  gatewayId: z.string(),
  game: z.string(),
  mode: z.string(),
  players: z.number().int().min(2).max(10),
  cancel: z.boolean().optional(),
  /** The user accepts bots in the seats still empty after the matchmaker's wait (absent = yes). */
  bots: z.boolean().optional(),
  /**
   * The same on every try of one request (additive): a matchmaker that already took it answers `ok`
   * again without queueing the user anew. Without it a try that timed out but was served (a slow
   * box) and its retry seated one player at two tables.
   */
  requestId: z.string().min(1).max(64).optional(),
  /**
   * The client's address as the gateway counts it (the TCP peer, or behind GATEWAY_TRUST_PROXY_HOPS
   * proxies the X-Forwarded-For entry): the matchmaker's per-address budgets (additive; absent = none).
   */
  addr: z.string().max(64).optional(),
});
export type QueueRequest = z.infer<typeof QueueRequest>;
export const QueueReply = z.union([z.object({ ok: z.literal(true) }), Refused]);
export type QueueReply = z.infer<typeof QueueReply>;
export const QueueMatched = z.object({
  v,
  userId: z.string(),
  roomId: z.string(),
  game: z.string(),
  mode: z.string(),
});
export type QueueMatched = z.infer<typeof QueueMatched>;
/** To one waiting user's gateway whenever their queue changes: its size and when bots would fill it. */
export const QueueStatus = z.object({
  v,
  userId: z.string(),
  game: z.string(),
  mode: z.string(),
  players: z.number().int(),
  waiting: z.number().int(),
  botsAt: z.number().nullable(),
  /**
   * True while this queue's last table was refused `capacity` (additive): every worker is out of
   * headroom, the players stay queued and the matchmaker tries the table again about every second.
   */
  full: z.boolean().optional(),
  /**
   * Set when the user was taken out of the queue instead of seated (additive): their address had
   * started its budget of tables by the time a table formed. The gateway tells the client `queueRejected`.
   */
  refused: Refused.optional(),
});
export type QueueStatus = z.infer<typeof QueueStatus>;

export const RoomFinished = z.object({
  v,
  roomId: z.string(),
  game: z.string(),
  mode: z.string(),
  players: z.array(SeatInfo),
  /** engine GameRecord: options, players, seedCommit, seed, actions, result — enough to replay exactly. */
  record: z.record(z.string(), z.unknown()),
  result: z.record(z.string(), z.unknown()),
  finishedAt: z.number(),
});
export type RoomFinished = z.infer<typeof RoomFinished>;

/**
 * A worker let a game room go for good. `roomId` is the game id (the lobby's `currentGameId`); `finished`
 * says a RoomFinished exists for it, which the lobby must have recorded before it frees its lobby room
 * (the record links to the lobby room through `currentGameId`): it answers a fact that came first "not yet".
 */
export const RoomClosed = z.object({
  v,
  roomId: z.string(),
  finished: z.boolean(),
  at: z.number(),
});
export type RoomClosed = z.infer<typeof RoomClosed>;

/**
 * A seated person left a game in progress for good (room-worker departures.ts): the gateway said they left
 * the room, or their socket stayed away past the worker's VIEWER_GRACE_MS, and no other socket of theirs is
 * seated there. Gateway deaths do not count (players come back through another gateway), nor departures
 * after the game ended (people go back to the waiting room then). `roomId` is the game id; `at` is when the
 * worker saw the departure, so the lobby can tell a seat taken again later from the one that was left.
 */
export const PlayerLeft = z.object({
  v,
  roomId: z.string(),
  userId: z.string(),
  reason: z.enum(['left', 'graceLapsed']),
  at: z.number(),
});
export type PlayerLeft = z.infer<typeof PlayerLeft>;

/** A room whose stored state is gone (the store was wiped): its game cannot go on; the lobby may reopen it. */
export const RoomLost = z.object({
  v,
  roomId: z.string(),
  reason: z.literal('storeLost'),
  at: z.number(),
});
export type RoomLost = z.infer<typeof RoomLost>;

/** Asked by a gateway before a join (GATEWAY_ROOM_ACCESS=lobby); `roomId` is the game room id. */
export const RoomAccessRequest = z.object({ v, userId: z.string(), roomId: z.string() });
export type RoomAccessRequest = z.infer<typeof RoomAccessRequest>;
/** `allowed` false: the game belongs to a private lobby room the user is not a member of. */
export const RoomAccessReply = z.union([z.object({ ok: z.literal(true), allowed: z.boolean() }), Refused]);
export type RoomAccessReply = z.infer<typeof RoomAccessReply>;

/** Payload of subjects.workerDraining: a worker is leaving and handing its rooms over. */
export const RoomsReleased = z.object({
  v,
  workerId: z.string(),
  /** How many rooms it is handing over (a count, so the message stays small at any table count). */
  rooms: z.number().int(),
  incarnation: z.string().optional(),
});
export type RoomsReleased = z.infer<typeof RoomsReleased>;

/** Ask a matchmaker to place rooms on other live workers, which restore them at the next epoch. */
export const ReassignRequest = z.object({
  v,
  /** Worker the rooms leave; never chosen as a target. */
  fromWorkerId: z.string(),
  roomIds: z.array(z.string()).max(1000),
  reason: z.enum(['drain', 'dead', 'orphan', 'migrate']),
  /** Live migration to a chosen worker; if it refuses, the rooms go wherever placement puts them. */
  toWorkerId: z.string().optional(),
});
export type ReassignRequest = z.infer<typeof ReassignRequest>;
export const ReassignReply = z.object({
  placed: z.array(z.object({ roomId: z.string(), workerId: z.string() })),
  failed: z.array(z.string()),
});
export type ReassignReply = z.infer<typeof ReassignReply>;

/** Payload of subjects.workerMigrate. */
export const MigrateRequest = z.object({
  v,
  roomIds: z.array(z.string()).min(1).max(1000),
  /** Target worker; absent = the matchmaker's placement (never the source). */
  toWorkerId: z.string().optional(),
});
export type MigrateRequest = z.infer<typeof MigrateRequest>;
export const MigrateReply = z.object({
  moved: z.array(z.object({ roomId: z.string(), workerId: z.string() })),
  /** Rooms that stayed, with why (not here, finished, or nobody could take it and it was reopened here). */
  stayed: z.array(z.object({ roomId: z.string(), code: z.enum(REFUSAL_CODES), reason: z.string() })),
});
export type MigrateReply = z.infer<typeof MigrateReply>;

/** Payload of subjects.rebalance. */
export const RebalanceRequest = z.object({
  v,
  /** Upper bound on tables moved by this call, so one command cannot stampede the cluster. */
  maxMoves: z.number().int().min(1).max(100_000).default(1000),
  /** Report the plan without moving anything. */
  dryRun: z.boolean().default(false),
});
export type RebalanceRequest = z.infer<typeof RebalanceRequest>;
export const RebalanceReply = z.object({
  before: z.record(z.string(), z.number()),
  planned: z.number(),
  moved: z.number(),
  /** Planned moves that did not happen (finished meanwhile, or no worker took them: they stayed). */
  stayed: z.number(),
  /** Rooms per worker once every planned move is done (the plan's outcome; heartbeats show the real one). */
  after: z.record(z.string(), z.number()),
});
export type RebalanceReply = z.infer<typeof RebalanceReply>;
