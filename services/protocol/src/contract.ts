/**
 * The executable bus contract: every NATS subject declared once, with the
 * codec of its request (or message) and of its reply, and the queue group its
 * consumers join. Services send and receive only through `call`/`serve`
 * (request/reply) and `emit`/`listen` (publish), so both ends of a subject use
 * the same declaration and no service parses a bus message by hand.
 * `contract.test.ts` walks these declarations and checks that production code
 * has a producer and a consumer for each.
 */
import type { z } from 'zod';
import * as wire from './bus.ts';
import { binaryCodec, jsonCodec, ProtocolError, type Codec, type Wire } from './codec.ts';
import { ACCEPTED_REPLY, decodeDelivery, encodeDelivery, isAcceptedReply } from './delivery.ts';
import { ChatDelivery, ChatReply, ChatRequest, chatSubjects } from './chat.ts';
import { LobbySeen, RoomOccupancy, lifecycleSubjects } from './lifecycle.ts';
import { QUEUE_GROUPS, subjects } from './subjects.ts';

/** What the contract needs from a bus (`@joke/bus` implements it). */
export interface BusLike {
  publish(subject: string, data: Wire): void;
  /** `headers`: the trace context of a traced request (`@joke/bus` tracing.ts), carried as NATS headers. */
  request(
    subject: string,
    data: Wire,
    timeoutMs: number,
    arrived?: (data: Wire) => void,
    headers?: Record<string, string>,
  ): Promise<Wire>;
  subscribe(
    subject: string,
    handler: (m: { data: Wire; respond?: (data: Wire) => void; headers?: Record<string, string> }) => void,
    opts?: { queue?: string },
  ): { unsubscribe(): void };
  publishDurable?(subject: string, data: Wire, id: string): Promise<void>;
  consumeDurable?(
    subject: string,
    durable: string,
    handler: (data: Wire) => Promise<void>,
    options?: { onParked?: (event: ParkedEventLike) => void },
  ): Promise<{ unsubscribe(): void }>;
}

/** What a bus reports of a durable event it parked (dead-lettered): `@joke/bus` ParkedEvent. */
export interface ParkedEventLike {
  subject: string;
  durable: string;
  error: string;
  code: string;
  deliveries: number;
  permanent: boolean;
}

/**
 * A durable event that can never be handled (it does not decode, the database refuses its content): thrown
 * by a durable handler, it has the bus park the event in its dead-letter stream at once instead of
 * delivering it again. `code` is the machine reason stored with it.
 */
export class UnprocessableEvent extends Error {
  readonly permanent = true;
  constructor(
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'UnprocessableEvent';
  }
}

export interface RequestRoute<Q, R> {
  readonly kind: 'request';
  readonly name: string;
  readonly subject: string;
  readonly request: Codec<Q>;
  readonly reply: Codec<R>;
  readonly queue?: string;
}
export interface PublishRoute<M> {
  readonly kind: 'publish';
  readonly name: string;
  readonly subject: string;
  readonly message: Codec<M>;
  readonly queue?: string;
  /**
   * A durable event (a JetStream stream on NATS): sent with `emitDurable`, received with `listenDurable` by the
   * durable consumer of this name, acknowledged only once handled — for facts that must not be lost.
   */
  readonly durable?: string;
}
type Keyed<T> = Omit<T, 'subject'> & { readonly pattern: string; at(key: string): T };

function request<Q, R>(name: string, subject: string, req: Codec<Q>, rep: Codec<R>, queue?: string) {
  return { kind: 'request', name, subject, request: req, reply: rep, queue } as RequestRoute<Q, R>;
}
// `at` builds its route as a literal, not by spreading a base object: the gateway calls it per action,
// and the spread's copy showed in its profile (≈ 2 % of its busy samples).
function keyedRequest<Q, R>(name: string, subject: (k: string) => string, req: Codec<Q>, rep: Codec<R>) {
  const at = (k: string): RequestRoute<Q, R> => ({
    kind: 'request',
    name,
    request: req,
    reply: rep,
    subject: subject(k),
  });
  return { kind: 'request', name, request: req, reply: rep, pattern: subject('*'), at } as Keyed<RequestRoute<Q, R>>;
}
function publish<M>(name: string, subject: string, msg: Codec<M>, queue?: string) {
  return { kind: 'publish', name, subject, message: msg, queue } as PublishRoute<M>;
}
function durablePublish<M>(name: string, subject: string, msg: Codec<M>, consumer: string) {
  return { kind: 'publish', name, subject, message: msg, durable: consumer } as PublishRoute<M>;
}
function keyedPublish<M>(name: string, subject: (k: string) => string, msg: Codec<M>) {
  const at = (k: string): PublishRoute<M> => ({ kind: 'publish', name, message: msg, subject: subject(k) });
  return { kind: 'publish', name, message: msg, pattern: subject('*'), at } as Keyed<PublishRoute<M>>;
}

