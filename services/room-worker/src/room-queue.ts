/**
 * A room's item queue: applies ONE batch at a time (like Nakama's match loop,
 * without a fixed tick), so the game code never sees two transitions at once.
 *
 * State: the waiting items, whether a batch is in flight, whether the room is
 * paused or held (the bus dropped: nothing runs or is answered until the lease
 * is confirmed again, reconnect.ts). Failure modes: a full queue refuses players' commands and joins with
 * `busy` (timers and presence are produced by the system, at most a few per
 * room, and are never refused); a batch that throws stops the loop and hands
 * the error to the room, which drops itself from this worker.
 */
import { refuse } from '@joke/protocol';
import type { Item } from './room-types.ts';

/** Counts the items waiting across a worker's rooms (intake.ts): told of every item taken in and handed out. */
export interface Backlog {
  queued(n: number): void;
}

export interface QueueOwner {
  /** Applies one batch (persisting it before any reply). */
  process(batch: Item[]): Promise<void>;
  /** After each batch, unless the room closed meanwhile. */
  afterBatch(): void;
  /** A batch threw: the loop has stopped. */
  failed(err: unknown): void;
}

export class ItemQueue {
  private items: Item[] = [];
  private running = false;
  private paused = false;
  private held = false;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly owner: QueueOwner,
    private readonly max: number,
    private readonly batchMax: number,
    private readonly backlog?: Backlog,
  ) {}

  push(item: Item): void {
    // Bounded so one flooded room cannot eat the worker's memory.
    if (this.items.length >= this.max && (item.kind === 'cmd' || item.kind === 'join')) {
      // Held, even "busy" could race a new owner's answer: say nothing, the gateway retries.
      if (!this.held) item.respond(refuse('busy'));
      return;
    }
    this.items.push(item);
    this.backlog?.queued(1);
    this.kick();
  }

  /** Items waiting for a batch. */
  get waiting(): number {
    return this.items.length;
  }

  /** Stop after the batch in flight (its write and replies complete); queued items stay unanswered. */
  async pause(): Promise<void> {
    this.paused = true;
    if (!this.running) return;
    await new Promise<void>((r) => this.idleWaiters.push(r));
  }

  /** The bus was cut off: items queue unanswered (the batch in flight completes). */
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

  /** For good: nothing queued runs, nothing new starts. */
  clear(): void {
    this.paused = true;
    this.backlog?.queued(-this.items.length);
    this.items = [];
  }

  /** Items arrived before the room started: run them now. */
  kick(): void {
    if (!this.running && !this.paused && !this.held && this.items.length > 0) void this.run();
  }

  private async run(): Promise<void> {
    this.running = true;
    try {
      while (this.items.length > 0 && !this.paused && !this.held) {
        const batch = this.items.splice(0, this.batchMax);
        this.backlog?.queued(-batch.length);
        await this.owner.process(batch);
        this.owner.afterBatch();
      }
    } catch (err) {
      this.owner.failed(err);
    } finally {
      this.running = false;
      const w = this.idleWaiters;
      this.idleWaiters = [];
      for (const r of w) r();
    }
  }
}
