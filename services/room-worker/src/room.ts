/**
 * One live room: its game state, who sits and who watches, and what happens to
 * a batch of items from its queue (room-queue.ts, one batch at a time).
 *
 * Every item — a player's action, a join, a presence change, an expired
 * deadline, a bot's move — goes through the queue, so the game code never sees
 * two transitions at once. Items waiting together are applied back to back
 * (room-moves.ts for the game, room-membership.ts for who is in the room) and
 * persisted in ONE snapshot write (group commit); only after that write
 * succeeds are the replies sent and the views published, so whatever a player
 * was told happened survives a crash of this process.
 *
 * Failure modes here: a write fenced out by a newer owner (`stale`) closes the
 * room on this worker; a store that lost the room (`lost`) ends the game and
 * tells every viewer (storeLost); a batch that throws drops the room here (the
 * stored snapshot stays, a sweep or a takeover restores it).
 */
import { Rng, type AnyGame, type GameEvent, type GameRecord, type GameStateBase } from '@joke/engine';
import { type bus as wire, type PresenceEntry } from '@joke/protocol';
import { encodeError } from '@joke/protocol/wire';
import { SubjectFamily, type BusSubscription } from '@joke/bus';
import { tracingOn } from '@joke/bus/tracing';
import { Deliveries } from './deliveries.ts';
import { guard } from './game-calls.ts';
import { subscribeRoom } from './inbound.ts';
import { subscribeChat } from './chat.ts';
import { writeRoom } from './persist.ts';
import { SnapshotEncoder } from './snapshot.ts';
import { isConnected, PresenceCache, presenceKey, presenceList, syncDisconnected } from './presence.ts';
import { viewerKey } from './viewers.ts';
import { ActionMemory } from './idempotency.ts';
import { OccupancyReporter } from './lifecycle.ts';
import { buildRecord, finishedMessage } from './room-record.ts';
import { RoomTimers } from './room-timers.ts';
import { ItemQueue, type QueueOwner } from './room-queue.ts';
import { RoomMoves, type Batch, type MovingRoom } from './room-moves.ts';
import { BatchTrace } from './batch-trace.ts';
import { RoomMembership } from './room-membership.ts';
import { DepartureOutbox } from './departures.ts';
import { FinishLinger } from './room-finish.ts';
import type { Item, Reply, RoomData, RoomHost, StepRec, Transition, ViewerMeta } from './room-types.ts';

export type { Item, RoomData, RoomHost, SeatMeta, StepRec, ViewerMeta } from './room-types.ts';

