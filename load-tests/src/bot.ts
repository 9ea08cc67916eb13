/**
 * One bot player: a WebSocket connection (bot-socket.ts) that signs in, quick-matches, joins the
 * table it was matched to and plays with the game's own bot policy from its
 * own view, measuring each action from send to the first view that reflects it.
 */
import { Rng } from '@joke/engine';
import { PROTOCOL_REVISION, PROTOCOL_VERSION } from '@joke/protocol';
import type { BotConfig, BotSink, Pending } from './bot-types.ts';
import { openBotSocket, type BotSocket, type BotSocketEvents } from './bot-socket.ts';
import { askGate, frameText, headerRoom, isHeaderRoom, mayFinish, readViewHeader, type ViewHeader } from './frames.ts';
import { TimerWheel, WheelTimer } from './timer-wheel.ts';

export type { BotConfig, BotSink } from './bot-types.ts';

const v = PROTOCOL_VERSION;
/** One header read at a time per process: reused so a frame read by its header allocates nothing. */
const header: ViewHeader = { roomAt: 0, roomEnd: 0, seq: 0, viewAt: 0 };
/** Views skipped by a gate in this process, so every `checkEvery`-th is parsed and checked instead. */
let skippedViews = 0;
/** The gate check runs the policy on a view it expects nothing from: a fixed generator keeps the bot's own untouched. */
const checkRng = Rng.fromSeed('swarm-gate-check');
/** Think and ack timers of every bot of this process. */
const wheel = new TimerWheel();
/**
 * Every action carries the seq of the view it was chosen on, so the room worker itself tells a race
 * (someone else moved first, e.g. two players calling 원카드 at once: refused `stale`; or the game ended
 * under it: `finished`) from an illegal choice on the state the bot saw (any other refusal: an error).
 */
const RACE_CODES: ReadonlySet<unknown> = new Set(['stale', 'finished']);
/** At most one resync join this often while the table's fixed view members are missing. */
const RESYNC_EVERY_MS = 3000;
/** A join the gateway answered `unavailable` goes again this long after (the browser client's 1.5 s). */
const JOIN_AGAIN_MS = 1500;

/**
 * One socket's events for its bot, as methods of one object per connection rather than four closures and
 * the object holding them (a swarm process holds 20,000: see lean-ws.ts `ServerFrames`). `opened`: this
 * socket reached 'open', so its close counts in the open-sockets gauge; a reconnect's new socket is a new
 * connection, and an old one may still close after it.
 */
class BotConnection implements BotSocketEvents {
  ws: BotSocket | null = null;
  private opened = false;
  constructor(private readonly bot: Bot) {}
  open(): void {
    this.opened = true;
    this.bot.onOpen();
  }
  message(data: Buffer): void {
    this.bot.onFrame(data);
  }
  error(err: Error): void {
    this.bot.onSocketError(err);
  }
  close(code: number): void {
    if (this.opened) this.bot.onOpenedClose();
    this.bot.onClose(this.ws!, code);
  }
}

export class Bot {
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
  /**
   * The table's fixed view members (a view frame's `fixed`, protocol client.ts), put back into
   * every view this bot parses; null until a frame of this table brought them.
   */
  private fixed: Record<string, unknown> | null = null;
  private resyncAt = -Infinity;
  private pending: Pending | null = null;
  private readonly thinkTimer = new WheelTimer(() => this.act());
  private readonly ackTimer = new WheelTimer(() => this.onAckTimeout());
  private actionCounter = 0;
  private reconnects = 0;
  private closedByUs = false;
  private url: string;
  private connectingSince = 0;
  private stormDropAt: number | null = null;
  done = false;

  constructor(
    private readonly cfg: BotConfig,
    private readonly sink: BotSink,
  ) {
    this.rng = Rng.fromSeed(cfg.userId, 'swarm-bot');
    this.url = cfg.url;
  }

  start(): void {
    this.connectingSince = performance.now();
    const conn = new BotConnection(this);
    conn.ws = openBotSocket(this.cfg.wsClient ?? 'lean', this.url, this.cfg.localAddress, conn);
    this.ws = conn.ws;
  }

  /** @internal BotConnection: its socket opened. */
  onOpen(): void {
    this.sink.socket(1);
    this.send({ v, t: 'hello', token: this.cfg.token, revision: PROTOCOL_REVISION });
  }

  /** @internal BotConnection. */
  onSocketError(err: Error): void {
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
    this.ws?.close();
  }

  private clearTimers(): void {
    wheel.cancel(this.thinkTimer);
    wheel.cancel(this.ackTimer);
  }

