/**
 * One client session with the gateway (protocol client.ts), over an injected transport and clock: the
 * public API. Join/leave of rooms, views made whole (rooms.ts), actions under their actionId until
 * answered (actions.ts), and recovery: the socket itself — hello, keepalive, a new socket on a jittered
 * back-off after a loss — is connection.ts's; after each welcome this joins every room again (the replies
 * carry the latest view, fixed members and presence) and sends every unanswered action again; a join
 * the gateway could not get answered (`unavailable`, `capacity`, `busy`) goes again on its own bounded
 * back-off.
 *
 * State: status, rooms, pending actions and their timers, the connection. Failure modes: a fatal error
 * (bad token, protocol version) or a missing token closes the session for good; a reconnect budget
 * that runs out closes it too (the handler's `closed` says so with reconnectIn null); pending
 * actions then settle `closed`.
 */
import { PROTOCOL_VERSION, ServerMessage, type ClientMessage } from '@joke/protocol';
import { backoffDelay, type Backoff } from '@joke/bus/retry-budget';
import { globalClock, type SessionClock } from './clock.ts';
import { Connection } from './connection.ts';
import { CLOSED, GAVE_UP, TIMED_OUT, newActionId, refused, type PendingAction } from './actions.ts';
import { RESYNC_EVERY_MS, newRoom, takeView, type Room, type WireView } from './rooms.ts';
import type { ActResult, ConnStatus, ErrorMessage, SessionHandler, SessionOptions } from './types.ts';

const FATAL_CODES: ReadonlySet<string> = new Set(['badToken', 'unauthenticated', 'versionMismatch']);
/** Join-level answers that mean "not now": the room is there (else `noRoom`), try again later. */
const JOIN_AGAIN_CODES: ReadonlySet<string> = new Set(['unavailable', 'capacity', 'busy']);

const backoff = (given: Partial<Backoff> | undefined, dflt: Backoff): Backoff => ({ ...dflt, ...given });

export class Session {
  status: ConnStatus = 'idle';
  userId: string | null = null;
  /** serverTime − local time, from welcome/pong (half the round trip assumed each way). */
  clockOffsetMs = 0;
  rttMs: number | null = null;

  private readonly clock: SessionClock;
  private readonly random: () => number;
  private readonly handler: SessionHandler;
  private readonly joinBackoff: Backoff;
  private readonly actionBackoff: Backoff;
  private readonly rooms = new Map<string, Room>();
  private readonly pending = new Map<string, PendingAction>();
  private readonly connection: Connection;

  constructor(private readonly opts: SessionOptions) {
    this.clock = opts.clock ?? globalClock;
    this.random = opts.random ?? Math.random;
    this.handler = opts.handler;
    this.joinBackoff = backoff(opts.joinRetry, { baseMs: 1_500, maxMs: 15_000, jitter: 0.25, budget: 8 });
    this.actionBackoff = backoff(opts.actionRetry, { baseMs: 600, maxMs: 5_000, jitter: 0.25, budget: 6 });
    const reconnect = backoff(opts.reconnect, { baseMs: 400, maxMs: 8_000, jitter: 0.25, budget: Infinity });
    this.connection = new Connection(opts, this.clock, this.random, reconnect, {
      status: (s) => this.setStatus(s),
      frame: (text) => this.receive(text),
      closed: (code, reconnectIn) => {
        this.handler.closed?.(code, reconnectIn);
        if (reconnectIn === null) this.close();
      },
      noToken: () => {
        this.handler.error?.(
          { v: PROTOCOL_VERSION, t: 'error', code: 'unauthenticated', message: '먼저 로그인해 주세요' },
          true,
        );
        this.close();
      },
      online: () => this.online,
    });
  }

