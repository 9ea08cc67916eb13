/**
 * One bot player: a client session (`@joke/session`: hello, join, fixed-members resync, actions under
 * their id across reconnects, join retries) on a bot socket (bot-socket.ts), with the swarm's byte fast
 * path plugged in front of it: a player view of its own table is read by its header (frames.ts), and
 * only the views its gate cannot skip — and every `checkEvery`-th it could — are parsed and handed to
 * the session. It signs in, quick-matches, joins the table it was matched to and plays with the
 * game's own bot policy from its own view, measuring each action from send to the first view that
 * reflects it. Failure modes go to the sink as error kinds (see BotSink).
 */
import { Rng } from '@joke/engine';
import { PROTOCOL_VERSION, type PresenceEntry, type ServerMessage } from '@joke/protocol';
import {
  Session,
  type ActResult,
  type ErrorMessage,
  type OtherMessage,
  type SessionHandler,
  type Transport,
  type TransportEvents,
  type WireView,
  type WelcomeMessage,
} from '@joke/session';
import type { BotConfig, BotSink, Pending } from './bot-types.ts';
import { openBotSocket, type BotSocket, type BotSocketEvents } from './bot-socket.ts';
import { askGate, frameText, headerRoom, isHeaderRoom, mayFinish, readViewHeader, type ViewHeader } from './frames.ts';
import { WheelClock } from './session-clock.ts';
import { TimerWheel, WheelTimer } from './timer-wheel.ts';

export type { BotConfig, BotSink } from './bot-types.ts';

const v = PROTOCOL_VERSION;
/** One header read at a time per process: reused so a frame read by its header allocates nothing. */
const header: ViewHeader = { roomAt: 0, roomEnd: 0, seq: 0, viewAt: 0 };
/** Views skipped by a gate in this process, so every `checkEvery`-th is parsed and checked instead. */
let skippedViews = 0;
/** The gate check runs the policy on a view it expects nothing from: a fixed generator keeps the bot's own untouched. */
const checkRng = Rng.fromSeed('swarm-gate-check');
/** Think and view timers of every bot of this process, and its sessions' timers. */
const wheel = new TimerWheel();
const clock = new WheelClock(wheel);
/**
 * Every action carries the seq of the view it was chosen on, so the room worker itself tells a race
 * (someone else moved first, e.g. two players calling 원카드 at once: refused `stale`; or the game ended
 * under it: `finished`) from an illegal choice on the state the bot saw (any other refusal: an error).
 */
const RACE_CODES: ReadonlySet<unknown> = new Set(['stale', 'finished']);
/** The gateway retries for up to 10 s itself; past 15 s without an answer (or the view after it) something is lost. */
const ANSWER_WAIT_MS = 15_000;
/** Quick-match refusals for load (@joke/protocol REFUSALS) after which the bot queues again, ≈ this much later. */
const REQUEUE_REFUSALS: ReadonlySet<string> = new Set(['capacity']);
const REQUEUE_MS = 2_000;
/** Back-off of a bot refused again and again (2, 4, 8, 16 s, then 30 s at most), as a player told "try later" waits longer each time. */
const REQUEUE_MAX_MS = 30_000;
/** How lean-ws and ws word an upgrade the gateway answered 503 (GATEWAY_MAX_SOCKETS reached). */
const DOOR_REFUSED = /^Unexpected server response: 503\b/;

/**
 * One socket's events for its bot and its session, as methods of one object per connection rather than
 * closures (a swarm process holds 20,000: see lean-ws.ts `ServerFrames`). `opened`: this socket reached
 * 'open', so its close counts in the open-sockets gauge; a reconnect's new socket is a new connection,
 * and an old one may still close after it. Its frames go to the bot's fast path, not to `events.message`.
 */
class BotConnection implements BotSocketEvents {
  ws!: BotSocket;
  private opened = false;
  constructor(
    private readonly bot: Bot,
    private readonly events: TransportEvents,
  ) {}
  open(): void {
    this.opened = true;
    this.bot.onOpen();
    this.events.open();
  }
  message(data: Buffer): void {
    this.bot.onFrame(data);
  }
  error(err: Error): void {
    this.bot.onSocketError(err);
  }
  close(code: number): void {
    if (this.opened) this.bot.onOpenedClose();
    this.events.close(code);
  }
}

/** The session's side of a bot socket. */
class BotTransport implements Transport {
  constructor(readonly ws: BotSocket) {}
  send(text: string): void {
    if (this.ws.isOpen) this.ws.send(text);
  }
  close(): void {
    this.ws.close();
  }
}