  /** @internal BotConnection. */
  onClose(ws: BotSocket, code: number): void {
    if (ws !== this.ws || this.closedByUs || this.sink.stopping()) return;
    this.clearTimers();
    if (code === 1012) {
      // The gateway is shutting down and asks us to move (services/gateway/src/shutdown.ts): not an error.
      const urls = this.cfg.urls ?? [this.url];
      this.url = urls[(urls.indexOf(this.url) + 1) % urls.length];
      this.start();
      return;
    }
    if (this.stormDropAt !== null) {
      setTimeout(() => !this.sink.stopping() && !this.closedByUs && this.start(), Math.random() * 1000);
      return;
    }
    this.sink.error('disconnected');
    // Reconnect-and-resume: a new socket, hello, and join again gives the latest view.
    if (this.reconnects++ < 5) setTimeout(() => !this.sink.stopping() && this.start(), 250 * this.reconnects);
  }

  private send(msg: object): void {
    if (this.closedByUs) return;
    if (this.ws?.isOpen) this.ws.send(JSON.stringify(msg));
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
        if (!sampled) return this.onViewSeq(header.seq, now);
      }
    }
    let m: any;
    try {
      m = JSON.parse(frameText(buf));
    } catch {
      return this.sink.error('badFrame');
    }
    if (m.t === 'view' && m.roomId === this.roomId && !this.withFixed(m, now)) return;
    if (m.t === 'view' && !this.checkView(m, headed ? headerRoom(buf, header) : null, sampled)) return;
    this.onMessage(m, now);
  }

  /**
   * A parsed view of this bot's table made whole: `{ ...fixed, ...view }`, with the fixed members
   * of the last frame that carried them (a frame with `fixed` always goes to a full parse: it does
   * not end in `]}`, see frames.ts `mayFinish`). A view without them while none is held means a
   * frame that should have carried them did not arrive: it is ignored, counted, and the table
   * joined again (the reply carries them). Header-only views need none.
   */
  private withFixed(m: any, now: number): boolean {
    if (m.fixed !== null && typeof m.fixed === 'object') {
      this.fixed = m.fixed;
      this.resyncAt = -Infinity;
    } else if (this.fixed === null) {
      this.sink.error('fixedMissing', `${m.roomId}#${m.seq} for ${this.cfg.userId}`);
      if (now - this.resyncAt >= RESYNC_EVERY_MS) {
        this.resyncAt = now;
        this.send({ v, t: 'join', roomId: m.roomId });
      }
      return false;
    }
    // Into the parsed object, not a spread into a new one: a spread of ~30 members builds a
    // dictionary-mode object that the policy then reads slowly (the swarm's CPU per action rose by
    // half with it, measure-stack side by side, 2026-12-04).
    if (m.view !== null && typeof m.view === 'object') Object.assign(m.view, this.fixed);
    return true;
  }

  /**
   * What a full parse can show about a view: its header said the same as its
   * body, it is this bot's own view (a player's socket never gets another
   * seat's), and — for a view the gate would have skipped — that the policy
   * indeed has nothing to do on it and the game goes on.
   */
  private checkView(m: any, headerRoomId: string | null, sampled: boolean): boolean {
    if (headerRoomId !== null && (m.roomId !== headerRoomId || m.seq !== header.seq)) {
      this.sink.error('frameHeader', `${headerRoomId}#${header.seq} vs ${m.roomId}#${m.seq}`);
      return false;
    }
    if (m.role === 'player' && m.view?.viewer !== this.cfg.userId) {
      this.sink.error('foreignView', `${this.cfg.userId} got ${m.view?.viewer}'s view of ${m.roomId}`);
      return false;
    }
    if (sampled && (m.result != null || m.view?.finished || this.cfg.game.bot(m.view, checkRng) !== null))
      this.sink.error('gateMissed', `${m.roomId}#${m.seq} for ${this.cfg.userId}`);
    return true;
  }

  private onMessage(m: any, now: number): void {
    switch (m.t) {
      case 'welcome':
        if (this.stormDropAt !== null) {
          this.sink.reconnected(now - this.stormDropAt);
          this.stormDropAt = null;
        } else this.sink.connected(now - this.connectingSince);
        if (this.roomId && !this.done) {
          this.send({ v, t: 'join', roomId: this.roomId });
          // An action whose answer was lost with the old socket goes again under its id.
          if (this.pending) {
            this.pending.resends--;
            this.resend();
          }
        } else this.queue();
        return;
      case 'matched':
        if (this.roomId && !this.done) return;
        this.roomId = m.roomId;
        this.done = false;
        this.lastSeq = -1;
        this.latest = this.next = null;
        this.fixed = null;
        this.sink.matched(m.roomId, this.cfg.userId);
        this.send({ v, t: 'join', roomId: m.roomId });
        return;
      case 'view':
        return this.onView(m, now);
      case 'ack':
        return this.onAck(m);
      case 'rejected': {
        const p = this.pending;
        if (!p || p.actionId !== m.actionId) return;
        this.settle();
        if (RACE_CODES.has(m.code)) {
          // The newer view is here already (then decide on it) or on its way (it schedules).
          this.sink.raced();
          return this.schedule();
        }
        // An illegal choice on the very view it was made on. Act again only on a newer view: the same
        // view would give the same choice.
        this.sink.error('rejected', String(m.reason));
        return;
      }
      case 'error':
        if ((m.code === 'unavailable' || m.code === 'busy') && this.pending && m.actionId === this.pending.actionId)
          return this.resend();
        this.sink.error(m.code ?? 'error', m.message);
        // Our join got no answer in the gateway's retry budget (its worker too slow): join again, as the
        // browser client does, or the table plays on without us.
        // A join refused `capacity` (the worker behind on its playing tables) is counted as refused by the
        // sink (REFUSED_CODES) and goes again the same way.
        if ((m.code === 'unavailable' || m.code === 'capacity') && !m.actionId && m.roomId === this.roomId)
          this.joinAgainSoon(m.roomId);
        return;
      case 'queueStatus':
        // The fleet refused this queue's table for capacity and the wait goes on (the client's 대기 screen):
        // a refusal with its code, once per wait, not an error.
        if (m.full === true && !this.queueFullSeen) {
          this.queueFullSeen = true;
          this.sink.error('queueFull');
        }
        return;
      case 'queued':
      case 'pong':
      case 'presence':
        return;
    }
  }

  /** This quick-match wait was already counted as refused `queueFull`. */
  private queueFullSeen = false;

  private queue(): void {
    if (this.sink.stopping()) return;
    this.queueFullSeen = false;
    this.send({ v, t: 'queue', game: this.cfg.gameId, mode: this.cfg.mode, players: this.cfg.players });
  }

  private onView(m: { roomId: string; seq: number; view: any; result?: unknown }, now: number): void {
    if (m.roomId !== this.roomId) return;
    this.onViewSeq(m.seq, now, m.view);
    if (m.result !== undefined && m.result !== null) return this.finish(m.roomId);
    if (m.view?.finished) return this.finish(m.roomId);
    this.schedule();
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
    this.send({ v, t: 'leave', roomId });
    if (this.cfg.requeue && !this.sink.stopping()) {
      this.roomId = null;
      this.queue();
    }
  }

  private onAck(m: { roomId: string; actionId: string; seq: number }): void {
    const p = this.pending;
    if (!p || p.actionId !== m.actionId) return;
    this.sink.acked(m.roomId, this.cfg.userId, p.actionId, p.action, m.seq);
    const seen = p.views.find((x) => x.seq >= m.seq);
    if (seen) {
      this.sink.latency(seen.at - p.sentAt);
      this.settle();
      this.schedule();
    } else {
      p.ackSeq = m.seq;
      p.views = [];
    }
  }

  private settle(): void {
    this.pending = null;
    wheel.cancel(this.ackTimer);
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

  private act(): void {
    if (this.pending || this.done || !this.roomId || this.sink.stopping()) return;
    const action = this.next;
    if (action === null) return;
    this.next = null;
    const actionId = `${this.cfg.userId}.${++this.actionCounter}`;
    this.pending = {
      actionId,
      action,
      sentAt: performance.now(),
      views: [],
      ackSeq: null,
      resends: 0,
      decidedSeq: this.lastSeq,
    };
    this.sendAction(this.roomId, this.pending);
    this.armAckTimer();
  }

  private armAckTimer(): void {
    // The gateway retries for up to 10 s itself; past 15 s something is lost.
    wheel.arm(this.ackTimer, 15_000);
  }

  private onAckTimeout(): void {
    if (!this.pending || this.closedByUs) return;
    const p = this.pending;
    this.sink.error(
      p.ackSeq === null ? 'ackTimeout' : 'viewTimeout',
      `${this.roomId} ${p.actionId} ${JSON.stringify(p.action)} (decided on seq ${p.decidedSeq})`,
    );
    this.resend();
  }

  /** One join again of `roomId` after JOIN_AGAIN_MS, if the bot still plays there then. */
  private joinAgainSoon(roomId: string): void {
    setTimeout(() => {
      if (this.roomId === roomId && !this.closedByUs && !this.sink.stopping()) this.send({ v, t: 'join', roomId });
    }, JOIN_AGAIN_MS);
  }

  /** Same actionId again: the room worker applies it at most once. */
  private resend(): void {
    const p = this.pending;
    if (!p || !this.roomId) return;
    if (p.resends++ >= 3) {
      this.sink.error('gaveUp');
      this.settle();
      return;
    }
    setTimeout(() => {
      if (this.pending !== p || this.sink.stopping()) return;
      this.sendAction(this.roomId!, p);
      this.armAckTimer();
    }, 200);
  }

  /** Every try of one action carries the seq of the view it was chosen on (none before the first view). */
  private sendAction(roomId: string, p: Pending): void {
    const seq = p.decidedSeq >= 0 ? p.decidedSeq : undefined;
    this.send({ v, t: 'action', roomId, actionId: p.actionId, action: p.action, seq });
  }
}