const str = (x: unknown): x is string => typeof x === 'string';
/** A parsed JSON object before its fields are checked. */
type Fields = Readonly<Record<string, unknown>>;
const REFUSAL_CODES = new Set<string>(wire.Refused.shape.code.options);

/**
 * The per-action messages skip zod when this exact shape is present (see jsonCodec). The checks read the
 * parsed JSON as a bag of fields (`Fields`); each field is narrowed where it is read, so the guard is the
 * type's proof, not a cast.
 */
const isRoomCommand = (raw: unknown): raw is wire.RoomCommand => {
  if (raw === null || typeof raw !== 'object') return false;
  const r = raw as Fields;
  return (
    r.v === 1 &&
    str(r.userId) &&
    str(r.actionId) &&
    str(r.gatewayId) &&
    typeof r.at === 'number' &&
    (r.framesInReply === undefined || typeof r.framesInReply === 'boolean') &&
    (r.viewSeq === undefined || (Number.isSafeInteger(r.viewSeq) && (r.viewSeq as number) >= 0)) &&
    'action' in r
  );
};
const OK_REPLY = new TextEncoder().encode('{"ok":true,"seq":');
/**
 * A command's ok-reply exactly as `JSON.stringify({ ok: true, seq })` writes it, read from the bytes: the
 * gateway gets one per action, and decoding the text and parsing it cost more than the request's own
 * encoding. Anything else (a refusal, other spacing, a leading zero, 16+ digits) goes the JSON way.
 */
const peekCommandOk = (data: Wire): { ok: true; seq: number } | undefined => {
  if (typeof data === 'string') return undefined;
  const p = OK_REPLY.length;
  const end = data.length - 1;
  if (end <= p || end > p + 15 || data[end] !== 0x7d || (data[p] === 0x30 && end > p + 1)) return undefined;
  for (let i = 0; i < p; i++) if (data[i] !== OK_REPLY[i]) return undefined;
  let seq = 0;
  for (let i = p; i < end; i++) {
    const d = data[i] - 0x30;
    if (d < 0 || d > 9) return undefined;
    seq = seq * 10 + d;
  }
  return { ok: true, seq };
};
const isCommandReply = (raw: unknown): raw is z.output<typeof wire.CommandReply> => {
  if (raw === null || typeof raw !== 'object') return false;
  const r = raw as Fields;
  return r.ok === true
    ? Number.isSafeInteger(r.seq) // zod 4 .int() means a safe integer
    : r.ok === false && str(r.reason) && str(r.code) && REFUSAL_CODES.has(r.code);
};

const commandReplyJson = jsonCodec(wire.CommandReply, isCommandReply, peekCommandOk);
/**
 * A command's reply: JSON, or — an accepted action whose requester asked for its frames
 * (`RoomCommand.framesInReply`) — the binary delivery envelope marked as that reply, its seq the reply's.
 */
const commandReply: Codec<wire.CommandReply> = {
  encode: (r) => {
    if (!('delivery' in r)) return commandReplyJson.encode(r);
    if (r.delivery.seq !== r.seq) throw new ProtocolError('a reply carries the frames of its own seq only');
    return encodeDelivery(r.delivery, ACCEPTED_REPLY);
  },
  decode: (data) => {
    if (!isAcceptedReply(data)) return commandReplyJson.decode(data);
    const delivery = decodeDelivery(data, ACCEPTED_REPLY);
    return { ok: true, seq: delivery.seq, delivery };
  },
};

