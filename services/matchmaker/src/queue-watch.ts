/**
 * What a quick-match queue looks like to the people in it: after every change
 * each waiting user's gateway hears the queue's size and when bots will fill
 * it; and when the oldest entry has waited `queueBotFillMs`, the humans who
 * accept bots are seated with bots in the remaining seats.
 *
 * A queue may also hold a full table's worth of players while waiting for a
 * group of one gateway (`queueGatewayHoldMs`, MatchStore.enqueue): once its
 * oldest entry has waited that long, the oldest are seated wherever they are.
 *
 * Replicas may all hold a timer for the same queue: `claim` lets one of them
 * fill it, and each human is taken with `dequeue`, which succeeds for exactly
 * one caller, so a table formed meanwhile by `enqueue` never loses a player twice.
 *
 * A table refused `capacity` (every worker out of headroom) goes back in line; until a table of that
 * queue starts (or FULL_MEMORY_MS pass with no new refusal) its statuses say `full`, so the players
 * see why they wait. This memory is per replica: another replica's statuses may omit it meanwhile.
 */
import { contract, emit, PROTOCOL_VERSION } from '@joke/protocol';
import type { QueueEntry } from '@joke/stores';
import { unrefTimer, type Timer } from '@joke/bus/clock';
import type { QueueBase } from './queues.ts';

export interface QueueKey {
  game: string;
  mode: string;
  players: number;
}

export const queueKey = (q: QueueKey): string => `${q.game}:${q.mode}:${q.players}`;

/** Display names of bots seated by a quick match (the lobby's names are its own). */
const BOT_NAMES = ['봇 똘이', '봇 순이', '봇 뭉치', '봇 호두', '봇 보리', '봇 콩이', '봇 달이', '봇 밤이', '봇 율무'];

/** How a try to start a table ended: seated, refused `capacity` (back in line), or not started for another reason. */
export type TableStart = 'started' | 'fleetFull' | 'notStarted';
export type StartTable = (key: string, q: QueueKey, humans: QueueEntry[], bots: number) => Promise<TableStart>;

/** How long a `capacity` refusal keeps a queue's statuses `full`: a few of its ~1 s retries. */
const FULL_MEMORY_MS = 5_000;
/** Tables one timer of a held line seats at most (the next are seated by the next round's timer). */
const SEAT_BATCH = 200;
/** How soon a line the full fleet left waiting looks again for a worker with room. */
const FULL_RETRY_MS = 1_000;

/**
 * The pause before another status round of a line that just told `told` people: none for a short line,
 * then 1 ms a person (at most STATUS_PER_S statuses a second from one queue), at most 15 s. Each round
 * reads the whole line and sends one message a person, and rounds ran back to back while people kept
 * coming: at 3× the knee (thousands waiting for a full fleet) that was Redis's busiest work and half a core
 * of the box. At 0.2 ms a person (2026-12-08 runs) a line of 7,000 still got 5,000 statuses a second, as
 * many frames as the tables playing sent: a wait shown a few seconds late costs a player little, views
 * of a table late cost them the game, so the line's statuses are what gives way.
 */
export function statusGapMs(told: number): number {
  return told < 500 ? 0 : Math.min(15_000, Math.round((told * 1_000) / STATUS_PER_S));
}

/** Statuses a second one queue's long line is told at most (statusGapMs). */
export const STATUS_PER_S = 1_000;

export class QueueWatch {
  private readonly timers = new Map<string, { at: number; timer: Timer }>();
  /** Per queue: the status round in flight, and whether another change came meanwhile. */
  private readonly rounds = new Map<string, { again: boolean; done: Promise<void> }>();
  /** Per queue: when its last table was refused `capacity` (cleared when one starts). */
  private readonly fullAt = new Map<string, number>();
  private closed = false;

  constructor(
    private readonly h: QueueBase,
    private readonly startTable: StartTable,
  ) {}

  private now(): number {
    return this.h.clock.now();
  }

  /** Remembers how a table of queue `key` fared, for the `full` of its next statuses; true if it started. */
  tried(key: string, result: TableStart): boolean {
    if (result === 'fleetFull') this.fullAt.set(key, this.now());
    else if (result === 'started') this.fullAt.delete(key);
    return result === 'started';
  }

  private async start(key: string, q: QueueKey, humans: QueueEntry[], bots: number): Promise<boolean> {
    return this.tried(key, await this.startTable(key, q, humans, bots));
  }