/** The session's reports for its bot (one object per bot; methods, no closures). */
class BotSessionEvents implements SessionHandler {
  constructor(private readonly bot: Bot) {}
  welcome(m: WelcomeMessage): void {
    this.bot.onWelcome(m);
  }
  view(frame: WireView, _presence: PresenceEntry[]): void {
    this.bot.onWholeView(frame);
  }
  resync(roomId: string, seq: number, missing: 'fixed' | 'presence'): void {
    this.bot.onResync(roomId, seq, missing);
  }
  error(m: ErrorMessage): void {
    this.bot.onError(m);
  }
  joinGaveUp(roomId: string): void {
    this.bot.onJoinGaveUp(roomId);
  }
  unanswered(roomId: string, actionId: string, action: unknown): void {
    this.bot.onUnanswered(roomId, actionId, action);
  }
  other(m: OtherMessage): void {
    this.bot.onOther(m);
  }
}

export class Bot {
  private readonly session: Session;
  /** The current socket (storm drops terminate it). */
  private ws: BotSocket | null = null;
  private readonly rng: Rng;
  private roomId: string | null = null;
  /** The seq of the latest view of this bot's table, parsed or read by its header (-1: none yet). */
  private lastSeq = -1;
  /**
   * The latest parsed view while no action has been decided on it (the bot's own action in flight, or a
   * rejection waiting to be explained); null once decided, and for a view read by its header only, on which
   * the gate found nothing for this bot to do.
   */
  private latest: unknown = null;
  /**
   * The action decided on the latest view, sent when the think time ends; null: nothing to do on it.
   * The action is decided when the view arrives, not when the think time ends, so that the parsed view
   * (≈ 100 objects) dies young: kept through a 2 s think time it outlived every scavenge in between, was
   * copied each time and promoted, and the swarm spent a fifth of its CPU scavenging (perf, 2026-12-05).
   */
  private next: unknown = null;
  private pending: Pending | null = null;
  private readonly thinkTimer = new WheelTimer(() => this.act());
  /** A quick match refused for load (`queueRejected`, refusal `capacity`) is asked for again when it fires. */
  private readonly requeueTimer = new WheelTimer(() => this.queueAgain());
  /** After the ack: the view that shows the action must come within ANSWER_WAIT_MS. */
  private readonly viewTimer = new WheelTimer(() => this.onViewTimeout());
  private actionCounter = 0;
  private reconnects = 0;
  private closedByUs = false;
  private url: string;
  private connectingSince = 0;
  private stormDropAt: number | null = null;
  /** The frame being handed to the session: whether a gate sampled it, and when it came. */
  private frameSampled = false;
  private frameAt = 0;
  /** This quick-match wait was already counted as refused `queueFull`. */
  private queueFullSeen = false;
  /** Quick matches refused for load in a row (the back-off grows with it; a seat resets it). */
  private requeues = 0;
  /** The gateway refused this socket at its upgrade for want of room (503 `capacity`); its close is no error. */
  private doorRefused = false;
  /** Upgrades refused in a row (the back-off grows with it; an open socket resets it). */
  private doorRefusals = 0;
  done = false;

  constructor(
    private readonly cfg: BotConfig,
    private readonly sink: BotSink,
  ) {
    this.rng = Rng.fromSeed(cfg.userId, 'swarm-bot');
    this.url = cfg.url;
    this.session = new Session({
      connect: (events) => this.openSocket(events),
      token: () => cfg.token,
      handler: new BotSessionEvents(this),
      clock,
      // Frames are parsed by the fast path below, by hand: the swarm does not pay for the schemas.
      validate: false,
      pingEveryMs: 0,
      actionResendMs: ANSWER_WAIT_MS,
      // Three resends after silence, then `gaveUp` (as before the session library).
      actionGiveUpMs: 4 * ANSWER_WAIT_MS,
      actionRetry: { baseMs: 200, maxMs: 2_000, jitter: 0.25, budget: 3 },
      // A join refused `unavailable`/`capacity` goes again every ~1.5 s for as long as the bot plays there,
      // as before the library: an overload run measures the same retry pressure (a browser gives up).
      joinRetry: { baseMs: 1_500, maxMs: 1_500, jitter: 0.25, budget: Infinity },
      reconnectDelay: (code) => this.reconnectDelay(code),
    });
  }

  start(): void {
    this.session.connect();
  }

  private openSocket(events: TransportEvents): Transport {
    this.connectingSince = performance.now();
    const conn = new BotConnection(this, events);
    conn.ws = this.cfg.socket
      ? this.cfg.socket(conn)
      : openBotSocket(this.cfg.wsClient ?? 'lean', this.url, this.cfg.localAddress, conn);
    this.ws = conn.ws;
    return new BotTransport(conn.ws);
  }