  get online(): boolean {
    return this.status === 'online';
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** The room's state, if the session is in it (read-only use: lastSeq, fixed, presence). */
  room(roomId: string): Readonly<Room> | undefined {
    return this.rooms.get(roomId);
  }

  serverNow(): number {
    return this.clock.now() + this.clockOffsetMs;
  }

  connect(): void {
    this.connection.start();
  }

  /** Ends the session for good: no reconnects, pending actions settle `closed`. */
  close(): void {
    this.connection.stop();
    for (const r of this.rooms.values()) this.clearJoinRetry(r);
    this.settleAll(CLOSED);
    this.setStatus('closed');
  }

  /** Closes the socket as a flaky network would; the session recovers by itself. */
  dropConnection(code = 4000): void {
    this.connection.drop(code);
  }

  join(roomId: string, spectate = false): void {
    const known = this.rooms.get(roomId);
    if (known) this.clearJoinRetry(known);
    this.rooms.set(roomId, newRoom(roomId, spectate, known));
    if (this.online) this.send({ v: PROTOCOL_VERSION, t: 'join', roomId, spectate });
  }

  leave(roomId: string): void {
    const r = this.rooms.get(roomId);
    if (r) this.clearJoinRetry(r);
    this.rooms.delete(roomId);
    if (this.online) this.send({ v: PROTOCOL_VERSION, t: 'leave', roomId });
  }

  /** Joins the room again now (its reply brings the latest view): e.g. after a view that never came. */
  rejoin(roomId: string): void {
    const r = this.rooms.get(roomId);
    if (r && this.online) this.send({ v: PROTOCOL_VERSION, t: 'join', roomId, spectate: r.spectate });
  }

  /**
   * Sends `action` for `roomId` under `actionId` and calls `done` once with its answer. `viewSeq`: the
   * seq of the view it was chosen on (default: the room's latest).
   */
  act(
    roomId: string,
    action: unknown,
    done: (r: ActResult) => void,
    actionId = newActionId(this.clock.now()),
    viewSeq?: number,
  ): void {
    const seen = viewSeq ?? this.rooms.get(roomId)?.lastSeq ?? -1;
    const p: PendingAction = {
      roomId,
      actionId,
      action,
      viewSeq: seen >= 0 ? seen : undefined,
      firstSentAt: this.clock.now(),
      retries: 0,
      timer: null,
      done,
    };
    this.pending.set(actionId, p);
    this.sendAction(p);
  }

  /** Sends any client message now if online (chat, queue…); false when not sent. */
  send(msg: ClientMessage): boolean {
    return this.connection.send(JSON.stringify(msg));
  }

  /** One frame's text: parsed (and checked unless `validate` is false) and handled. */
  receive(text: string): void {
    let msg: ServerMessage;
    try {
      const json: unknown = JSON.parse(text);
      if (this.opts.validate === false) msg = json as ServerMessage;
      else {
        const r = ServerMessage.safeParse(json);
        if (!r.success) return;
        msg = r.data;
      }
    } catch {
      return;
    }
    this.receiveMessage(msg, text);
  }

  /** A frame its caller parsed itself (the bots' byte fast path); `raw` its text if kept. */
  receiveMessage(msg: ServerMessage, raw: string | null = null): void {
    this.connection.heard();
    switch (msg.t) {
      case 'welcome':
        return this.onWelcome(msg);
      case 'view':
        return this.onView(msg, raw);
      case 'ack':
      case 'rejected': {
        const p = this.pending.get(msg.actionId);
        if (!p) return;
        this.settle(p, msg.t === 'ack' ? { ok: true, seq: msg.seq } : refused(msg.reason, msg.code));
        return;
      }
      case 'presence': {
        const room = this.rooms.get(msg.roomId);
        if (room) room.presence = msg.presence;
        this.handler.presence?.(msg.roomId, msg.presence);
        return;
      }
      case 'error':
        return this.onError(msg);
      case 'pong': {
        const now = this.clock.now();
        this.rttMs = now - msg.at;
        this.clockOffsetMs = msg.serverTime - (msg.at + now) / 2;
        this.handler.other?.(msg);
        return;
      }
      case 'chat':
        if (this.rooms.has(msg.roomId)) this.handler.other?.(msg);
        return;
      default:
        this.handler.other?.(msg);
    }
  }

  /** A view of `roomId` read by its header only (bots): its seq is the room's latest, nothing else changes. */
  viewSeen(roomId: string, seq: number): void {
    const room = this.rooms.get(roomId);
    if (room && seq > room.lastSeq) room.lastSeq = seq;
  }

  private onWelcome(msg: Extract<ServerMessage, { t: 'welcome' }>): void {
    this.userId = msg.userId;
    this.clockOffsetMs = msg.serverTime - this.clock.now();
    this.connection.welcomed();
    this.setStatus('online');
    this.handler.welcome?.(msg);
    for (const r of this.rooms.values()) {
      this.clearJoinRetry(r);
      r.joinTries = 0;
      this.send({ v: PROTOCOL_VERSION, t: 'join', roomId: r.roomId, spectate: r.spectate });
    }
    // Answers lost with the old socket: the same ids again, which the rooms apply at most once.
    for (const p of this.pending.values()) this.sendAction(p);
  }

  private onView(msg: WireView, raw: string | null): void {
    const room = this.rooms.get(msg.roomId);
    if (!room) return;
    const verdict = takeView(room, msg);
    if (verdict === 'old') return;
    if (verdict !== 'whole') {
      const now = this.clock.now();
      this.handler.resync?.(msg.roomId, msg.seq, verdict === 'missingFixed' ? 'fixed' : 'presence');
      if (now - room.resyncAt >= RESYNC_EVERY_MS) {
        room.resyncAt = now;
        this.rejoin(room.roomId);
      }
      return;
    }
    // The room is subscribed again: a join retry still armed would only replay this view.
    room.joinTries = 0;
    this.clearJoinRetry(room);
    this.handler.view?.(msg, room.presence!, raw);
  }

  private onError(msg: ErrorMessage): void {
    const p = msg.actionId === undefined ? undefined : this.pending.get(msg.actionId);
    if (p) return this.retryAction(p);
    const room = msg.roomId === undefined ? undefined : this.rooms.get(msg.roomId);
    if (room && msg.code === 'noRoom') {
      this.clearJoinRetry(room);
      this.rooms.delete(room.roomId);
    }
    // About the join, not about an action already answered (that one the gateway retried on its own).
    if (room && msg.actionId === undefined && JOIN_AGAIN_CODES.has(msg.code)) this.joinAgain(room);
    const fatal = FATAL_CODES.has(msg.code);
    this.handler.error?.(msg, fatal);
    if (fatal) this.close();
  }

  /** The gateway could not get this room's join answered: again on the join back-off, within its budget. */
  private joinAgain(room: Room): void {
    if (room.joinTimer !== null) return;
    if (room.joinTries >= this.joinBackoff.budget) {
      this.handler.joinGaveUp?.(room.roomId);
      return;
    }
    const wait = backoffDelay(this.joinBackoff, room.joinTries++, this.random);
    room.joinTimer = this.clock.setTimeout(() => {
      room.joinTimer = null;
      if (this.rooms.get(room.roomId) === room) this.rejoin(room.roomId);
    }, wait);
  }

  private clearJoinRetry(room: Room): void {
    if (room.joinTimer === null) return;
    this.clock.clearTimeout(room.joinTimer);
    room.joinTimer = null;
  }

  private sendAction(p: PendingAction): void {
    if (p.timer !== null) this.clock.clearTimeout(p.timer);
    p.timer = this.clock.setTimeout(() => this.onUnanswered(p), this.opts.actionResendMs ?? 12_000);
    // Before the welcome it waits: the welcome sends every pending action.
    if (!this.online) return;
    this.send({
      v: PROTOCOL_VERSION,
      t: 'action',
      roomId: p.roomId,
      actionId: p.actionId,
      action: p.action,
      seq: p.viewSeq,
    });
  }

  private onUnanswered(p: PendingAction): void {
    p.timer = null;
    if (this.pending.get(p.actionId) !== p) return;
    if (this.clock.now() - p.firstSentAt >= (this.opts.actionGiveUpMs ?? 40_000)) return this.settle(p, TIMED_OUT);
    this.handler.unanswered?.(p.roomId, p.actionId, p.action);
    if (this.pending.get(p.actionId) === p) this.sendAction(p);
  }

  /** The gateway answered this action with an error (`unavailable`, `busy`…): the same id again, later. */
  private retryAction(p: PendingAction): void {
    if (p.retries >= this.actionBackoff.budget) return this.settle(p, GAVE_UP);
    if (p.timer !== null) this.clock.clearTimeout(p.timer);
    p.timer = this.clock.setTimeout(
      () => {
        p.timer = null;
        if (this.pending.get(p.actionId) === p) this.sendAction(p);
      },
      backoffDelay(this.actionBackoff, p.retries++, this.random),
    );
  }

  private settle(p: PendingAction, r: ActResult): void {
    this.pending.delete(p.actionId);
    if (p.timer !== null) this.clock.clearTimeout(p.timer);
    p.timer = null;
    p.done(r);
  }

  private settleAll(r: ActResult): void {
    for (const p of [...this.pending.values()]) this.settle(p, r);
  }

  private setStatus(s: ConnStatus): void {
    if (this.status === s) return;
    this.status = s;
    this.handler.status?.(s);
  }
}
