/**
 * Client messages after the frame checks: parse and validate, sign-in, and turning
 * join/leave/action/queue/chat into bus requests as the token's user (never an id the client chose).
 * State: none of its own; a session's sign-in, rooms and pending count are on its Session.
 * Failure modes: a message that is not JSON, not an object, of another protocol version or of an
 * unknown type is answered `error malformed`/`versionMismatch` and dropped; anything before a good
 * `hello` is `unauthenticated`; an action nobody answers within the retry budget is `unavailable` (the
 * client sends it again); a quick-match request whose matchmaker was too slow is refused for load
 * (`queueRejected`, refusal `capacity`; joins: membership.ts).
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import {
  ClientMessage,
  contract,
  ERRORS,
  isClientAction,
  MIN_CLIENT_REVISION,
  PROTOCOL_VERSION,
  REFUSALS,
  type bus as wire,
} from '@joke/protocol';
import { encodeAck, encodeError, encodePong, encodeQueued, encodeRejected, encodeWelcome } from '@joke/protocol/wire';
import { verifyPlayerToken } from '@joke/protocol/auth';
import type { Clock } from '@joke/bus/clock';
import { headersOf, SpanKind, startSpan, tracingOn, type Span } from '@joke/bus/tracing';
import type { GatewayConfig } from './config.ts';
import type { GatewayMetrics } from './metrics.ts';
import { shedReason, type Outcome, type Requester } from './requests.ts';
import type { Memberships } from './membership.ts';
import type { QueueParams, Registry } from './rooms.ts';
import type { Session } from './session.ts';
import type { GatewayChat } from './chat.ts';
import type { SocketLimits } from './limits.ts';
import type { Inbound } from './inbound.ts';
import type { LateCommands } from './late-commands.ts';

const KNOWN_TYPES: ReadonlySet<unknown> = new Set([
  'hello',
  'join',
  'leave',
  'action',
  'queue',
  'unqueue',
  'ping',
  'chat',
]);

/**
 * A client message as JSON.parse gives it, before any check: a boundary type, its fields unknown until
 * the checks below and ClientMessage (zod, @joke/protocol) have read them.
 */
type RawMessage = { readonly [field: string]: unknown };
type ActionMessage = Extract<ClientMessage, { t: 'action' }>;
const isRawMessage = (x: unknown): x is RawMessage => x !== null && typeof x === 'object' && !Array.isArray(x);

export interface ClientOptions {
  cfg: GatewayConfig;
  log: Logger;
  metrics: GatewayMetrics;
  registry: Registry;
  requests: Requester;
  memberships: Memberships;
  chat: GatewayChat;
  limits: SocketLimits;
  clock: Clock;
  /** The one delivery path (inbound.ts): the frames that ride on a command's reply go out through it. */
  inbound: Inbound;
  /** The commands' round trips, and whether they come back late (then quick match is refused). */
  lateCommands: LateCommands;
  detach(p: Promise<void>): void;
}

export class ClientHandlers {
  constructor(private readonly o: ClientOptions) {}

  private async onAction(s: Session, msg: ActionMessage): Promise<void> {
    const { cfg, clock, metrics } = this.o;
    const { roomId, actionId, action, seq: viewSeq } = msg;
    let m = s.rooms.get(roomId);
    if (m?.joined) {
      await m.joined;
      if (s.closed) return;
      m = s.rooms.get(roomId);
    }
    if (!m || m.role === null) {
      metrics.rejects.inc({ reason: 'notJoined' });
      s.send(encodeRejected(roomId, actionId, ERRORS.notJoined));
      return;
    }
    const t0 = performance.now();
    // Traced (tracing on, @joke/bus tracing.ts): one span from here to the ack; when sampled its context
    // rides in the request's NATS headers, so the worker's spans join this trace. Off: no span, no headers.
    const span = tracingOn() ? commandSpan(roomId, action) : undefined;
    try {
      // userId is always the token's subject: a client cannot act for anyone else. The action itself is
      // validated once, by the game where it is applied.
      const cmd: wire.RoomCommand = {
        v: PROTOCOL_VERSION,
        userId: s.user!.sub,
        actionId,
        action,
        gatewayId: cfg.gatewayId,
        at: clock.now(),
        framesInReply: cfg.framesInReply,
      };
      // The view the move was chosen on, when the client said: the worker refuses it `stale` if a newer one exists.
      if (viewSeq !== undefined) cmd.viewSeq = viewSeq;
      // The frames that ride on the reply go out as it arrives, in order with the deliveries around it;
      // the actor's socket gets its ack and view in one write.
      let ackSent = false;
      const arrived = (reply: wire.CommandReply): void => {
        if (!('delivery' in reply)) return;
        // The view frames that ride on the reply, written to the sockets: the end of the action's trace.
        const view = span && startSpan('gateway.view', viewAttributes(roomId, reply.seq, reply.delivery), span);
        ackSent =
          this.o.inbound.deliver(reply.delivery, { session: s, text: encodeAck(roomId, actionId, reply.seq) }) ||
          ackSent;
        view?.end();
      };
      // A closed socket's action is not retried: the client resends it (same actionId) after reconnecting.
      const route = contract.roomCommand.at(roomId);
      const headers = span?.isRecording() ? headersOf(span) : undefined;
      const res = await this.o.requests.request(route, cmd, {
        op: 'command',
        roomId,
        wanted: s.stillOpen,
        arrived,
        headers,
      });
      span?.setAttribute('joke.outcome', res === null ? 'unavailable' : res.reply.ok ? 'ok' : res.reply.code);
      this.o.lateCommands.record(performance.now() - t0);
      if (s.closed) return;
      if (!res) {
        s.protoError('unavailable', undefined, { roomId, actionId });
        return;
      }
      span?.setAttribute('joke.tries', res.tries);
      const reply = res.reply;
      if (reply.ok) {
        if (!ackSent) s.send(encodeAck(roomId, actionId, reply.seq));
      }
      // A full room queue is not a refusal of the move: nothing was applied, the same actionId may come again.
      else if (reply.code === 'busy') s.protoError('busy', undefined, { roomId, actionId });
      else {
        metrics.rejects.inc({ reason: 'game' });
        s.send(encodeRejected(roomId, actionId, reply.reason, reply.code));
      }
      metrics.actionLatency.observe((performance.now() - t0) / 1000);
      if (res.tries > 1) this.o.detach(this.o.memberships.refreshRoom(roomId));
    } finally {
      span?.end();
    }
  }