  /**
   * The queue changed (someone came, left, or a table was formed): tell who still waits. Each round
   * reads the whole queue and tells every waiting user, so one round per change would cost O(waiting²)
   * messages while a queue fills (measured: 1,853 status messages/s against 161 commands/s while 400
   * tables formed on a loaded box). Changes that arrive while a round of the same queue is in flight
   * share ONE next round, which reads the queue as it is then; the promise resolves once a round that
   * started after this change is done.
   */
  changed(q: QueueKey): Promise<void> {
    const key = queueKey(q);
    const r = this.rounds.get(key);
    if (r) {
      r.again = true;
      return r.done;
    }
    const round = { again: false, done: Promise.resolve() };
    this.rounds.set(key, round);
    round.done = (async () => {
      try {
        do {
          round.again = false;
          const told = await this.tell(key, q);
          // A long line: the next round (one more change came meanwhile) waits in proportion to it, so
          // that telling everyone in it stays a bounded share of the work (statusGapMs).
          if (round.again && !this.closed) await this.pause(statusGapMs(told));
        } while (round.again && !this.closed);
      } finally {
        this.rounds.delete(key);
      }
    })();
    return round.done;
  }

  private pause(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((r) => unrefTimer(this.h.clock.setTimeout(r, ms)));
  }