export const contract = {
  roomCommand: keyedRequest(
    'roomCommand',
    subjects.roomCommand,
    jsonCodec(wire.RoomCommand, isRoomCommand),
    commandReply,
  ),
  roomJoin: keyedRequest('roomJoin', subjects.roomJoin, jsonCodec(wire.JoinRequest), jsonCodec(wire.JoinReply)),
  roomPresence: keyedPublish('roomPresence', subjects.roomPresence, jsonCodec(wire.PresenceChange)),
  workerOpen: keyedRequest(
    'workerOpen',
    subjects.workerOpen,
    jsonCodec(wire.OpenRoomRequest),
    jsonCodec(wire.OpenRoomReply),
  ),
  workerMigrate: keyedRequest(
    'workerMigrate',
    subjects.workerMigrate,
    jsonCodec(wire.MigrateRequest),
    jsonCodec(wire.MigrateReply),
  ),
  workerPing: keyedRequest('workerPing', subjects.workerPing, jsonCodec(wire.WorkerPing), jsonCodec(wire.WorkerPong)),
  workerHeartbeat: publish('workerHeartbeat', subjects.workerHeartbeat, jsonCodec(wire.WorkerHeartbeat)),
  workerDraining: publish('workerDraining', subjects.workerDraining, jsonCodec(wire.RoomsReleased)),
  createRoom: request(
    'createRoom',
    subjects.createRoom,
    jsonCodec(wire.CreateRoomRequest),
    jsonCodec(wire.CreateRoomReply),
    QUEUE_GROUPS.matchmaker,
  ),
  queue: request(
    'queue',
    subjects.queue,
    jsonCodec(wire.QueueRequest),
    jsonCodec(wire.QueueReply),
    QUEUE_GROUPS.matchmaker,
  ),
  reassign: request(
    'reassign',
    subjects.reassign,
    jsonCodec(wire.ReassignRequest),
    jsonCodec(wire.ReassignReply),
    QUEUE_GROUPS.matchmaker,
  ),
  rebalance: request(
    'rebalance',
    subjects.rebalance,
    jsonCodec(wire.RebalanceRequest),
    jsonCodec(wire.RebalanceReply),
    QUEUE_GROUPS.matchmaker,
  ),
  gatewayDeliver: keyedPublish('gatewayDeliver', subjects.gatewayDeliver, binaryCodec(encodeDelivery, decodeDelivery)),
  gatewayMatched: keyedPublish('gatewayMatched', subjects.gatewayMatched, jsonCodec(wire.QueueMatched)),
  gatewayQueueStatus: keyedPublish('gatewayQueueStatus', subjects.gatewayQueueStatus, jsonCodec(wire.QueueStatus)),
  gatewayHeartbeat: publish('gatewayHeartbeat', subjects.gatewayHeartbeat, jsonCodec(wire.GatewayHeartbeat)),
  /** Durable: a game result must reach the history even when no lobby is up as the game ends. */
  roomFinished: durablePublish('roomFinished', subjects.roomFinished, jsonCodec(wire.RoomFinished), QUEUE_GROUPS.lobby),
  /** Durable: a lobby room must not stay 'playing' for ever because the lobby was down when its game room went. */
  roomClosed: durablePublish('roomClosed', subjects.roomClosed, jsonCodec(wire.RoomClosed), QUEUE_GROUPS.lobby),
  /** Durable: a person who left a game for good must not stay seated in the lobby because it was down then. */
  playerLeft: durablePublish('playerLeft', subjects.playerLeft, jsonCodec(wire.PlayerLeft), QUEUE_GROUPS.lobby),
  /** The store lost a room's state (store-loss.ts in the worker); one lobby frees its table. */
  roomLost: publish('roomLost', subjects.roomLost, jsonCodec(wire.RoomLost), QUEUE_GROUPS.lobby),
  /** Private-room membership, asked by gateways before a join, answered by one lobby. */
  roomAccess: request(
    'roomAccess',
    subjects.roomAccess,
    jsonCodec(wire.RoomAccessRequest),
    jsonCodec(wire.RoomAccessReply),
    QUEUE_GROUPS.lobby,
  ),
  /** Table chat (chat.ts): the gateway asks the room's owner, which judges and relays. */
  roomChat: keyedRequest('roomChat', chatSubjects.room, jsonCodec(ChatRequest), jsonCodec(ChatReply)),
  /** One pre-encoded chat frame to every socket of the room on that gateway. */
  gatewayChat: keyedPublish('gatewayChat', chatSubjects.gateway, jsonCodec(ChatDelivery)),
  /** Room lifecycle (lifecycle.ts): a worker tells every lobby who is connected at a game room. */
  roomOccupancy: publish('roomOccupancy', lifecycleSubjects.occupancy, jsonCodec(RoomOccupancy)),
  /** A lobby replica tells the others which members of waiting rooms it heard from. */
  lobbySeen: publish('lobbySeen', lifecycleSubjects.seen, jsonCodec(LobbySeen)),
};
export type ContractName = keyof typeof contract;