  // Every try of one request carries one requestId, so a retry of a try that was served after all (its
  // reply late on a slow box) does not queue the player again (services/matchmaker/src/queues.ts).
  // `addr` is the address this socket counts against (limits.ts: the TCP peer, or the trusted
  // X-Forwarded-For entry): the matchmaker's per-address budgets (services/matchmaker/src/budgets.ts).
  private queueRequest(
    user: { sub: string; name: string },
    q: QueueParams,
    how: { cancel: true } | { addr: string },
    outcome?: Outcome,
  ) {
    return this.o.requests.request(
      contract.queue,
      {
        v: PROTOCOL_VERSION,
        userId: user.sub,
        name: user.name,
        gatewayId: this.o.cfg.gatewayId,
        ...q,
        ...('cancel' in how ? how : { requestId: randomUUID(), addr: how.addr }),
      },
      // A quick-match request is admission (new work, on its own retry budget); its cancel is not.
      outcome ? { op: 'queue', admission: true, outcome } : { op: 'queue' },
    );
  }

  private async onQueue(s: Session, q: QueueParams): Promise<void> {
    const { registry, metrics } = this.o;
    const user = s.user!;
    // The tables already playing are waiting on their moves (late-commands.ts): no new table now.
    if (this.o.lateCommands.late) {
      metrics.rejects.inc({ reason: 'queue' });
      metrics.admissionRefused.inc({ op: 'queue', why: 'commandsLate' });
      s.send(encodeError('queueRejected', REFUSALS.capacity, { refusal: 'capacity' }));
      return;
    }
    registry.queued.set(user.sub, q);
    const outcome: Outcome = {};
    const res = await this.queueRequest(user, q, { addr: s.ip }, outcome);
    const reply = res ? res.reply : null;
    if (!reply?.ok && registry.queued.get(user.sub) === q) registry.queued.delete(user.sub);
    // A matchmaker too slow to answer in time (issue 37: an overloaded platform) is refused for load, as
    // the fleet's own `capacity` is: `queueRejected` with refusal `capacity`, which a client shows and stops
    // waiting on ("try later"), counted, not an error. It may still have queued the player late: cancelled.
    const shed = reply ? null : shedReason(null, outcome);
    if (shed !== null) this.cancelQueue(user, q);
    if (s.closed) return;
    if (reply?.ok) s.send(encodeQueued(q));
    else if (reply && !reply.ok) {
      metrics.rejects.inc({ reason: 'queue' });
      if (reply.code === 'capacity') metrics.admissionRefused.inc({ op: 'queue', why: 'capacity' });
      s.send(encodeError('queueRejected', reply.reason, { refusal: reply.code }));
    } else if (shed !== null) {
      metrics.rejects.inc({ reason: 'queue' });
      metrics.admissionRefused.inc({ op: 'queue', why: shed });
      s.send(encodeError('queueRejected', REFUSALS.capacity, { refusal: 'capacity' }));
    } else s.protoError('unavailable');
  }