  /** Tells everyone waiting in `key` where they stand; resolves with how many were told. */
  private async tell(key: string, q: QueueKey): Promise<number> {
    const waiting = await this.h.match.waiting(key, this.h.cfg.queueStaleMs);
    const botsAt = this.botsAt(waiting);
    const fullAt = this.fullAt.get(key);
    // Only while a table's worth waits: fewer (someone left) wait for players, not for room.
    const full = fullAt !== undefined && this.now() - fullAt < FULL_MEMORY_MS && waiting.length >= q.players;
    if (!full) this.fullAt.delete(key);
    for (const e of waiting)
      emit(this.h.bus, contract.gatewayQueueStatus.at(e.gatewayId), {
        v: PROTOCOL_VERSION,
        userId: e.userId,
        ...q,
        waiting: waiting.length,
        botsAt: e.bots === false ? null : botsAt,
        ...(full ? { full } : {}),
      });
    const next = earliest(this.heldUntil(waiting, q), botsAt);
    if (next !== null) this.arm(key, q, next);
    return waiting.length;
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers.values()) this.h.clock.clearTimeout(t.timer);
    this.timers.clear();
    this.fullAt.clear();
  }

  /** When bots would fill this queue: its oldest entry that accepts bots, plus the wait. */
  private botsAt(waiting: QueueEntry[]): number | null {
    const ms = this.h.cfg.queueBotFillMs;
    const first = waiting.find((e) => e.bots !== false);
    return ms > 0 && first ? first.at + ms : null;
  }

  /**
   * When a queue holding a full table stops waiting for players of one gateway; null if it holds none.
   * With no gateway hold a full table still waits when the fleet had no room for it (onQueue): due at once.
   */
  private heldUntil(waiting: QueueEntry[], q: QueueKey): number | null {
    return waiting.length >= q.players ? waiting[0].at + this.h.cfg.queueGatewayHoldMs : null;
  }

  private arm(key: string, q: QueueKey, at: number): void {
    const had = this.timers.get(key);
    if (this.closed || (had && had.at <= at)) return;
    if (had) this.h.clock.clearTimeout(had.timer);
    const timer = this.h.clock.setTimeout(
      () => {
        this.timers.delete(key);
        this.due(key, q).catch((err: unknown) => this.h.log.warn({ err, key }, 'queue seating failed'));
      },
      Math.max(0, at - this.now()),
    );
    unrefTimer(timer);
    this.timers.set(key, { at, timer });
  }

  /** A queue's timer: seat a held full table, else fill with bots, whichever is due; else wait for the next. */
  private async due(key: string, q: QueueKey): Promise<void> {
    if (this.closed) return;
    const waiting = await this.h.match.waiting(key, this.h.cfg.queueStaleMs);
    const heldUntil = this.heldUntil(waiting, q);
    if (heldUntil !== null && heldUntil <= this.now()) return this.seatHeld(key, q, waiting, heldUntil);
    const botsAt = this.botsAt(waiting);
    if (botsAt !== null && botsAt <= this.now()) return this.fill(key, q, waiting, botsAt);
    const next = earliest(heldUntil, botsAt);
    if (next !== null) this.arm(key, q, next);
  }

  /**
   * A full table's worth waited out its hold (or the full fleet's wait): seats tables (`nextTable`) while
   * the fleet has room and the line's oldest are past their hold, at most SEAT_BATCH. Each player is taken
   * with `dequeue`; if one was taken meanwhile (a table formed by `enqueue`, another replica), the others
   * go back in line. A fleet with no room takes nobody out: the line looks again after `retryMs`.
   * One replica at a time tries (a claim per due time, held for `retryMs`); whoever did not get it, or
   * whose table could not start (back in line at the same places, so the same due time), looks again
   * after `retryMs` — without that, a queue no newcomer joins would wait for the bots.
   */
  private async seatHeld(key: string, q: QueueKey, waiting: QueueEntry[], heldUntil: number): Promise<void> {
    const { match, cfg } = this.h;
    const retryMs = Math.max(cfg.queueGatewayHoldMs, 1_000);
    if (!this.h.placer.hasRoom()) {
      this.tried(key, 'fleetFull');
      return this.arm(key, q, this.now() + retryMs);
    }
    if (!(await match.claim(`held:${key}:${heldUntil}`, cfg.matchmakerId, retryMs)))
      return this.arm(key, q, this.now() + retryMs);
    // A line a full fleet left waiting holds many tables: seat them while the fleet has room (each start
    // takes one off its headroom), not one a round.
    let line = waiting;
    for (let n = 0; n < SEAT_BATCH && line.length >= q.players && this.h.placer.reserve(); n++) {
      try {
        if (n > 0 && line[0].at + cfg.queueGatewayHoldMs > this.now()) break;
        const group = this.nextTable(line, q);
        const humans: QueueEntry[] = [];
        for (const e of group) if (await match.dequeue(e.userId)) humans.push(e);
        if (humans.length < q.players) {
          if (humans.length > 0) await match.requeue(key, humans, cfg.queueStaleMs);
          break;
        }
        if (!(await this.start(key, q, humans, 0))) {
          this.arm(key, q, this.now() + retryMs);
          break;
        }
        line = line.filter((e) => !group.includes(e));
      } finally {
        this.h.placer.release();
      }
    }
    await this.changed(q);
  }

  /** The table a held line seats next: the first `players` of one gateway if some gateway has that many, else the oldest. */
  private nextTable(line: QueueEntry[], q: QueueKey): QueueEntry[] {
    if (this.h.cfg.queueGatewayHoldMs > 0) {
      const byGateway = new Map<string, QueueEntry[]>();
      for (const e of line) {
        const group = byGateway.get(e.gatewayId);
        if (group) group.push(e);
        else byGateway.set(e.gatewayId, [e]);
      }
      const own = [...byGateway.values()].find((g) => g.length >= q.players);
      if (own) return own.slice(0, q.players);
    }
    return line.slice(0, q.players);
  }

  private async fill(key: string, q: QueueKey, waiting: QueueEntry[], due: number): Promise<void> {
    const { match } = this.h;
    if (!this.h.placer.reserve()) {
      this.tried(key, 'fleetFull');
      return this.arm(key, q, this.now() + FULL_RETRY_MS);
    }
    try {
      // One replica per due time; the others' timers for the same moment find nothing to do.
      if (!(await match.claim(`botfill:${key}:${due}`, this.h.cfg.matchmakerId, 60_000))) return;
      const humans: QueueEntry[] = [];
      for (const e of waiting) {
        if (e.bots === false || humans.length === q.players - 1) continue;
        if (await match.dequeue(e.userId)) humans.push(e);
      }
      if (humans.length > 0) {
        const ok = await this.start(key, q, humans, q.players - humans.length);
        if (ok) this.h.metrics.botFilled.inc();
      }
    } finally {
      this.h.placer.release();
    }
    await this.changed(q);
  }
}

function earliest(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

/** Seats for a bot-filled table: the humans in queue order, then bots with distinct names. */
export function botSeats(roomId: string, count: number): { id: string; name: string; bot: true }[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${roomId}-bot${i + 1}`,
    name: BOT_NAMES[i % BOT_NAMES.length],
    bot: true as const,
  }));
}
