/**
 * One live room: its game state, who sits and who watches, and a queue that
 * applies ONE item at a time (like Nakama's match loop, without a fixed tick).
 *
 * Every item — a player's action, a join, a presence change, an expired
 * deadline, a bot's move — goes through the queue, so the game code never sees
 * two transitions at once. Items waiting together are applied back to back and
 * persisted in ONE snapshot write (group commit); only after that write
 * succeeds are the replies sent and the views published, so whatever a player
 * was told happened survives a crash of this process.
 */
import { COMMON_REASONS, Rng, type AnyGame, type GameEvent, type GameRecord, type RecordedStep } from '@joke/engine';
import { bus as wire, subjects, PROTOCOL_VERSION, LIMITS, type PresenceEntry } from '@joke/protocol';
import type { Bus, BusSubscription, Logger, SnapshotStore } from '@joke/bus';
import type { WorkerConfig } from './config.ts';
import type { WorkerMetrics } from './metrics.ts';
import { presenceFrame, viewFrame } from './frames.ts';
import { SubstituteTimers } from './substitute.ts';

export interface SeatMeta {
  id: string;
  name: string;
  bot: boolean;
  /** Shown as "자리 비움" after `awayAfterTimeouts` timeouts in a row; any own action clears it. */
  away: boolean;
  timeouts: number;
  /**
   * Human seats: since when (ms) no player viewer of theirs has been connected, null while
   * one is. Snapshotted so a takeover keeps the clock; absent in snapshots written before it.
   */
  disconnectedSince?: number | null;
}

export interface ViewerMeta {
  userId: string;
  gatewayId: string;
  role: 'player' | 'spectator';
  /** false while the socket is gone but the viewer did not leave: no frames, the seat shows disconnected. */
  connected: boolean;
}

/** The snapshot payload (JSON), with the engine state inside. */
export interface RoomData {
  v: 1;
  roomId: string;
  game: string;
  mode: string;
  /** Parsed options (the record replays with these). */
  options: Record<string, unknown>;
  startedAt: number;
  state: any;
  seats: SeatMeta[];
  viewers: ViewerMeta[];
  finishedAt: number | null;
  finishedPublished: boolean;
}

/** A record step as stored: `s` room seq, `n` now, then either actor `a` + action `x` (+ actionId `i`) or `t` timeout. */
export interface StepRec {
  s: number;
  n: number;
  a?: string;
  x?: unknown;
  i?: string;
  t?: 1;
}

type Respond = (data: string) => void;
type Item =
  | { kind: 'cmd'; cmd: wire.RoomCommand; respond: Respond; at: number }
  | { kind: 'join'; userId: string; spectate: boolean; gatewayId: string; respond: Respond }
  | { kind: 'presence'; userId: string; gatewayId: string; connected: boolean; left: boolean }
  | { kind: 'timeout' }
  | { kind: 'bot'; seat: string }
  | { kind: 'substitute'; seat: string }
  | { kind: 'gatewayGone'; gatewayId: string }
  | { kind: 'markPublished' };

interface Reply {
  respond: Respond;
  /** A function for join frames, built after the write with the seq they were persisted under. */
  data: string | (() => string);
  /** performance.now() when the command arrived (latency metric). */
  at?: number;
}

interface Transition {
  seq: number;
  state: any;
  events: GameEvent[];
}

export interface RoomHost {
  bus: Bus;
  store: SnapshotStore;
  cfg: WorkerConfig;
  metrics: WorkerMetrics;
  log: Logger;
  workerId: string;
  /** The room left this worker (dropped, lost its lease, handed over). */
  onGone(room: Room): void;
  onFinished(room: Room): void;
  onTransition(): void;
  gatewaySeen(gatewayId: string): void;
}

const EARLY_TIMER_SLACK_MS = 20;
const BUSY = '방이 바빠요. 잠시 후 다시 시도해 주세요';
const BAD_COMMAND = '잘못된 메시지예요';
const BOT_SEAT = '봇 자리는 조작할 수 없어요';
const FINISHED = '게임이 이미 끝났어요';
const ENGINE_ERROR = '서버에서 이 행동을 처리하지 못했어요';

