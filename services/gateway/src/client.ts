/**
 * Client messages after the frame checks: parse and validate, sign-in, and
 * turning join/leave/action/queue into bus requests as the token's user.
 */
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import {
  ClientMessage,
  contract,
  ERRORS,
  isClientAction,
  MIN_CLIENT_REVISION,
  PROTOCOL_VERSION,
  type bus as wire,
} from '@joke/protocol';
import { encodeAck, encodeError, encodePong, encodeQueued, encodeRejected, encodeWelcome } from '@joke/protocol/wire';
import { verifyPlayerToken } from '@joke/protocol/auth';
import { v, type Core } from './core.ts';
import type { Requester } from './requests.ts';
import type { Memberships } from './membership.ts';
import type { QueueParams, Sock, SocketData } from './rooms.ts';
import type { GatewayChat } from './chat.ts';
import type { SocketLimits } from './limits.ts';
import type { Clock } from '@joke/bus/clock';
import { headersOf, SpanKind, startSpan, tracingOn, type Span } from '@joke/bus/tracing';
import type { Deliver } from './inbound.ts';

const KNOWN_TYPES = new Set(['hello', 'join', 'leave', 'action', 'queue', 'unqueue', 'ping', 'chat']);

export interface ClientHandlers {
  handleText(ws: Sock, text: string): void;
  /** Token bucket: refilled continuously at ratePerSecond up to rateBurst. */
  takeToken(d: SocketData): boolean;
  cancelQueue(user: { sub: string; name: string }, q: QueueParams): void;
}

