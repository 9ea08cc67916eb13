/**
 * The worker's priority intake (issue 37, "commands of tables already playing go before opens and joins").
 *
 * State: the number of items waiting in every room queue of this worker (`backlog`, kept by the queues
 * themselves as they push, take and clear), and a bounded FIFO of deferred opens and joins, each with the
 * time it must be answered by. While the worker is behind — its backlog past INTAKE_DEFER_QUEUED, or the
 * loop delay admission reads past INTAKE_DEFER_LAG_MS — a new room (`open`) or a viewer entering a room
 * (`join`) is not started but waits here, so the CPU goes to the commands of the tables already playing.
 * Once the backlog is back under the threshold (checked after each batch, and at each heartbeat for the
 * loop delay) the deferred items start in arrival order.
 *
 * Failure modes: nothing here is unbounded. Past INTAKE_DEFER_MAX deferred items, or once an item waited
 * INTAKE_DEFER_WAIT_MS (or its own deadline came first), it is refused with the `capacity` code the
 * matchmaker and gateway already understand (the matchmaker tries another worker; the gateway tells the
 * client to join again shortly). Commands, timers and presence never pass through here. Restores (tables
 * moving here from a dead worker) are not deferred either: they are tables already playing.
 */
import type { Clock, Timer } from '@joke/bus/clock';

export type Deferrable = 'open' | 'join';

export interface IntakeOptions {
  /** Items waiting across the rooms above which opens and joins wait (0 = never by backlog). */
  deferQueued: number;
  /** Loop delay (ms, as admission reads it) above which opens and joins wait (0 = never by delay). */
  deferLagMs: number;
  /** Deferred items held at most; one more is refused at once. */
  deferMax: number;
  /** How long a deferred item may wait before it is refused. */
  deferWaitMs: number;
}

export interface IntakeCounters {
  /** An open or join that had to wait (outcome `deferred`), and how each ended: `started` or `refused`. */
  deferred(kind: Deferrable, outcome: 'deferred' | 'started' | 'refused'): void;
}

interface Waiting {
  kind: Deferrable;
  start: () => void;
  refuse: () => void;
  by: number;
}

export class PriorityIntake {
  /** Items waiting in this worker's room queues (every kind: they are all tables already playing). */
  private queuedItems = 0;
  private readonly waiting: Waiting[] = [];
  private timer: Timer | undefined;
  private releaseScheduled = false;
  private lagMs = 0;

  constructor(
    private readonly opts: IntakeOptions,
    private readonly clock: Clock,
    private readonly counters: IntakeCounters,
  ) {}

  /** Items waiting in the room queues now. */
  get backlog(): number {
    return this.queuedItems;
  }

  /** Opens and joins waiting here now. */
  get deferred(): number {
    return this.waiting.length;
  }

  /** A room queue took (`n` > 0) or handed out (`n` < 0) items. */
  queued(n: number): void {
    this.queuedItems += n;
    if (n < 0 && this.waiting.length > 0) this.scheduleRelease();
  }

  /** The loop delay admission reads (Upkeep, at each heartbeat). */
  loopLag(ms: number): void {
    this.lagMs = ms;
    if (this.waiting.length > 0) this.scheduleRelease();
  }

  /** Whether the tables already playing have the worker's attention first now. */
  behind(): boolean {
    const { deferQueued, deferLagMs } = this.opts;
    return (deferQueued > 0 && this.queuedItems > deferQueued) || (deferLagMs > 0 && this.lagMs > deferLagMs);
  }

  /**
   * Starts `start` now, or defers it while the worker is behind (and while earlier ones still wait, so the
   * order of arrival holds); `refuse` answers it `capacity` instead. `deadline` (this clock's ms): the
   * requester stops waiting then, so a deferred item is refused before it.
   */
  admit(kind: Deferrable, start: () => void, refuse: () => void, deadline?: number): void {
    if (this.waiting.length === 0 && !this.behind()) return start();
    if (this.waiting.length >= this.opts.deferMax) {
      this.counters.deferred(kind, 'refused');
      return refuse();
    }
    const now = this.clock.now();
    const by = Math.min(now + this.opts.deferWaitMs, deadline ?? Number.POSITIVE_INFINITY);
    this.counters.deferred(kind, 'deferred');
    this.waiting.push({ kind, start, refuse, by });
    this.arm();
  }

  /** Start what may start, refuse what waited too long. */
  release(): void {
    this.releaseScheduled = false;
    const now = this.clock.now();
    while (this.waiting.length > 0) {
      const head = this.waiting[0]!;
      if (head.by <= now) {
        this.waiting.shift();
        this.counters.deferred(head.kind, 'refused');
        head.refuse();
        continue;
      }
      if (this.behind()) break;
      this.waiting.shift();
      this.counters.deferred(head.kind, 'started');
      head.start();
    }
    // Later items may expire before the head (a join's wait is shorter than an open's deadline, or the other way).
    for (let i = this.waiting.length - 1; i >= 0; i--) {
      const w = this.waiting[i]!;
      if (w.by > now) continue;
      this.waiting.splice(i, 1);
      this.counters.deferred(w.kind, 'refused');
      w.refuse();
    }
    this.arm();
  }

  /** The worker stops: everything deferred is refused (the matchmaker and the gateway retry elsewhere). */
  close(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    for (const w of this.waiting.splice(0)) w.refuse();
  }

  /** After the current turn: a queue hands out items inside its batch loop, which must not start rooms. */
  private scheduleRelease(): void {
    if (this.releaseScheduled) return;
    this.releaseScheduled = true;
    queueMicrotask(() => this.release());
  }

  /** One timer, for the earliest time a deferred item must be answered by. */
  private arm(): void {
    this.clock.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.waiting.length === 0) return;
    let by = Number.POSITIVE_INFINITY;
    for (const w of this.waiting) by = Math.min(by, w.by);
    this.timer = this.clock.setTimeout(() => this.release(), Math.max(0, by - this.clock.now()));
  }
}