export class Room {
  readonly id: string;
  private readonly idJson: string;
  readonly game: AnyGame;
  data: RoomData;
  epoch: number;
  seq: number;
  /** Full record, rebuilt from the stored steps on restore. */
  private readonly steps: StepRec[];
  /** Steps not yet written. */
  private unwritten: string[] = [];
  /** (userId, actionId) → reply, oldest first, bounded by LIMITS.rememberedActionIds. */
  private readonly replies = new Map<string, string>();
  private readonly viewers = new Map<string, ViewerMeta>();
  private queue: Item[] = [];
  private running = false;
  private paused = false;
  private idleWaiters: (() => void)[] = [];
  closed = false;
  private subs: BusSubscription[] = [];
  private deadlineTimer: NodeJS.Timeout | null = null;
  private armedDeadline: number | null = null;
  private readonly botTimers = new Map<string, NodeJS.Timeout>();
  private readonly substitutes = new SubstituteTimers((seat) => this.enqueue({ kind: 'substitute', seat }));
  private dropTimer: NodeJS.Timeout | null = null;
  private readonly botRng: Rng;
  lastWriteAt = Date.now();

  constructor(
    private readonly host: RoomHost,
    game: AnyGame,
    data: RoomData,
    epoch: number,
    seq: number,
    steps: StepRec[],
  ) {
    this.id = data.roomId;
    this.idJson = JSON.stringify(data.roomId);
    this.game = game;
    this.data = data;
    this.epoch = epoch;
    this.seq = seq;
    this.steps = steps;
    for (const v of data.viewers) this.viewers.set(viewerKey(v.userId, v.gatewayId), v);
    // Bots choose from their own view only; their randomness is not part of the game (their moves are recorded).
    this.botRng = Rng.fromSeed(`${data.roomId}:${host.workerId}:${epoch}`, 'bots');
    const recent = steps.slice(-LIMITS.rememberedActionIds);
    for (const s of recent) if (s.i !== undefined && s.a !== undefined) this.remember(s.a, s.i, okReply(s.s));
    // Snapshots from before the field existed: count from now (the earliest moment we know of).
    this.syncDisconnected(Date.now());
  }