export class Room implements QueueOwner, MovingRoom {
  readonly id: string;
  readonly game: AnyGame;
  data: RoomData;
  epoch: number;
  seq: number;
  /**
   * The seq of the last state the game accepted (or the seq the room was opened or restored at): a move
   * chosen on an older view is stale. Not `seq`, which a viewer joining or leaving also advances without
   * a view to anyone, so every player's next move would have been refused `stale` until something moved.
   */
  stateSeq: number;
  /**
   * The game's record so far, one step's JSON text each (the very text written to the store),
   * parsed only when the record is built. As objects a step was 4–5 heap objects — the step, its
   * action, the action's arrays — each kept for the rest of the game; as one flat string it is one,
   * and every major GC marks each of them in every live room.
   */
  private readonly stepTexts: string[];
  /** Steps not yet written. */
  private unwritten: string[] = [];
  /** The seq of the room's last stored write: a steps-only write continues it. */
  writtenSeq: number;
  private readonly viewers = new Map<string, ViewerMeta>();
  private readonly queue: ItemQueue;
  private readonly moves: RoomMoves;
  private readonly membership: RoomMembership;
  private readonly departures: DepartureOutbox;
  closed = false;
  private subs: BusSubscription[] = [];
  private readonly timers: RoomTimers;
  private readonly deliveries: Deliveries;
  private readonly linger: FinishLinger;
  private readonly snapshot: SnapshotEncoder;
  private readonly occupancy: OccupancyReporter;
  private readonly presenceText = new PresenceCache();
  lastWriteAt: number;
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
    this.lastWriteAt = host.clock.now();
    this.occupancy = new OccupancyReporter(host.bus, data.roomId, host.log, host.clock);
    this.game = game;
    this.data = data;
    this.epoch = epoch;
    this.seq = seq;
    this.stateSeq = seq;
    this.writtenSeq = seq;
    this.snapshot = new SnapshotEncoder(host.cfg.snapshotBaseSteps);
    this.stepTexts = steps.map((step) => JSON.stringify(step));
    for (const v of data.viewers) this.viewers.set(viewerKey(v.userId, v.gatewayId, v.role), v);
    // Bots choose from their own view only; their randomness is not part of the game (their moves are recorded).
    const botRng = Rng.fromSeed(`${data.roomId}:${host.workerId}:${epoch}`, 'bots');
    const humanSeats = new Set(data.seats.filter((s) => !s.bot).map((s) => s.id));
    const replies = ActionMemory.fromSteps(steps, (userId) => humanSeats.has(userId));
    this.timers = new RoomTimers(this, host.cfg, host.clock);
    this.deliveries = new Deliveries(host, game, this.id);
    this.queue = new ItemQueue(this, host.cfg.queueMax, host.cfg.batchMax, host.intake);
    this.moves = new RoomMoves(this, host, guard(host, this.id), botRng, replies, this.timers);
    this.membership = new RoomMembership(
      host,
      () => this.data,
      this.viewers,
      (u, gatewayId, role) => this.joinReply(u, gatewayId, role),
      (key) => this.deliveries.viewerGone(key),
    );
    this.departures = new DepartureOutbox(
      this.id,
      () => this.data,
      (d, id) => host.onDeparture(this, d, id),
      (ids) => this.enqueue({ kind: 'departuresPublished', ids }),
    );
    this.linger = new FinishLinger(
      host,
      this,
      () => {
        this.timers.clear();
      },
      () => this.occupancy.closed(),
    );
    // Snapshots from before the field existed: count from now (the earliest moment we know of).
    syncDisconnected(data.seats, this.viewers, host.clock.now());
  }

  get finished(): boolean {
    return this.data.finishedAt !== null;
  }

  /**
   * Not finished, with a player at the table (a connected player viewer): a table that costs what a new
   * one will (headroom.ts). The others play out on substitutes, or linger finished, for much less.
   */
  get live(): boolean {
    if (this.finished) return false;
    for (const v of this.viewers.values()) if (v.role === 'player' && v.connected) return true;
    return false;
  }

  get viewerCount(): number {
    return this.viewers.size;
  }

  /** Items queued for the next batch (a held room keeps them). */
  get queued(): number {
    return this.queue.waiting;
  }

  gateways(): Set<string> {
    const s = new Set<string>();
    for (const v of this.viewers.values()) s.add(v.gatewayId);
    return s;
  }

  /**
   * Serve this room's subjects — commands, joins, presence and chat — over one bus subscription
   * (`SubjectFamily`). Items that arrive before `start` wait in the queue.
   */
  subscribe(): void {
    const family = new SubjectFamily(this.host.bus);
    this.subs.push(...subscribeRoom(family, this.id, (item) => this.enqueue(item), this.host.intake));
    this.subs.push(
      subscribeChat(
        {
          bus: family,
          log: this.host.log,
          now: () => this.host.clock.now(),
          budget: {
            ratePerSecond: this.host.cfg.chatRatePerSecond,
            burst: this.host.cfg.chatBurst,
            playerReserve: this.host.cfg.chatPlayerReserve,
          },
        },
        { id: this.id, policy: () => this.data.chat, viewers: () => this.viewers.values() },
      ),
    );
  }

  /** Begin processing: arm the deadline and the bots, run anything that queued up meanwhile. */
  start(): void {
    this.timers.rearm();
    // Departures a previous owner saw but the stream may not have stored (departures.ts).
    this.departures.flush();
    if (this.finished) this.linger.afterFinish();
    this.queue.kick();
  }

  enqueue(item: Item): void {
    if (this.closed) return;
    this.queue.push(item);
  }

  gatewayGone(gatewayId: string): void {
    for (const v of this.viewers.values())
      if (v.gatewayId === gatewayId) return this.enqueue({ kind: 'gatewayGone', gatewayId });
  }

  /** Stop after the batch in flight (its write and replies complete); queued items stay unanswered. */
  pause(): Promise<void> {
    return this.queue.pause();
  }

  /**
   * The bus was cut off: a matchmaker may fail this room over meanwhile, and answering from our state after
   * the reconnect would race the new owner (a refusal of an action it applied). Items queue unanswered.
   */
  hold(): void {
    this.queue.hold();
  }

  /** The lease was confirmed ours after the reconnect: answer what queued up. */
  unhold(): void {
    this.queue.unhold();
  }

  get isHeld(): boolean {
    return this.queue.isHeld;
  }

  /** Leave this worker: no more subscriptions, timers or replies. The stored snapshot stays. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.queue.clear();
    for (const s of this.subs) s.unsubscribe();
    this.subs = [];
    this.timers.clear();
    this.linger.cancel();
    this.host.onGone(this);
  }

  /**
   * One batch from the queue: apply every item, write once, then reply and publish. Traced (tracing on and
   * a command of the batch carries a trace context) inside its spans (batch-trace.ts); otherwise straight
   * to `apply`, with no promise or span more.
   */
  process(batch: Item[]): Promise<void> {
    const traced = tracingOn() ? BatchTrace.of(this.id, batch) : null;
    return traced === null ? this.apply(batch, null) : this.applyTraced(batch, traced);
  }

  private async applyTraced(batch: Item[], traced: BatchTrace): Promise<void> {
    try {
      await this.apply(batch, traced);
    } catch (err) {
      traced.failed(err);
      throw err;
    }
    traced.end(this.seq);
  }

  private async apply(batch: Item[], traced: BatchTrace | null): Promise<void> {
    const out: Batch = { replies: [], transitions: [], metaChanged: false, rearm: false };
    const presenceBefore = presenceKey(this.data.seats, this.viewers);
    for (const item of batch) {
      switch (item.kind) {
        case 'cmd':
          this.moves.command(item, out);
          break;
        case 'timeout':
          this.moves.timeout(out);
          break;
        case 'bot':
          this.moves.bot(item.seat, out);
          break;
        case 'substitute':
          this.moves.substitute(item.seat, out);
          break;
        case 'join':
          this.membership.join(item, out);
          break;
        case 'presence':
          this.membership.presence(item, out);
          break;
        case 'gatewayGone':
          this.membership.gatewayGone(item.gatewayId, out);
          break;
        case 'markPublished':
          this.membership.markPublished(out);
          break;
        case 'departuresPublished':
          if (this.departures.remove(item.ids)) out.metaChanged = true;
          break;
      }
    }

    const { transitions, replies, rearm } = out;
    this.membership.settle(out, this.finished, this.departures);
    if (out.metaChanged) this.snapshot.metaChanged();
    if (transitions.length === 0 && !out.metaChanged) {
      this.sendReplies(replies);
      if (rearm) this.timers.rearm();
      return;
    }
    if (transitions.length > 0) this.timers.forgetFiredSubstitutes();
    if (transitions.length === 0) this.seq++;
    this.data.viewers = [...this.viewers.values()];
    if (!(await (traced === null ? this.persist() : traced.snapshot(() => this.persist())))) return;

    const presenceNow = presenceKey(this.data.seats, this.viewers);
    const presenceJson = this.presenceJson(presenceNow);
    // Before any frame of the batch: the frames folded into a command's reply are built ahead of the replies.
    if (out.joined) this.deliveries.joinsAnswered(out.joined, this.data.state, presenceJson);
    // One accepted command made the batch's one transition: its gateway's frames ride on its reply.
    const folded = transitions.length === 1 ? replies.find((r) => r.withFrames !== undefined) : undefined;
    const held =
      folded && this.deliveries.views(this.viewers, transitions[0], presenceJson, folded.withFrames!.gatewayId);
    this.sendReplies(replies, folded, held ?? null);
    if (this.data.departures) this.departures.flush();
    if (!folded) for (const t of transitions) this.deliveries.views(this.viewers, t, presenceJson);
    const presenceMoved = presenceNow !== presenceBefore;
    if (transitions.length === 0 && presenceMoved) this.deliveries.presence(this.viewers, this.seq, presenceJson);
    if (transitions.length > 0 || rearm) {
      this.timers.rearm();
      if (this.finished) this.linger.afterFinish();
    } else if (presenceMoved) this.timers.rearmSubstitutes();
  }

  afterBatch(): void {
    if (!this.closed) this.occupancy.report(this.data.seats, this.viewers);
  }

  failed(err: unknown): void {
    this.host.log.error({ err, roomId: this.id }, 'room loop failed; dropping the room from this worker');
    this.close();
  }

  /** A transition the game accepted: numbered, recorded, and queued for the next write. */
  accept(out: Transition[], state: GameStateBase, events: GameEvent[], step: StepRec): void {
    this.data.state = state;
    this.seq++;
    this.stateSeq = this.seq;
    step.s = this.seq;
    const text = JSON.stringify(step);
    this.stepTexts.push(text);
    this.unwritten.push(text);
    if (this.data.finishedAt === null && this.game.result(state) !== null) {
      this.data.finishedAt = step.n;
      this.snapshot.metaChanged();
    }
    out.push({ seq: this.seq, state, events });
    this.host.onTransition();
  }

  /** Writes the room at the current seq (whole or steps only). false = the room is gone from this worker. */
  private async persist(): Promise<boolean> {
    const r = await writeRoom(this.host, this, this.snapshot, this.unwritten);
    if (r === 'stale') this.close();
    if (r === 'lost') this.storeLost();
    if (r !== 'ok') return false;
    this.writtenSeq = this.seq;
    this.unwritten = [];
    this.lastWriteAt = this.host.clock.now();
    return true;
  }

  /** `folded` (if any) is sent with `held`, its gateway's frames of the transition, when there are some. */
  private sendReplies(replies: Reply[], folded?: Reply, held: wire.Delivery | null = null): void {
    const now = performance.now();
    for (const r of replies) {
      try {
        if (r === folded && held !== null) r.withFrames!.send(held);
        else r.send();
      } catch (err) {
        this.host.metrics.errors.inc({ kind: 'bus' });
        this.host.log.warn({ err, roomId: this.id }, 'reply failed');
      }
      if (r.at !== undefined) this.host.metrics.actionSeconds.observe((now - r.at) / 1000);
    }
  }

  private joinReply(userId: string, gatewayId: string, role: 'player' | 'spectator'): wire.JoinReply {
    return this.deliveries.joinReply(this.data.state, this.seq, userId, gatewayId, role, this.presenceJson());
  }

  /**
   * The store lost this room's state: nothing acknowledged since can be trusted to survive, so the game
   * stops here. Every viewer is told in Korean (`error tableLost`), the worker reports it and tells the
   * lobby (which frees the table to be started again), and the room leaves this worker.
   */
  storeLost(): void {
    if (this.closed) return;
    const text = encodeError('tableLost', undefined, { roomId: this.id });
    this.deliveries.notice(this.viewers, this.seq, text);
    this.host.onStoreLost(this);
    this.close();
  }

  /**
   * After a restore, every connected viewer gets the current view again (a frame may have been lost in the crash),
   * with the game's fixed members: this worker has sent them to nobody yet.
   */
  republish(): void {
    const t = { seq: this.seq, state: this.data.state, events: [] };
    this.deliveries.views(this.viewers, t, this.presenceJson());
    // A gateway drops that view where its socket has the seq already, and the presence list with it.
    this.deliveries.presenceUnsure();
  }

  presence(): PresenceEntry[] {
    return presenceList(this.data.seats, this.viewers);
  }

  private presenceJson(key = presenceKey(this.data.seats, this.viewers)): string {
    return this.presenceText.json(key, () => this.presence());
  }

  isConnected(userId: string): boolean {
    return isConnected(this.viewers, userId);
  }

  record(): GameRecord {
    return buildRecord(this.game, this.data, this.steps());
  }

  finishedMessage(): wire.RoomFinished {
    return finishedMessage(this.game, this.data, this.steps());
  }

  private steps(): StepRec[] {
    return this.stepTexts.map((text) => JSON.parse(text) as StepRec);
  }
}
