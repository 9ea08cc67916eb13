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
import { COMMON_REASONS, Rng, type AnyGame, type GameEvent, type GameRecord } from '@joke/engine';
import { ERRORS, refuse, type bus as wire, type PresenceEntry, type RefusalCode } from '@joke/protocol';
import type { BusSubscription } from '@joke/bus';
import { Deliveries } from './deliveries.ts';
import { dueSeats, guard, hasRuntimeOnlyField, type Safely } from './game-calls.ts';
import { subscribeRoom } from './inbound.ts';
import { subscribeChat } from './chat.ts';
import { writeSnapshot } from './persist.ts';
import { SnapshotEncoder } from './snapshot.ts';
import { isConnected, presenceKey, presenceList, syncDisconnected } from './presence.ts';
import { forgetDeparted, presenceKeys, roomForSpectator, setConnected, viewerKey } from './viewers.ts';
import { ActionMemory, okReply } from './idempotency.ts';
import { OccupancyReporter } from './lifecycle.ts';
import { buildRecord, finishedMessage } from './room-record.ts';
import { RoomTimers } from './room-timers.ts';
import type { Item, Reply, RoomData, RoomHost, StepRec, Transition, ViewerMeta } from './room-types.ts';

export type { Item, RoomData, RoomHost, SeatMeta, StepRec, ViewerMeta } from './room-types.ts';

const EARLY_TIMER_SLACK_MS = 20;

export class Room {
  readonly id: string;
  readonly game: AnyGame;
  data: RoomData;
  epoch: number;
  seq: number;
  /** Full record, rebuilt from the stored steps on restore. */
  private readonly steps: StepRec[];
  /** Steps not yet written. */
  private unwritten: string[] = [];
  private readonly replies: ActionMemory;
  private readonly viewers = new Map<string, ViewerMeta>();
  private queue: Item[] = [];
  private running = false;
  private paused = false;
  /** The bus dropped: nothing is processed or answered until the lease is checked again (reconnect.ts). */
  private held = false;
  private idleWaiters: (() => void)[] = [];
  closed = false;
  private subs: BusSubscription[] = [];
  private readonly timers: RoomTimers;
  private readonly deliveries: Deliveries;
  private dropTimer: NodeJS.Timeout | null = null;
  private readonly botRng: Rng;
  private readonly safely: Safely;
  private readonly snapshot = new SnapshotEncoder();
  private readonly occupancy: OccupancyReporter;
  lastWriteAt = Date.now();
  /** The store's generation marker when this room was opened here (store-loss.ts); null = none. */
  generation: string | null = null;

  constructor(
    private readonly host: RoomHost,
    game: AnyGame,
    data: RoomData,
    epoch: number,
    seq: number,
    steps: StepRec[],
  ) {
    this.id = data.roomId;
    this.occupancy = new OccupancyReporter(host.bus, data.roomId, host.log);
    this.game = game;
    this.data = data;
    this.epoch = epoch;
    this.seq = seq;
    this.steps = steps;
    for (const v of data.viewers) this.viewers.set(viewerKey(v.userId, v.gatewayId, v.role), v);
    // Bots choose from their own view only; their randomness is not part of the game (their moves are recorded).
    this.botRng = Rng.fromSeed(`${data.roomId}:${host.workerId}:${epoch}`, 'bots');
    const humanSeats = new Set(data.seats.filter((s) => !s.bot).map((s) => s.id));
    this.replies = ActionMemory.fromSteps(steps, (userId) => humanSeats.has(userId));
    this.timers = new RoomTimers(this, host.cfg, this.botRng);
    this.deliveries = new Deliveries(host, game, this.id);
    this.safely = guard(host, this.id);
    // Snapshots from before the field existed: count from now (the earliest moment we know of).
    syncDisconnected(data.seats, this.viewers, Date.now());
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
    this.subs.push(...subscribeRoom(this.host.bus, this.id, (item) => this.enqueue(item)));
    this.subs.push(
      subscribeChat(this.host, { id: this.id, policy: () => this.data.chat, viewers: () => this.viewers.values() }),
    );
  }

  /** Begin processing: arm the deadline and the bots, run anything that queued up meanwhile. */
  start(): void {
    this.timers.rearm();
    if (this.finished) this.afterFinish();
    this.kick();
  }