  /** @internal BotConnection: its socket opened (the session says hello). */
  onOpen(): void {
    this.doorRefusals = 0;
    this.sink.socket(1);
  }

  /** @internal BotConnection. */
  onSocketError(err: Error): void {
    // A gateway holding all the sockets it may (GATEWAY_MAX_SOCKETS) answers the upgrade 503: a refusal by
    // code `capacity`, not an error; the bot connects again after a growing wait, as a player's client does.
    if (!this.ws?.isOpen && DOOR_REFUSED.test(err.message)) {
      this.doorRefused = true;
      this.sink.error('capacity', 'gateway full (503 at the upgrade)');
      return;
    }
    this.sink.error('socket', String(err));
  }

  /** @internal BotConnection: a socket that had opened (only those count in the open-sockets gauge) closed. */
  onOpenedClose(): void {
    this.sink.socket(-1);
  }

  /**
   * Reconnect storm: the socket dies at once (no close handshake, as when a
   * load balancer or network drops it); the bot reconnects within a second and
   * resumes its table, as the browser client does.
   */
  drop(): boolean {
    if (!this.ws?.isOpen || this.closedByUs) return false;
    this.stormDropAt = performance.now();
    this.ws.terminate();
    return true;
  }

  stop(): void {
    this.closedByUs = true;
    this.clearTimers();
    this.session.close();
  }

  private clearTimers(): void {
    wheel.cancel(this.thinkTimer);
    wheel.cancel(this.viewTimer);
    wheel.cancel(this.requeueTimer);
  }

  /** The session's wait before it reconnects after `code`, or null to stop. */
  private reconnectDelay(code: number): number | null {
    if (this.closedByUs || this.sink.stopping()) return null;
    this.clearTimers();
    if (code === 1012) {
      // The gateway is shutting down and asks us to move (services/gateway/src/shutdown.ts): not an error.
      const urls = this.cfg.urls ?? [this.url];
      this.url = urls[(urls.indexOf(this.url) + 1) % urls.length];
      return 0;
    }
    if (this.stormDropAt !== null) return Math.random() * 1000;
    if (this.doorRefused) {
      this.doorRefused = false;
      return Math.min(REQUEUE_MAX_MS, REQUEUE_MS * 2 ** this.doorRefusals++) * (0.75 + 0.5 * Math.random());
    }
    this.sink.error('disconnected');
    // Reconnect-and-resume: a new socket, hello, and the session's join again gives the latest view.
    return this.reconnects++ < 5 ? 250 * this.reconnects : null;
  }

  /** @internal BotConnection. `buf` may be a slice of the socket's read buffer: nothing here keeps it past the call. */
  onFrame(buf: Buffer): void {
    // Frames can still arrive while our close handshake runs: a stopped bot must not act on them.
    if (this.closedByUs) return;
    const now = performance.now();
    const headed = readViewHeader(buf, header);
    let sampled = false;
    if (headed) {
      if (!isHeaderRoom(buf, header, this.roomId)) return;
      const gate = this.cfg.gate;
      if (gate && !mayFinish(buf, header.viewAt) && askGate(buf, header.viewAt, gate) === 'nothingToDo') {
        sampled = ++skippedViews % (this.cfg.checkEvery ?? 1) === 0;
        if (!sampled) {
          this.session.viewSeen(this.roomId!, header.seq);
          return this.onViewSeq(header.seq, now);
        }
      }
    }
    // Trusted as a ServerMessage without a zod parse: the bots read thousands of frames a second, and what
    // they rely on is checked below (header against body) and by the session (a view's fixed members).
    let m: ServerMessage;
    try {
      m = JSON.parse(frameText(buf)) as ServerMessage;
    } catch {
      return this.sink.error('badFrame');
    }
    // What a full parse can show first: its header said the same as its body.
    if (headed) {
      const headerRoomId = headerRoom(buf, header);
      const body = m as { roomId?: unknown; seq?: unknown };
      if (body.roomId !== headerRoomId || body.seq !== header.seq)
        return this.sink.error('frameHeader', `${headerRoomId}#${header.seq} vs ${body.roomId}#${body.seq}`);
    }
    this.frameSampled = sampled;
    this.frameAt = now;
    this.session.receiveMessage(m);
  }

  /** @internal The session: half a view (its join reply lost); it joins again. */
  onResync(roomId: string, seq: number, missing: 'fixed' | 'presence'): void {
    if (roomId === this.roomId) this.sink.error(`${missing}Missing`, `${roomId}#${seq} for ${this.cfg.userId}`);
  }

