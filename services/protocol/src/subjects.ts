/**
 * The NATS subject map (also used by the in-process bus in embedded mode).
 * Rooms are addressed by id, not by shard: the worker that owns a room
 * subscribes to that room's subjects, so a gateway never needs a directory
 * and a hand-over is just one worker unsubscribing and another subscribing.
 * Deliveries go to one subject per gateway, so one publish reaches exactly
 * the gateway that hosts the viewers.
 */
const P = 'joke.v1';

export const subjects = {
  /** request → CommandReply. Payload RoomCommand. Served by the room's owner. */
  roomCommand: (roomId: string) => `${P}.room.${roomId}.cmd`,
  /** request → JoinReply. A gateway subscribes one viewer of one room. */
  roomJoin: (roomId: string) => `${P}.room.${roomId}.join`,
  /** publish. PresenceChange from a gateway (socket opened/closed, viewer left). */
  roomPresence: (roomId: string) => `${P}.room.${roomId}.presence`,
  /** request → OpenRoomReply. The matchmaker asks one worker to create or restore a room. */
  workerOpen: (workerId: string) => `${P}.worker.${workerId}.open`,
  /**
   * request → MigrateReply. Live migration: the worker hands the listed rooms to another worker (the named
   * one, or the matchmaker's choice) while their players keep their sockets. Sent by `rebalance`.
   */
  workerMigrate: (workerId: string) => `${P}.worker.${workerId}.migrate`,
  /**
   * request WorkerPing → WorkerPong. Matchmakers probe each live worker often; "no responders" means the
   * worker is off the bus and its rooms fail over without waiting for its heartbeats to stop.
   */
  workerPing: (workerId: string) => `${P}.worker.${workerId}.ping`,
  /** publish. WorkerHeartbeat, every `heartbeatMs`. */
  workerHeartbeat: `${P}.worker.heartbeat`,
  /** publish. A draining worker announces it is leaving (RoomsReleased lists what it handed over). */
  workerDraining: `${P}.worker.draining`,
  /** request → CreateRoomReply. Lobby asks the matchmaker to place and start a room. Queue group `mm`. */
  createRoom: `${P}.mm.createRoom`,
  /** request → QueueReply. Gateway enqueues a user for quick-match. Queue group `mm`. */
  queue: `${P}.mm.queue`,
  /** publish. Delivery of pre-encoded frames to one gateway. */
  gatewayDeliver: (gatewayId: string) => `${P}.gw.${gatewayId}.deliver`,
  /** publish. A quick-match found a table: the gateway tells its user (QueueMatched). */
  gatewayMatched: (gatewayId: string) => `${P}.gw.${gatewayId}.matched`,
  /** publish. A waiting user's queue changed size (QueueStatus); the gateway tells the user. */
  gatewayQueueStatus: (gatewayId: string) => `${P}.gw.${gatewayId}.queueStatus`,
  /** request → ReassignReply. A draining worker asks for its rooms to be placed elsewhere. Queue group `mm`. */
  reassign: `${P}.mm.reassign`,
  /**
   * request → RebalanceReply. Moves tables from the most loaded workers to the least loaded ones, e.g. after
   * a scale-up. Queue group `mm`; an operator sends it (`npm run rebalance`).
   */
  rebalance: `${P}.mm.rebalance`,
  /** publish. GatewayHeartbeat, so workers can forget viewers of a dead gateway. */
  gatewayHeartbeat: `${P}.gw.heartbeat`,
  /** publish. RoomFinished, once per room; the lobby records the game (queue group `lobby`). */
  roomFinished: `${P}.room.finished`,
  /** publish, durable. RoomClosed, once per room let go for good; the lobby frees its lobby room. */
  roomClosed: `${P}.room.closed`,
  /** publish, durable. PlayerLeft, once per seated person who left a game in progress for good. */
  playerLeft: `${P}.room.playerLeft`,
  /**
   * publish. RoomLost: a worker found the store had lost a room's state (Redis wiped or restarted
   * without persistence); the lobby frees the table so it can be started again (queue group `lobby`).
   */
  roomLost: `${P}.room.lost`,
  /**
   * request RoomAccessRequest → RoomAccessReply. May this user watch (or play in) this game room? The
   * lobby answers from its rooms: a private room's game only for its members (queue group `lobby`).
   */
  roomAccess: `${P}.lobby.access`,
} as const;

export const QUEUE_GROUPS = { matchmaker: 'mm', lobby: 'lobby' } as const;