  enqueue(item: Item): void {
    if (this.closed) return;
    // Bounded so one flooded room cannot eat the worker's memory; timers and
    // presence are never refused (they are produced by the system, at most a few per room).
    if (this.queue.length >= this.host.cfg.queueMax && (item.kind === 'cmd' || item.kind === 'join')) {
      // Held, even "busy" could race a new owner's answer: say nothing, the gateway retries.
      if (!this.held) item.respond(refuse('busy'));
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

  /**
   * The bus was cut off: a matchmaker may fail this room over meanwhile, and answering from our state after
   * the reconnect would race the new owner (a refusal of an action it applied). Items queue unanswered.
   */
  hold(): void {
    this.held = true;
  }

  /** The lease was confirmed ours after the reconnect: answer what queued up. */
  unhold(): void {
    if (!this.held) return;
    this.held = false;
    this.kick();
  }

  get isHeld(): boolean {
    return this.held;
  }

  /** Leave this worker: no more subscriptions, timers or replies. The stored snapshot stays. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.paused = true;
    for (const s of this.subs) s.unsubscribe();
    this.subs = [];
    this.timers.clear();
    if (this.dropTimer) clearTimeout(this.dropTimer);
    this.queue = [];
    this.host.onGone(this);
  }

  private kick(): void {
    if (!this.running && !this.paused && !this.held && this.queue.length > 0) void this.run();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.queue.length > 0 && !this.paused && !this.held) {
        const batch = this.queue.splice(0, this.host.cfg.batchMax);
        await this.process(batch);
        if (!this.closed) this.occupancy.report(this.data.seats, this.viewers);
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
    const presenceBefore = presenceKey(this.data.seats, this.viewers);

    for (const item of batch) {
      switch (item.kind) {
        case 'cmd': {
          const { cmd } = item;
          const known = this.replies.get(cmd.userId, cmd.actionId);
          if (known !== undefined) {
            metrics.duplicates.inc();
            replies.push({ send: () => item.respond(known) });
            break;
          }
          const seat = this.data.seats.find((s) => s.id === cmd.userId);
          let code: RefusalCode | null = null;
          let reason: string | undefined;
          if (seat?.bot) code = 'botSeat';
          else if (this.finished) code = 'finished';
          else if (hasRuntimeOnlyField(this.game, cmd.action)) [code, reason] = ['malformed', COMMON_REASONS.malformed];
          if (code === null) {
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
                this.snapshot.metaChanged();
              }
              const data = okReply(this.seq);
              this.replies.acknowledged(cmd.userId, cmd.actionId, data);
              replies.push({ send: () => item.respond(data), at: item.at });
              metrics.transitions.inc({ kind: 'action' });
              break;
            }
            [code, reason] = ['crashed' in r ? 'internal' : 'illegal', r.reason];
          }
          metrics.rejected.inc();
          const data = refuse(code, reason);
          this.replies.refused(cmd.userId, cmd.actionId, data);
          replies.push({ send: () => item.respond(data), at: item.at });
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
          const due = dueSeats(this.game, this.data.state, this.data.seats);
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
          if (due.length > 0) this.snapshot.metaChanged();
          metrics.transitions.inc({ kind: 'timeout' });
          break;
        }
        case 'bot': {
          this.timers.botFired(item.seat);
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
          const key = viewerKey(item.userId, item.gatewayId, role);
          const prev = this.viewers.get(key);
          if (!prev && role === 'spectator') {
            const before = this.viewers.size;
            const admitted = roomForSpectator(this.viewers, this.host.cfg.maxSpectators);
            if (this.viewers.size !== before) metaChanged = true;
            if (!admitted) {
              metrics.rejected.inc();
              replies.push({ send: () => item.respond(refuse('spectatorsFull')) });
              break;
            }
          }
          if (!prev || !prev.connected) {
            this.viewers.set(key, { userId: item.userId, gatewayId: item.gatewayId, role, connected: true });
            metaChanged = true;
          }
          this.host.gatewaySeen(item.gatewayId);
          // The frame is built after the write, with the seq it was persisted under.
          replies.push({ send: () => item.respond(this.joinReply(item.userId, role)) });
          break;
        }
        case 'presence': {
          const now = Date.now();
          for (const key of presenceKeys(item.userId, item.gatewayId, item.role)) {
            const v = this.viewers.get(key);
            if (!v) continue;
            if (item.left) this.viewers.delete(key);
            else if (!setConnected(v, item.connected, now)) continue;
            metaChanged = true;
          }
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

    if (forgetDeparted(this.viewers, Date.now(), this.host.cfg.viewerGraceMs)) metaChanged = true;
    if (syncDisconnected(this.data.seats, this.viewers, Date.now())) metaChanged = true;
    if (metaChanged) this.snapshot.metaChanged();
    if (transitions.length === 0 && !metaChanged) {
      this.sendReplies(replies);
      if (rearm) this.timers.rearm();
      return;
    }
    if (transitions.length > 0) this.timers.forgetFiredSubstitutes();
    if (transitions.length === 0) this.seq++;
    this.data.viewers = [...this.viewers.values()];
    if (!(await this.persist())) return;

    this.sendReplies(replies);
    const presenceJson = JSON.stringify(this.presence());
    for (const t of transitions) this.deliveries.views(this.viewers, t, presenceJson);
    const presenceMoved = presenceKey(this.data.seats, this.viewers) !== presenceBefore;
    if (transitions.length === 0 && presenceMoved) this.deliveries.presence(this.viewers, this.seq, presenceJson);
    if (transitions.length > 0 || rearm) {
      this.timers.rearm();
      if (this.finished) this.afterFinish();
    } else if (presenceMoved) this.timers.rearmSubstitutes();
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
    const since = this.data.seats.find((s) => s.id === seatId)?.disconnectedSince ?? null;
    const due = this.safely(() => ({ ok: true as const, at: sub.due(this.data.state, seatId, since) }));
    if (!due.ok || due.at === null) return false;
    if (now < due.at - EARLY_TIMER_SLACK_MS) {
      this.timers.forgetFiredSubstitutes(seatId);
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

  private accept(out: Transition[], state: any, events: GameEvent[], step: StepRec): void {
    this.data.state = state;
    this.seq++;
    step.s = this.seq;
    this.steps.push(step);
    this.unwritten.push(JSON.stringify(step));
    if (this.data.finishedAt === null && this.game.result(state) !== null) {
      this.data.finishedAt = step.n;
      this.snapshot.metaChanged();
    }
    out.push({ seq: this.seq, state, events });
    this.host.onTransition();
  }

  /** Writes the snapshot at the current seq. false = the room is gone from this worker (fenced out or closed). */
  private async persist(): Promise<boolean> {
    const r = await writeSnapshot(this.host, this, this.snapshot.encode(this.data), this.unwritten);
    if (r === 'stale') this.close();
    if (r === 'lost') this.storeLost();
    if (r !== 'ok') return false;
    this.unwritten = [];
    this.lastWriteAt = Date.now();
    return true;
  }

  private sendReplies(replies: Reply[]): void {
    const now = performance.now();
    for (const r of replies) {
      try {
        r.send();
      } catch (err) {
        this.host.metrics.errors.inc({ kind: 'bus' });
        this.host.log.warn({ err, roomId: this.id }, 'reply failed');
      }
      if (r.at !== undefined) this.host.metrics.actionSeconds.observe((now - r.at) / 1000);
    }
  }

  private joinReply(userId: string, role: 'player' | 'spectator'): wire.JoinReply {
    return this.deliveries.joinReply(this.data.state, this.seq, userId, role, JSON.stringify(this.presence()));
  }

  /**
   * The store lost this room's state: nothing acknowledged since can be trusted to survive, so the game
   * stops here. Every viewer is told in Korean (`error tableLost`), the worker reports it and tells the
   * lobby (which frees the table to be started again), and the room leaves this worker.
   */
  storeLost(): void {
    if (this.closed) return;
    const text = JSON.stringify({ v: 1, t: 'error', code: 'tableLost', message: ERRORS.tableLost, roomId: this.id });
    this.deliveries.notice(this.viewers, this.seq, text);
    this.host.onStoreLost(this);
    this.close();
  }

  /** After a restore, every connected viewer gets the current view again (a frame may have been lost in the crash). */
  republish(): void {
    const t = { seq: this.seq, state: this.data.state, events: [] };
    this.deliveries.views(this.viewers, t, JSON.stringify(this.presence()));
  }

  presence(): PresenceEntry[] {
    return presenceList(this.data.seats, this.viewers);
  }

  isConnected(userId: string): boolean {
    return isConnected(this.viewers, userId);
  }

  /** Publish the record (at least once: again after a crash before it was marked), then linger for late viewers. */
  private afterFinish(): void {
    this.timers.clear();
    if (!this.data.finishedPublished) {
      // Marked only once the stream stored it: a crash before that publishes it again (same id: a duplicate
      // the stream drops, and the lobby's history is idempotent anyway).
      void this.host.onFinished(this).then(() => {
        if (!this.closed) this.enqueue({ kind: 'markPublished' });
      });
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
    this.occupancy.closed();
    this.host.onClosedForGood(this);
    this.close();
  }

  record(): GameRecord {
    return buildRecord(this.game, this.data, this.steps);
  }

  finishedMessage(): wire.RoomFinished {
    return finishedMessage(this.game, this.data, this.steps);
  }
}