  /**
   * @internal The session: a whole view (the fixed members put back). What else a full parse can show
   * about it: it is this bot's own view (a player's socket never gets another seat's), and — for a view
   * the gate would have skipped — that the policy indeed has nothing to do on it and the game goes on.
   */
  onWholeView(m: WireView): void {
    // The two members every game's view has (the engine's GameViewBase); the view itself stays the game's.
    const head: { viewer?: unknown; finished?: unknown } = typeof m.view === 'object' && m.view !== null ? m.view : {};
    if (m.role === 'player' && head.viewer !== this.cfg.userId) {
      return this.sink.error('foreignView', `${this.cfg.userId} got ${String(head.viewer)}'s view of ${m.roomId}`);
    }
    if (this.frameSampled && (m.result != null || head.finished || this.cfg.game.bot(m.view, checkRng) !== null))
      this.sink.error('gateMissed', `${m.roomId}#${m.seq} for ${this.cfg.userId}`);
    if (m.roomId !== this.roomId) return;
    this.onViewSeq(m.seq, this.frameAt, m.view);
    if (m.result !== undefined && m.result !== null) return this.finish(m.roomId);
    if (head.finished) return this.finish(m.roomId);
    this.schedule();
  }

  /** @internal The session: a socket's welcome; its rooms and unanswered action already went again. */
  onWelcome(_m: WelcomeMessage): void {
    const now = performance.now();
    if (this.stormDropAt !== null) {
      this.sink.reconnected(now - this.stormDropAt);
      this.stormDropAt = null;
    } else this.sink.connected(now - this.connectingSince);
    // Not seated yet: queue. A finished bot that queues again has already cleared its table (finish());
    // one that does not (`requeue` off) stays done — on a reconnect (a socket closed for silence on a
    // loaded box) it used to queue for a second game, and the cluster-kill test counted 70 tables of 50.
    if (!this.roomId) this.queue();
  }

  /** @internal The session passes on every error it did not absorb (an action's `unavailable` it retries). */
  onError(m: ErrorMessage): void {
    // A quick match refused for load (the matchmaker too slow to answer: the gateway's `queueRejected` with
    // refusal `capacity`) is a refusal by that code, not an error; the bot asks again after a while, as a
    // player told "try later" does, waiting longer after each refusal in a row (every retry has a budget:
    // 8,000 bots asking every 2 s were themselves 4,000 requests a second at 3× the knee).
    if (m.code === 'queueRejected' && m.refusal !== undefined && REQUEUE_REFUSALS.has(m.refusal)) {
      this.sink.error(m.refusal, m.message);
      if (!this.roomId && !this.sink.stopping())
        wheel.arm(
          this.requeueTimer,
          Math.min(REQUEUE_MAX_MS, REQUEUE_MS * 2 ** this.requeues++) * (0.75 + 0.5 * Math.random()),
        );
      return;
    }
    // A join refused `capacity` (the worker behind on its playing tables, or too slow to answer) is counted
    // as refused by the sink (REFUSED_CODES); the session joins again on its back-off, as for `unavailable`.
    this.sink.error(m.code, m.message);
  }

  /** @internal The session's join retry budget for the table ran out: the table plays on without us. */
  onJoinGaveUp(roomId: string): void {
    this.sink.error('joinGaveUp', `${roomId} for ${this.cfg.userId}`);
  }

  /** @internal The session sends an action again after ANSWER_WAIT_MS without an answer. */
  onUnanswered(roomId: string, actionId: string, action: unknown): void {
    const p = this.pending;
    if (!p || p.actionId !== actionId) return;
    this.sink.error('ackTimeout', `${roomId} ${actionId} ${JSON.stringify(action)} (decided on seq ${p.decidedSeq})`);
  }

  /** @internal The session passes on what it does not act on itself. */
  onOther(m: OtherMessage): void {
    switch (m.t) {
      case 'matched':
        if (this.roomId && !this.done) return;
        // Refused `capacity` because the matchmaker answered too late, yet it had seated us after all: the
        // ask-again must not queue a seated bot for a second table (the NATS-kill test saw 57 tables of 50).
        wheel.cancel(this.requeueTimer);
        this.requeues = 0;
        this.roomId = m.roomId;
        this.done = false;
        this.lastSeq = -1;
        this.latest = this.next = null;
        this.sink.matched(m.roomId, this.cfg.userId);
        this.session.join(m.roomId);
        return;
      case 'queueStatus':
        // The fleet refused this queue's table for capacity and the wait goes on (the client's 대기 screen):
        // a refusal with its code, once per wait, not an error.
        if (m.full === true && !this.queueFullSeen) {
          this.queueFullSeen = true;
          this.sink.error('queueFull');
        }
        return;
      default:
        return;
    }
  }