export function createClientHandlers(
  core: Core,
  requests: Requester,
  rooms: Memberships,
  chat: GatewayChat,
  limits: SocketLimits,
  clock: Clock,
  deliver: Deliver,
): ClientHandlers {
  const { cfg, log, metrics, reg, detach, send, protoError } = core;
  const requestWithRetry = requests.request;
  const { refreshRoom, leave } = rooms;
  const onJoin = rooms.join;

  const onAction = async (
    ws: Sock,
    roomId: string,
    actionId: string,
    action: unknown,
    viewSeq: number | undefined,
  ): Promise<void> => {
    const d = ws.getUserData();
    let m = d.rooms.get(roomId);
    if (m?.joined) {
      await m.joined;
      if (d.closed) return;
      m = d.rooms.get(roomId);
    }
    if (!m || m.role === null) {
      metrics.rejects.inc({ reason: 'notJoined' });
      send(ws, encodeRejected(roomId, actionId, ERRORS.notJoined));
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
        userId: d.user!.sub,
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
        ackSent = deliver(reply.delivery, { ws, text: encodeAck(roomId, actionId, reply.seq) }) || ackSent;
        view?.end();
      };
      // A closed socket's action is not retried: the client resends it (same actionId) after reconnecting.
      const route = contract.roomCommand.at(roomId);
      const headers = span?.isRecording() ? headersOf(span) : undefined;
      const res = await requestWithRetry(route, cmd, 'command', roomId, () => !d.closed, arrived, undefined, headers);
      span?.setAttribute('joke.outcome', res === null ? 'unavailable' : res.reply.ok ? 'ok' : res.reply.code);
      if (d.closed) return;
      if (!res) {
        protoError(ws, 'unavailable', undefined, { roomId, actionId });
        return;
      }
      span?.setAttribute('joke.tries', res.tries);
      const reply = res.reply;
      if (reply.ok) {
        if (!ackSent) send(ws, encodeAck(roomId, actionId, reply.seq));
      }
      // A full room queue is not a refusal of the move: nothing was applied, the same actionId may come again.
      else if (reply.code === 'busy') protoError(ws, 'busy', undefined, { roomId, actionId });
      else {
        metrics.rejects.inc({ reason: 'game' });
        send(ws, encodeRejected(roomId, actionId, reply.reason, reply.code));
      }
      metrics.actionLatency.observe((performance.now() - t0) / 1000);
      if (res.tries > 1) detach(refreshRoom(roomId));
    } finally {
      span?.end();
    }
  };

  // Every try of one request carries one requestId, so a retry of a try that was served after all (its
  // reply late on a slow box) does not queue the player again (services/matchmaker/src/queues.ts).
  // `addr` is the address this socket counts against (limits.ts: the TCP peer, or the trusted
  // X-Forwarded-For entry): the matchmaker's per-address budgets (services/matchmaker/src/budgets.ts).
  const queueRequest = (
    user: { sub: string; name: string },
    q: QueueParams,
    how: { cancel: true } | { addr: string },
  ) =>
    requestWithRetry(
      contract.queue,
      {
        v,
        userId: user.sub,
        name: user.name,
        gatewayId: cfg.gatewayId,
        ...q,
        ...('cancel' in how ? how : { requestId: randomUUID(), addr: how.addr }),
      },
      'queue',
    );

  const onQueue = async (ws: Sock, q: QueueParams): Promise<void> => {
    const d = ws.getUserData();
    const user = d.user!;
    reg.queued.set(user.sub, q);
    const res = await queueRequest(user, q, { addr: d.ip });
    const reply = res ? res.reply : null;
    if (!reply?.ok && reg.queued.get(user.sub) === q) reg.queued.delete(user.sub);
    if (d.closed) return;
    if (reply?.ok) send(ws, encodeQueued(q));
    else if (reply && !reply.ok) {
      metrics.rejects.inc({ reason: 'queue' });
      send(ws, encodeError('queueRejected', reply.reason, { refusal: reply.code }));
    } else protoError(ws, 'unavailable');
  };

  const cancelQueue = (user: { sub: string; name: string }, q: QueueParams): void => {
    detach(queueRequest(user, q, { cancel: true }).then(() => undefined));
  };

  const onHello = async (ws: Sock, token: string): Promise<void> => {
    const d = ws.getUserData();
    d.authing = true;
    let claims: { sub: string; name: string } | null = null;
    try {
      claims = await verifyPlayerToken(cfg.jwtSecret, token);
    } catch (err) {
      log.debug({ socket: d.id, err: String(err) }, 'bad token');
    }
    d.authing = false;
    if (d.closed) return;
    if (!claims || (d.user && d.user.sub !== claims.sub)) protoError(ws, 'badToken');
    else {
      if (!d.user) {
        if (!limits.admitUser(ws, claims.sub)) return;
        d.user = claims;
        reg.addUserSocket(claims.sub, ws);
        clock.clearTimeout(d.helloTimer);
        d.helloTimer = null;
      }
      send(ws, encodeWelcome(claims.sub, claims.name, clock.now()));
    }
    const held = d.held;
    d.held = [];
    for (const text of held) if (!d.closed) handleText(ws, text);
  };

  const handleText = (ws: Sock, text: string): void => {
    const d = ws.getUserData();
    let raw: any;
    try {
      raw = JSON.parse(text);
    } catch {
      metrics.messagesIn.inc({ type: 'invalid' });
      return protoError(ws, 'malformed', 'JSON이 아니에요');
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      metrics.messagesIn.inc({ type: 'invalid' });
      return protoError(ws, 'malformed', '객체가 아니에요');
    }
    if (raw.v !== PROTOCOL_VERSION) {
      metrics.messagesIn.inc({ type: 'invalid' });
      return protoError(ws, 'versionMismatch');
    }
    if (!KNOWN_TYPES.has(raw.t)) {
      metrics.messagesIn.inc({ type: 'invalid' });
      return protoError(ws, 'malformed', `알 수 없는 종류: ${String(raw.t).slice(0, 24)}`);
    }
    let msg: ClientMessage;
    // An action in its plain shape skips the zod union (one per action); anything else, and every
    // refusal's reason, comes from the schema. The action itself is validated where it is applied.
    if (isClientAction(raw)) msg = raw;
    else {
      const parsed = ClientMessage.safeParse(raw);
      if (!parsed.success) {
        metrics.messagesIn.inc({ type: 'invalid' });
        const issue = parsed.error.issues[0];
        return protoError(ws, 'malformed', `${raw.t}: ${issue ? issue.path.join('.') || '형식' : '형식'} 확인 필요`);
      }
      msg = parsed.data;
    }
    metrics.messagesIn.inc({ type: msg.t });
    if (msg.t === 'hello') {
      // A bundle older than the views this platform sends (a tab open across a deploy) must reload.
      if ((msg.revision ?? 1) < MIN_CLIENT_REVISION) return protoError(ws, 'versionMismatch');
      return detach(onHello(ws, msg.token));
    }
    if (!d.user) return protoError(ws, 'unauthenticated');
    if (msg.t === 'ping') return send(ws, encodePong(msg.at, clock.now()));
    switch (msg.t) {
      case 'join':
        return limits.pending(ws, d, () => onJoin(ws, msg.roomId, msg.spectate ?? false), { roomId: msg.roomId });
      case 'leave':
        return leave(ws, msg.roomId, true);
      case 'action':
        return limits.pending(ws, d, () => onAction(ws, msg.roomId, msg.actionId, msg.action, msg.seq), {
          roomId: msg.roomId,
          actionId: msg.actionId,
        });
      case 'queue':
        return limits.pending(ws, d, () =>
          onQueue(ws, {
            game: msg.game,
            mode: msg.mode,
            players: msg.players,
            ...(msg.bots === undefined ? {} : { bots: msg.bots }),
          }),
        );
      case 'chat':
        return limits.pending(ws, d, () => chat.onChat(ws, msg), { roomId: msg.roomId });
      case 'unqueue': {
        const q = reg.queued.get(d.user.sub);
        reg.queued.delete(d.user.sub);
        if (q) cancelQueue(d.user, q);
        return;
      }
    }
  };

  /** Token bucket: refilled continuously at ratePerSecond up to rateBurst. */
  const takeToken = (d: SocketData): boolean => {
    const now = clock.now();
    // A wall clock set back must not drain the bucket.
    const elapsed = Math.max(0, now - d.refilledAt);
    d.tokens = Math.min(cfg.rateBurst, d.tokens + (elapsed / 1000) * cfg.ratePerSecond);
    d.refilledAt = now;
    if (d.tokens < 1) return false;
    d.tokens -= 1;
    return true;
  };

  return { handleText, takeToken, cancelQueue };
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