  /** The user no longer waits for a table (unqueue, or their last socket here closed). */
  cancelQueue(user: { sub: string; name: string }, q: QueueParams): void {
    this.o.detach(this.queueRequest(user, q, { cancel: true }).then(() => undefined));
  }

  private async onHello(s: Session, token: string): Promise<void> {
    const { cfg, clock, log, limits, registry } = this.o;
    s.authing = true;
    let claims: { sub: string; name: string } | null = null;
    try {
      claims = await verifyPlayerToken(cfg.jwtSecret, token);
    } catch (err) {
      log.debug({ socket: s.id, err: String(err) }, 'bad token');
    }
    s.authing = false;
    if (s.closed) return;
    if (!claims || (s.user && s.user.sub !== claims.sub)) s.protoError('badToken');
    else {
      if (!s.user) {
        if (!limits.admitUser(s, claims.sub)) return;
        s.user = claims;
        registry.addUserSession(claims.sub, s);
        clock.clearTimeout(s.helloTimer);
        s.helloTimer = null;
      }
      s.send(encodeWelcome(claims.sub, claims.name, clock.now()));
    }
    const held = s.held;
    s.held = [];
    for (const text of held) if (!s.closed) this.handleText(s, text);
  }

  /** One text message of a session, after the frame checks (size, rate) of gateway.ts. */
  handleText(s: Session, text: string): void {
    const { clock, limits, memberships, metrics, registry } = this.o;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      metrics.messagesIn.inc({ type: 'invalid' });
      return s.protoError('malformed', 'JSON이 아니에요');
    }
    if (!isRawMessage(parsed)) {
      metrics.messagesIn.inc({ type: 'invalid' });
      return s.protoError('malformed', '객체가 아니에요');
    }
    const raw = parsed;
    if (raw.v !== PROTOCOL_VERSION) {
      metrics.messagesIn.inc({ type: 'invalid' });
      return s.protoError('versionMismatch');
    }
    if (!KNOWN_TYPES.has(raw.t)) {
      metrics.messagesIn.inc({ type: 'invalid' });
      return s.protoError('malformed', `알 수 없는 종류: ${String(raw.t).slice(0, 24)}`);
    }
    let msg: ClientMessage;
    // An action in its plain shape skips the zod union (one per action); anything else, and every
    // refusal's reason, comes from the schema. The action itself is validated where it is applied.
    if (isClientAction(raw)) msg = raw;
    else {
      const checked = ClientMessage.safeParse(raw);
      if (!checked.success) {
        metrics.messagesIn.inc({ type: 'invalid' });
        const issue = checked.error.issues[0];
        return s.protoError(
          'malformed',
          `${String(raw.t)}: ${issue ? issue.path.join('.') || '형식' : '형식'} 확인 필요`,
        );
      }
      msg = checked.data;
    }
    metrics.messagesIn.inc({ type: msg.t });
    if (msg.t === 'hello') {
      // A bundle older than the views this platform sends (a tab open across a deploy) must reload.
      if ((msg.revision ?? 1) < MIN_CLIENT_REVISION) return s.protoError('versionMismatch');
      return this.o.detach(this.onHello(s, msg.token));
    }
    if (!s.user) return s.protoError('unauthenticated');
    if (msg.t === 'ping') return s.send(encodePong(msg.at, clock.now()));
    switch (msg.t) {
      case 'join':
        return limits.pending(s, () => memberships.join(s, msg.roomId, msg.spectate ?? false), { roomId: msg.roomId });
      case 'leave':
        return memberships.leave(s, msg.roomId, true);
      case 'action':
        return limits.pending(s, () => this.onAction(s, msg), {
          roomId: msg.roomId,
          actionId: msg.actionId,
        });
      case 'queue':
        return limits.pending(s, () =>
          this.onQueue(s, {
            game: msg.game,
            mode: msg.mode,
            players: msg.players,
            ...(msg.bots === undefined ? {} : { bots: msg.bots }),
          }),
        );
      case 'chat':
        return limits.pending(s, () => this.o.chat.onChat(s, msg), { roomId: msg.roomId });
      case 'unqueue': {
        const q = registry.queued.get(s.user.sub);
        registry.queued.delete(s.user.sub);
        if (q) this.cancelQueue(s.user, q);
        return;
      }
    }
  }
}

/** The action's span: the room and the action's type only (never its cards: they may be hidden ones). */
function commandSpan(roomId: string, action: unknown): Span {
  const type =
    typeof action === 'object' && action !== null && 'type' in action && typeof action.type === 'string'
      ? action.type.slice(0, 32)
      : 'unknown';
  return startSpan('gateway.command', { 'joke.room.id': roomId, 'joke.action.type': type }, undefined, SpanKind.SERVER);
}

function viewAttributes(roomId: string, seq: number, d: wire.Delivery) {
  return { 'joke.room.id': roomId, 'joke.seq': seq, 'joke.frames': d.frames.length };
}