  /** The back-off after a quick match refused for load ran out: ask again, unless a table came meanwhile. */
  private queueAgain(): void {
    if (this.roomId && !this.done) return;
    this.queue();
  }

  private queue(): void {
    if (this.sink.stopping()) return;
    this.queueFullSeen = false;
    this.session.send({ v, t: 'queue', game: this.cfg.gameId, mode: this.cfg.mode, players: this.cfg.players });
  }

  /**
   * What every view does, parsed or not: the table's seq and the pending action's latency. A view read by its header
   * only (view null) neither ends the game nor gives the bot a move (the gate
   * said so), so it schedules nothing — as the policy's null did before.
   */
  private onViewSeq(seq: number, now: number, view: unknown = null): void {
    this.sink.view(this.roomId!, seq, now);
    this.lastSeq = seq;
    this.latest = view;
    this.next = null;
    const p = this.pending;
    if (p) {
      if (p.ackSeq === null) p.views.push({ seq, at: now });
      else if (seq >= p.ackSeq) {
        this.sink.latency(now - p.sentAt);
        this.settle();
      }
    }
  }

  private finish(roomId: string): void {
    if (this.done) return;
    this.done = true;
    this.clearTimers();
    this.latest = this.next = null;
    this.pending = null;
    this.sink.finished(roomId);
    this.session.leave(roomId);
    if (this.cfg.requeue && !this.sink.stopping()) {
      this.roomId = null;
      this.queue();
    }
  }

  /** The session's answer to the pending action `p`. */
  private onAnswer(p: Pending, r: ActResult): void {
    if (this.pending !== p || this.closedByUs) return;
    if (r.ok) return this.onAck(p, r.seq);
    this.settle();
    if (r.code === 'closed') return;
    if (r.code === 'gaveUp' || r.code === 'timeout') return this.sink.error('gaveUp');
    if (RACE_CODES.has(r.code)) {
      // The newer view is here already (then decide on it) or on its way (it schedules).
      this.sink.raced();
      return this.schedule();
    }
    // An illegal choice on the very view it was made on. Act again only on a newer view: the same
    // view would give the same choice.
    this.sink.error('rejected', r.reason);
  }

  private onAck(p: Pending, seq: number): void {
    this.sink.acked(this.roomId!, this.cfg.userId, p.actionId, p.action, seq);
    const seen = p.views.find((x) => x.seq >= seq);
    if (seen) {
      this.sink.latency(seen.at - p.sentAt);
      this.settle();
      this.schedule();
    } else {
      p.ackSeq = seq;
      p.views = [];
      wheel.arm(this.viewTimer, ANSWER_WAIT_MS);
    }
  }

  private settle(): void {
    this.pending = null;
    wheel.cancel(this.viewTimer);
  }

  /**
   * Decides on the latest view, if one waits, and acts after a think time if the policy has something to do
   * on it. A view that arrives during the think time replaces the decision (a header-only one with nothing),
   * and the timer keeps its time.
   */
  private schedule(): void {
    if (this.pending || this.done || this.sink.stopping()) return;
    if (this.latest !== null) {
      this.next = this.cfg.game.bot(this.latest, this.rng);
      this.latest = null;
    }
    if (this.next === null || this.thinkTimer.armed) return;
    wheel.arm(
      this.thinkTimer,
      this.cfg.think(() => this.rng.float()),
    );
  }

  /** Sends the decided action under a fresh id with the seq of the view it was chosen on (none before any). */
  private act(): void {
    if (this.pending || this.done || !this.roomId || this.sink.stopping()) return;
    const action = this.next;
    if (action === null) return;
    this.next = null;
    const p: Pending = {
      actionId: `${this.cfg.userId}.${++this.actionCounter}`,
      action,
      sentAt: performance.now(),
      views: [],
      ackSeq: null,
      decidedSeq: this.lastSeq,
    };
    this.pending = p;
    const seq = p.decidedSeq >= 0 ? p.decidedSeq : undefined;
    this.session.act(this.roomId, action, (r) => this.onAnswer(p, r), p.actionId, seq);
  }

  /** Acked, but the view that shows it never came: counted, and the table joined again for the latest view. */
  private onViewTimeout(): void {
    const p = this.pending;
    if (!p || this.closedByUs) return;
    this.sink.error(
      'viewTimeout',
      `${this.roomId} ${p.actionId} ${JSON.stringify(p.action)} (decided on seq ${p.decidedSeq})`,
    );
    this.settle();
    if (this.roomId) this.session.rejoin(this.roomId);
  }
}