  get finished(): boolean {
    return this.data.finishedAt !== null;
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  gateways(): Set<string> {
    const s = new Set<string>();
    for (const v of this.viewers.values()) s.add(v.gatewayId);
    return s;
  }

  /** Serve this room's subjects. Items that arrive before `start` wait in the queue. */
  subscribe(): void {
    const { bus } = this.host;
    this.subs.push(
      bus.subscribe(subjects.roomCommand(this.id), (m) => {
        if (!m.respond) return;
        const p = wire.RoomCommand.safeParse(safeJson(m.data));
        if (!p.success) return m.respond(JSON.stringify({ ok: false, reason: BAD_COMMAND }));
        this.enqueue({ kind: 'cmd', cmd: p.data, respond: m.respond, at: performance.now() });
      }),
      bus.subscribe(subjects.roomJoin(this.id), (m) => {
        if (!m.respond) return;
        const p = wire.JoinRequest.safeParse(safeJson(m.data));
        if (!p.success) return m.respond(JSON.stringify({ ok: false, reason: BAD_COMMAND }));
        this.enqueue({ kind: 'join', ...p.data, respond: m.respond });
      }),
      bus.subscribe(subjects.roomPresence(this.id), (m) => {
        const p = wire.PresenceChange.safeParse(safeJson(m.data));
        if (p.success) this.enqueue({ kind: 'presence', ...p.data, left: p.data.left ?? false });
      }),
    );
  }

  /** Begin processing: arm the deadline and the bots, run anything that queued up meanwhile. */
  start(): void {
    this.rearm();
    if (this.finished) this.afterFinish();
    this.kick();
  }

  enqueue(item: Item): void {
    if (this.closed) return;
    // Bounded so one flooded room cannot eat the worker's memory; timers and
    // presence are never refused (they are produced by the system, at most a few per room).
    if (this.queue.length >= this.host.cfg.queueMax && (item.kind === 'cmd' || item.kind === 'join')) {
      item.respond(JSON.stringify({ ok: false, reason: BUSY }));
      return;
    }
    this.queue.push(item);
    this.kick();
  }

  gatewayGone(gatewayId: string): void {
    for (const v of this.viewers.values())
      if (v.gatewayId === gatewayId) return this.enqueue({ kind: 'gatewayGone', gatewayId });
  }

  /** Stop after the batch in flight (its write and replies complete); queued items stay unanswered. */
  async pause(): Promise<void> {
    this.paused = true;
    if (!this.running) return;
    await new Promise<void>((r) => this.idleWaiters.push(r));
  }

  /** Leave this worker: no more subscriptions, timers or replies. The stored snapshot stays. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.paused = true;
    for (const s of this.subs) s.unsubscribe();
    this.subs = [];
    this.clearTimers();
    if (this.dropTimer) clearTimeout(this.dropTimer);
    this.queue = [];
    this.host.onGone(this);
  }

  private kick(): void {
    if (!this.running && !this.paused && this.queue.length > 0) void this.run();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0 && !this.paused) {
        const batch = this.queue.splice(0, this.host.cfg.batchMax);
        await this.process(batch);
      }
    } catch (err) {
      this.host.log.error({ err, roomId: this.id }, 'room loop failed; dropping the room from this worker');
      this.close();
    } finally {
      this.running = false;
      const w = this.idleWaiters;
      this.idleWaiters = [];
      for (const r of w) r();
    }
  }

  private async process(batch: Item[]): Promise<void> {
    const { metrics } = this.host;
    const replies: Reply[] = [];
    const transitions: Transition[] = [];
    let metaChanged = false;
    let rearm = false;
    const presenceBefore = this.presenceKey();

    for (const item of batch) {
      switch (item.kind) {
        case 'cmd': {
          const { cmd } = item;
          const key = replyKey(cmd.userId, cmd.actionId);
          const known = this.replies.get(key);
          if (known !== undefined) {
            metrics.duplicates.inc();
            replies.push({ respond: item.respond, data: known });
            break;
          }
          const seat = this.data.seats.find((s) => s.id === cmd.userId);
          let reason: string | null = null;
          if (seat?.bot) reason = BOT_SEAT;
          else if (this.finished) reason = FINISHED;
          else if (this.hasRuntimeOnlyField(cmd.action)) reason = COMMON_REASONS.malformed;
          if (reason === null) {
            const now = Date.now();
            const r = this.safely(() => this.game.apply(this.data.state, cmd.userId, cmd.action, now));
            if (r.ok) {
              this.accept(transitions, r.state, r.events, {
                s: 0,
                n: now,
                a: cmd.userId,
                x: cmd.action,
                i: cmd.actionId,
              });
              if (seat && (seat.away || seat.timeouts > 0)) {
                seat.away = false;
                seat.timeouts = 0;
              }
              const data = okReply(this.seq);
              this.remember(cmd.userId, cmd.actionId, data);
              replies.push({ respond: item.respond, data, at: item.at });
              metrics.transitions.inc({ kind: 'action' });
              break;
            }
            reason = r.reason;
          }
          metrics.rejected.inc();
          const data = JSON.stringify({ ok: false, reason });
          this.remember(cmd.userId, cmd.actionId, data);
          replies.push({ respond: item.respond, data, at: item.at });
          break;
        }
        case 'timeout': {
          if (this.finished) break;
          rearm = true;
          const deadline = this.game.deadline(this.data.state);
          const now = Date.now();
          // Timers run on a monotonic clock and may fire a millisecond before Date.now() reaches the
          // deadline; well before it means someone acted first and the deadline moved on.
          if (deadline === null || now < deadline - EARLY_TIMER_SLACK_MS) break;
          const due = this.dueSeats();
          const at = Math.max(now, deadline);
          const r = this.safely(() => this.game.onTimeout(this.data.state, at));
          if (!r.ok) {
            this.host.log.debug({ roomId: this.id, reason: r.reason }, 'timeout refused');
            break;
          }
          this.accept(transitions, r.state, r.events, { s: 0, n: at, t: 1 });
          for (const s of due) {
            s.timeouts++;
            if (s.timeouts >= this.host.cfg.awayAfterTimeouts) s.away = true;
          }
          metrics.transitions.inc({ kind: 'timeout' });
          break;
        }
        case 'bot': {
          this.botTimers.delete(item.seat);
          if (this.finished) break;
          const view = this.game.view(this.data.state, item.seat);
          const action = this.safely(() => ({ ok: true as const, a: this.game.bot(view, this.botRng) }));
          if (!action.ok || action.a === null) break;
          const now = Date.now();
          const r = this.safely(() => this.game.apply(this.data.state, item.seat, action.a, now));
          if (!r.ok) {
            this.host.log.warn({ roomId: this.id, seat: item.seat, reason: r.reason }, 'bot chose a refused action');
            break;
          }
          this.accept(transitions, r.state, r.events, { s: 0, n: now, a: item.seat, x: action.a });
          metrics.transitions.inc({ kind: 'bot' });
          break;
        }
        case 'substitute': {
          rearm = true;
          if (this.substituteMove(item.seat, transitions)) metrics.transitions.inc({ kind: 'substitute' });
          break;
        }
        case 'join': {
          const seat = this.data.seats.find((s) => s.id === item.userId && !s.bot);
          const role = seat && !item.spectate ? 'player' : 'spectator';
          const key = viewerKey(item.userId, item.gatewayId);
          const prev = this.viewers.get(key);
          if (!prev || prev.role !== role || !prev.connected) {
            this.viewers.set(key, { userId: item.userId, gatewayId: item.gatewayId, role, connected: true });
            metaChanged = true;
          }
          this.host.gatewaySeen(item.gatewayId);
          // The frame is built after the write, with the seq it was persisted under.
          replies.push({ respond: item.respond, data: () => this.joinReply(item.userId, role) });
          break;
        }
        case 'presence': {
          const key = viewerKey(item.userId, item.gatewayId);
          const v = this.viewers.get(key);
          if (!v) break;
          if (item.left) this.viewers.delete(key);
          else if (v.connected !== item.connected) v.connected = item.connected;
          else break;
          metaChanged = true;
          break;
        }
        case 'gatewayGone': {
          for (const [k, v] of this.viewers)
            if (v.gatewayId === item.gatewayId) {
              this.viewers.delete(k);
              metaChanged = true;
            }
          break;
        }
        case 'markPublished': {
          if (!this.data.finishedPublished) {
            this.data.finishedPublished = true;
            metaChanged = true;
          }
          break;
        }
      }
    }

    if (this.syncDisconnected(Date.now())) metaChanged = true;
    if (transitions.length === 0 && !metaChanged) {
      this.sendReplies(replies);
      if (rearm) this.rearm();
      return;
    }
    if (transitions.length > 0) this.substitutes.forgetFired();
    if (transitions.length === 0) this.seq++;
    this.data.viewers = [...this.viewers.values()];
    if (!(await this.persist())) return;

    this.sendReplies(replies);
    const presenceJson = JSON.stringify(this.presence());
    for (const t of transitions) this.publishViews(t, presenceJson);
    const presenceMoved = this.presenceKey() !== presenceBefore;
    if (transitions.length === 0 && presenceMoved) this.publishPresence(presenceJson);
    if (transitions.length > 0 || rearm) {
      this.rearm();
      if (this.finished) this.afterFinish();
    } else if (presenceMoved) this.rearmSubstitutes();
  }

  /**
   * One move of the AI substitute for a disconnected seat, applied like any
   * action and recorded under that seat (so the record replays). Nothing if the
   * player came back, nothing is due yet, or the game has no move for them.
   */
  private substituteMove(seatId: string, transitions: Transition[]): boolean {
    const sub = this.game.substitute;
    if (!sub || this.finished || this.isConnected(seatId)) return false;
    const now = Date.now();
    const since = this.disconnectedSince(seatId);
    const due = this.safely(() => ({ ok: true as const, at: sub.due(this.data.state, seatId, since) }));
    if (!due.ok || due.at === null) return false;
    if (now < due.at - EARLY_TIMER_SLACK_MS) {
      this.substitutes.forgetFired(seatId);
      return false;
    }
    const at = Math.max(now, due.at);
    const action = this.safely(() => ({ ok: true as const, a: sub.action(this.data.state, seatId, at, since) }));
    if (!action.ok || action.a === null) return false;
    const r = this.safely(() => this.game.apply(this.data.state, seatId, action.a, at));
    if (!r.ok) {
      this.host.log.warn({ roomId: this.id, seat: seatId, reason: r.reason }, 'substitute move refused');
      return false;
    }
    this.accept(transitions, r.state, r.events, { s: 0, n: at, a: seatId, x: action.a });
    return true;
  }

  /** Markers only the runtime may set (e.g. "made by the substitute"): a client sending one is refused. */
  private hasRuntimeOnlyField(action: unknown): boolean {
    const fields = this.game.runtimeOnlyFields;
    if (!fields || action === null || typeof action !== 'object') return false;
    for (const f of fields) if (Object.hasOwn(action, f)) return true;
    return false;
  }

  private accept(out: Transition[], state: any, events: GameEvent[], step: StepRec): void {
    this.data.state = state;
    this.seq++;
    step.s = this.seq;
    this.steps.push(step);
    this.unwritten.push(JSON.stringify(step));
    if (this.data.finishedAt === null && this.game.result(state) !== null) this.data.finishedAt = step.n;
    out.push({ seq: this.seq, state, events });
    this.host.onTransition();
  }

  /**
   * Writes the snapshot at the current seq, conditional on our epoch. Retries
   * store errors (Redis down) with backoff — the room waits rather than answer
   * before its state is safe. false = fenced out (another worker owns the room
   * now) or closed meanwhile: the room is gone from this worker.
   */
  private async persist(): Promise<boolean> {
    const { store, metrics, cfg, log, workerId } = this.host;
    const data = JSON.stringify(this.data);
    metrics.snapshotBytes.observe(data.length);
    const steps = this.unwritten;
    for (let attempt = 0; ; attempt++) {
      if (this.closed) return false;
      const t0 = performance.now();
      try {
        const r = await store.write(this.id, this.epoch, workerId, { seq: this.seq, data, steps }, cfg.leaseTtlMs);
        metrics.snapshotSeconds.observe((performance.now() - t0) / 1000);
        if (r === 'stale') {
          metrics.errors.inc({ kind: 'stale' });
          log.warn({ roomId: this.id, epoch: this.epoch }, 'fenced out: another worker took this room');
          this.close();
          return false;
        }
        this.unwritten = [];
        this.lastWriteAt = Date.now();
        return true;
      } catch (err) {
        metrics.errors.inc({ kind: 'store' });
        if (attempt % 10 === 0) log.error({ err, roomId: this.id, attempt }, 'snapshot write failed; retrying');
        await new Promise((r) => setTimeout(r, Math.min(20 * 2 ** attempt, 1000)));
      }
    }
  }

  private sendReplies(replies: Reply[]): void {
    const now = performance.now();
    for (const r of replies) {
      try {
        r.respond(typeof r.data === 'string' ? r.data : r.data());
      } catch (err) {
        this.host.metrics.errors.inc({ kind: 'bus' });
        this.host.log.warn({ err, roomId: this.id }, 'reply failed');
      }
      if (r.at !== undefined) this.host.metrics.actionSeconds.observe((now - r.at) / 1000);
    }
  }

  private joinReply(userId: string, role: 'player' | 'spectator'): string {
    const viewer = role === 'player' ? userId : null;
    const result = this.game.result(this.data.state);
    const frame = viewFrame(
      this.idJson,
      this.seq,
      role,
      this.game.view(this.data.state, viewer),
      [],
      JSON.stringify(this.presence()),
      result === null ? null : JSON.stringify(result),
    );
    return JSON.stringify({ ok: true, role, frame });
  }

  /** Each connected viewer's frame, encoded once, one publish per gateway. */
  private publishViews(t: Transition, presenceJson: string): void {
    if (this.viewers.size === 0) return;
    const result = this.game.result(t.state);
    const resultJson = result === null ? null : JSON.stringify(result);
    const perGateway = new Map<string, { viewer: string | null; frame: string }[]>();
    const playerFrames = new Map<string, string>();
    let spectatorFrame: string | null = null;
    const spectatorSent = new Set<string>();
    for (const v of this.viewers.values()) {
      if (!v.connected) continue;
      let list = perGateway.get(v.gatewayId);
      if (!list) perGateway.set(v.gatewayId, (list = []));
      if (v.role === 'player') {
        let frame = playerFrames.get(v.userId);
        if (frame === undefined) {
          frame = this.encodeView(t, v.userId, presenceJson, resultJson);
          playerFrames.set(v.userId, frame);
        }
        list.push({ viewer: v.userId, frame });
      } else if (!spectatorSent.has(v.gatewayId)) {
        spectatorFrame ??= this.encodeView(t, null, presenceJson, resultJson);
        spectatorSent.add(v.gatewayId);
        list.push({ viewer: null, frame: spectatorFrame });
      }
    }
    this.deliver(perGateway, t.seq);
  }

  private encodeView(t: Transition, viewer: string | null, presenceJson: string, resultJson: string | null): string {
    const events: GameEvent[] = [];
    for (const e of t.events) {
      const seen = this.game.eventView(e, viewer);
      if (seen) events.push(seen);
    }
    const role = viewer === null ? 'spectator' : 'player';
    return viewFrame(this.idJson, t.seq, role, this.game.view(t.state, viewer), events, presenceJson, resultJson);
  }

  private publishPresence(presenceJson: string): void {
    const frame = presenceFrame(this.idJson, presenceJson);
    const perGateway = new Map<string, { viewer: string | null; frame: string }[]>();
    const spectatorSent = new Set<string>();
    for (const v of this.viewers.values()) {
      if (!v.connected) continue;
      let list = perGateway.get(v.gatewayId);
      if (!list) perGateway.set(v.gatewayId, (list = []));
      if (v.role === 'player') list.push({ viewer: v.userId, frame });
      else if (!spectatorSent.has(v.gatewayId)) {
        spectatorSent.add(v.gatewayId);
        list.push({ viewer: null, frame });
      }
    }
    this.deliver(perGateway, this.seq);
  }

  /** After a restore, every connected viewer gets the current view again (a frame may have been lost in the crash). */
  republish(): void {
    this.publishViews({ seq: this.seq, state: this.data.state, events: [] }, JSON.stringify(this.presence()));
  }

  private deliver(perGateway: Map<string, { viewer: string | null; frame: string }[]>, seq: number): void {
    for (const [gatewayId, frames] of perGateway) {
      if (frames.length === 0) continue;
      try {
        this.host.bus.publish(
          subjects.gatewayDeliver(gatewayId),
          `{"roomId":${this.idJson},"seq":${seq},"frames":${JSON.stringify(frames)}}`,
        );
      } catch (err) {
        this.host.metrics.errors.inc({ kind: 'bus' });
        this.host.log.warn({ err, roomId: this.id }, 'delivery publish failed');
      }
    }
  }

  presence(): PresenceEntry[] {
    return this.data.seats.map((s) => ({
      id: s.id,
      connected: s.bot || this.isConnected(s.id),
      away: s.away,
      bot: s.bot,
    }));
  }

  private presenceKey(): string {
    let k = '';
    for (const s of this.data.seats) k += `${s.bot || this.isConnected(s.id) ? 1 : 0}${s.away ? 1 : 0}`;
    return k;
  }

  private isConnected(userId: string): boolean {
    for (const v of this.viewers.values()) if (v.userId === userId && v.role === 'player' && v.connected) return true;
    return false;
  }

  /**
   * Starts a human seat's disconnection clock when its last player viewer goes,
   * stops it when one is back. true = the meta changed (it must be written).
   */
  private syncDisconnected(now: number): boolean {
    let changed = false;
    for (const s of this.data.seats) {
      const since = s.bot || this.isConnected(s.id) ? null : (s.disconnectedSince ?? now);
      if (since !== s.disconnectedSince) {
        s.disconnectedSince = since;
        changed = true;
      }
    }
    return changed;
  }

  private disconnectedSince(seatId: string): number | null {
    return this.data.seats.find((s) => s.id === seatId)?.disconnectedSince ?? null;
  }

  /** Human seats that had something to do when the deadline passed: those are the ones who timed out. */
  private dueSeats(): SeatMeta[] {
    const probe = Rng.fromSeed('due-probe');
    const due: SeatMeta[] = [];
    for (const s of this.data.seats) {
      if (s.bot) continue;
      try {
        if (this.game.bot(this.game.view(this.data.state, s.id), probe) !== null) due.push(s);
      } catch {
        // A probe failure must not block the timeout itself.
      }
    }
    return due;
  }

  private safely<T extends { ok: boolean }>(f: () => T): T | { ok: false; reason: string } {
    try {
      return f();
    } catch (err) {
      this.host.metrics.errors.inc({ kind: 'game' });
      this.host.log.error({ err, roomId: this.id }, 'game code threw');
      return { ok: false, reason: ENGINE_ERROR };
    }
  }

  private remember(userId: string, actionId: string, reply: string): void {
    const key = replyKey(userId, actionId);
    this.replies.set(key, reply);
    if (this.replies.size > LIMITS.rememberedActionIds) this.replies.delete(this.replies.keys().next().value!);
  }

  /** Deadline timer, bot think timers and substitute timers for the current state. */
  private rearm(): void {
    if (this.closed) return;
    if (this.finished) return this.clearTimers();
    const d = this.game.deadline(this.data.state);
    if (d !== this.armedDeadline) {
      if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
      this.deadlineTimer = null;
      this.armedDeadline = d;
      if (d !== null)
        this.deadlineTimer = setTimeout(
          () => {
            this.deadlineTimer = null;
            this.armedDeadline = null;
            this.enqueue({ kind: 'timeout' });
          },
          Math.max(0, d - Date.now()),
        );
    }
    const { botDelayMs, botJitterMs } = this.host.cfg;
    for (const s of this.data.seats) {
      if (!s.bot || this.botTimers.has(s.id)) continue;
      let wants = false;
      try {
        wants = this.game.bot(this.game.view(this.data.state, s.id), this.botRng) !== null;
      } catch {
        wants = false;
      }
      if (!wants) continue;
      const delay = botDelayMs + (botJitterMs > 0 ? Math.floor(Math.random() * botJitterMs) : 0);
      this.botTimers.set(
        s.id,
        setTimeout(() => this.enqueue({ kind: 'bot', seat: s.id }), delay),
      );
    }
    this.rearmSubstitutes();
  }

  /** A substitute timer for every disconnected human seat the game has a move due for; none for the others. */
  private rearmSubstitutes(): void {
    const sub = this.game.substitute;
    if (!sub || this.closed) return;
    for (const s of this.data.seats) {
      let at: number | null = null;
      if (!s.bot && !this.finished && !this.isConnected(s.id)) {
        try {
          at = sub.due(this.data.state, s.id, s.disconnectedSince ?? null);
        } catch {
          at = null;
        }
      }
      this.substitutes.set(s.id, at);
    }
  }

  private clearTimers(): void {
    if (this.deadlineTimer) clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
    this.armedDeadline = null;
    for (const t of this.botTimers.values()) clearTimeout(t);
    this.botTimers.clear();
    this.substitutes.clear();
  }

  /** Publish the record (at least once: again after a crash before it was marked), then linger for late viewers. */
  private afterFinish(): void {
    this.clearTimers();
    if (!this.data.finishedPublished) {
      this.host.onFinished(this);
      this.enqueue({ kind: 'markPublished' });
    }
    if (!this.dropTimer) {
      const left = Math.max(0, (this.data.finishedAt ?? Date.now()) + this.host.cfg.finishedLingerMs - Date.now());
      this.dropTimer = setTimeout(() => void this.drop(), left);
    }
  }

  private async drop(): Promise<void> {
    await this.pause();
    if (this.closed) return;
    try {
      await this.host.store.drop(this.id, this.epoch);
    } catch (err) {
      this.host.metrics.errors.inc({ kind: 'store' });
      this.host.log.warn({ err, roomId: this.id }, 'drop failed; the lease will lapse and a sweep retries');
    }
    this.close();
  }

  record(): GameRecord {
    const actions: RecordedStep[] = this.steps.map((s) =>
      s.t ? { timeout: true, now: s.n } : { actor: s.a!, action: s.x, now: s.n },
    );
    return {
      game: this.data.game,
      options: this.data.options,
      players: this.data.seats.map((s) => ({ id: s.id, name: s.name })),
      startedAt: this.data.startedAt,
      seedCommit: this.data.state.seedCommit,
      seed: this.data.state.seed,
      actions,
      result: this.game.result(this.data.state),
    };
  }

  finishedMessage(): string {
    const record = this.record();
    return JSON.stringify({
      v: PROTOCOL_VERSION,
      roomId: this.id,
      game: this.data.game,
      mode: this.data.mode,
      players: this.data.seats.map((s) => ({ id: s.id, name: s.name, bot: s.bot })),
      record,
      result: record.result,
      finishedAt: this.data.finishedAt,
    });
  }
}

const viewerKey = (userId: string, gatewayId: string): string => `${gatewayId}\u0000${userId}`;
const replyKey = (userId: string, actionId: string): string => `${userId}\u0000${actionId}`;
const okReply = (seq: number): string => `{"ok":true,"seq":${seq}}`;

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