/** Request/reply: resolves with the decoded reply; rejects on timeout/no responders (the bus's error) or ProtocolError. */
export async function call<Q, R>(bus: BusLike, route: RequestRoute<Q, R>, req: Q, timeoutMs: number): Promise<R> {
  return route.reply.decode(await bus.request(route.subject, route.request.encode(req), timeoutMs));
}

/**
 * Serves a request subject. A request that does not decode is answered with
 * `onMalformed(err)` and never reaches `handler`. `reply` may be called once.
 */
export function serve<Q, R>(
  bus: BusLike,
  route: RequestRoute<Q, R>,
  /** `headers`: the request's, when it carried any (a traced request's trace context). */
  handler: (req: Q, reply: (r: R) => void, headers: Record<string, string> | undefined) => void,
  onMalformed: (err: ProtocolError) => R,
): { unsubscribe(): void } {
  return bus.subscribe(
    route.subject,
    (m) => {
      const respond = m.respond;
      if (!respond) return;
      let req: Q;
      try {
        req = route.request.decode(m.data);
      } catch (err) {
        if (!(err instanceof ProtocolError)) throw err;
        respond(route.reply.encode(onMalformed(err)));
        return;
      }
      handler(req, (r) => respond(route.reply.encode(r)), m.headers);
    },
    route.queue === undefined ? undefined : { queue: route.queue },
  );
}

export function emit<M>(bus: BusLike, route: PublishRoute<M>, msg: M): void {
  bus.publish(route.subject, route.message.encode(msg));
}

/** Publishes a durable event; resolves once stored (JetStream ack). `id` makes a retry a no-op duplicate. */
export async function emitDurable<M>(bus: BusLike, route: PublishRoute<M>, msg: M, id: string): Promise<void> {
  if (!route.durable || !bus.publishDurable) throw new Error(`${route.name}: not a durable route or bus`);
  await bus.publishDurable(route.subject, route.message.encode(msg), id);
}

/**
 * The durable consumer of a durable route: `handler` resolving acknowledges the event, rejecting has it
 * delivered again (so it must be idempotent) within the bus's delivery budget, then parked; rejecting with
 * an UnprocessableEvent parks it at once. An event that does not decode goes to `onMalformed` and is parked
 * (code MALFORMED), since redelivering it cannot help. `onParked` hears of every parked event.
 */
export function listenDurable<M>(
  bus: BusLike,
  route: PublishRoute<M>,
  handler: (msg: M) => Promise<void>,
  onMalformed?: (err: ProtocolError) => void,
  onParked?: (event: ParkedEventLike) => void,
): Promise<{ unsubscribe(): void }> {
  if (!route.durable || !bus.consumeDurable) throw new Error(`${route.name}: not a durable route or bus`);
  return bus.consumeDurable(
    route.subject,
    route.durable,
    async (data) => {
      let msg: M;
      try {
        msg = route.message.decode(data);
      } catch (err) {
        if (!(err instanceof ProtocolError)) throw err;
        onMalformed?.(err);
        throw new UnprocessableEvent('MALFORMED', err.message, { cause: err });
      }
      await handler(msg);
    },
    onParked ? { onParked } : undefined,
  );
}

/** Listens on a publish subject; a message that does not decode goes to `onMalformed` (default: dropped). */
export function listen<M>(
  bus: BusLike,
  route: PublishRoute<M>,
  handler: (msg: M) => void,
  onMalformed?: (err: ProtocolError) => void,
): { unsubscribe(): void } {
  return bus.subscribe(
    route.subject,
    (m) => {
      let msg: M;
      try {
        msg = route.message.decode(m.data);
      } catch (err) {
        if (!(err instanceof ProtocolError)) throw err;
        onMalformed?.(err);
        return;
      }
      handler(msg);
    },
    route.queue === undefined ? undefined : { queue: route.queue },
  );
}
