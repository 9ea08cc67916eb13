/**
 * The fenced snapshot write, coalesced per event-loop tick across rooms: the
 * writes many rooms issue in one tick (the rooms of one batch of bus messages)
 * leave as ONE script call per WRITE_BATCH rooms — per slot on a Redis
 * Cluster, where a script may touch one slot only — each room keeping its own
 * epoch and seq check and its own answer, which its caller awaits before
 * acknowledging anything (write-before-ack, per PERFORMANCE.md).
 *
 * With `replicas` > 0 a write also waits for that many replicas of its primary
 * to confirm it (WAIT) before it resolves, so an acknowledged action survives
 * the primary failing over. A write not confirmed in time is rejected
 * (`ReplicaTimeoutError`) and not acknowledged; the writer retries the same
 * (epoch, seq), which the script recognises as already applied and only
 * confirms again — or applies afresh if the failover lost it. A steps-only write
 * (no data) applies only on top of the seq it continues: one whose predecessor a
 * failover lost answers `gap`, and the writer sends the whole snapshot instead.
 *
 * Each primary's writes of a tick go (and are answered) on their own: a primary that dies stalls only the
 * rooms whose slots it served until its replica is promoted, not every room that happened to write in the
 * same tick on the other shards.
 */
import type { RedisConn } from './redis-conn.ts';
import { WRITE_MANY } from './redis-scripts.ts';
import { keySlot } from './redis-slots.ts';
import type { SnapshotWrite, WriteResult } from './types.ts';

/** Rooms per WRITE_MANY call: one call stays short (≈ a millisecond of Redis time) even when many rooms wrote. */
const WRITE_BATCH = 128;
/** Writes applied but not confirmed by replicas, remembered for the retry (bounded: a room gone never retries). */
const MAX_UNCONFIRMED = 10_000;

export interface ReplicaConfirm {
  /** Replicas that must confirm a snapshot write before it counts (0 = primary only, asynchronous replication). */
  replicas: number;
  /** How long a write waits for them before it is refused. */
  timeoutMs: number;
}

export class ReplicaTimeoutError extends Error {
  constructor(
    readonly roomId: string,
    readonly confirmed: number,
    readonly wanted: number,
  ) {
    super(`snapshot of ${roomId} confirmed by ${confirmed} of ${wanted} replicas in time; not acknowledged`);
    this.name = 'ReplicaTimeoutError';
  }
}

interface QueuedWrite {
  keys: string[];
  roomId: string;
  epoch: number;
  owner: string;
  w: SnapshotWrite;
  ttlMs: number;
  resolve(r: WriteResult): void;
  reject(err: unknown): void;
}

export class CoalescedWrites {
  private queued: QueuedWrite[] = [];
  /** roomId → "epoch:seq" of its write applied on the primary but not confirmed by the replicas. */
  private readonly unconfirmed = new Map<string, string>();

  /** performance.now() of the last flush (only kept with a gap). */
  private lastFlush = -Infinity;
  private flushTimer: NodeJS.Timeout | undefined;

  /**
   * `gapMs` > 0: at most one flush per gapMs. Under load one script call (one socket write, one wake-up of
   * redis-server) then carries the writes of several turns; the first write after a quiet spell still
   * leaves in its own turn. Each write waits at most gapMs longer before its ack.
   */
  constructor(
    private readonly conn: RedisConn,
    private readonly confirm: ReplicaConfirm = { replicas: 0, timeoutMs: 0 },
    private readonly gapMs = 0,
  ) {}

  write(
    keys: string[],
    roomId: string,
    epoch: number,
    owner: string,
    w: SnapshotWrite,
    ttlMs: number,
  ): Promise<WriteResult> {
    return new Promise<WriteResult>((resolve, reject) => {
      if (this.queued.length === 0) this.schedule();
      this.queued.push({ keys, roomId, epoch, owner, w, ttlMs, resolve, reject });
    });
  }

  private schedule(): void {
    const wait = this.gapMs > 0 ? this.lastFlush + this.gapMs - performance.now() : 0;
    if (wait <= 0) queueMicrotask(this.flush);
    else this.flushTimer = setTimeout(this.flush, wait);
  }

  private readonly flush = (): void => {
    this.flushTimer = undefined;
    if (this.gapMs > 0) this.lastFlush = performance.now();
    const all = this.queued;
    this.queued = [];
    if (!this.conn.cluster) return void this.writeAll(this.batches(all));
    const byPrimary = new Map<string, QueuedWrite[]>();
    for (const q of all) {
      const p = this.conn.primaryOf(q.keys[0]);
      const g = byPrimary.get(p);
      if (g) g.push(q);
      else byPrimary.set(p, [q]);
    }
    for (const g of byPrimary.values()) void this.writeAll(this.batches(g));
  };

  /** One batch per WRITE_BATCH writes; on a cluster, per slot first. */
  private batches(all: QueuedWrite[]): QueuedWrite[][] {
    const groups: QueuedWrite[][] = [];
    if (!this.conn.cluster) groups.push(all);
    else {
      const bySlot = new Map<number, QueuedWrite[]>();
      for (const q of all) {
        const slot = keySlot(q.keys[0]);
        const g = bySlot.get(slot);
        if (g) g.push(q);
        else bySlot.set(slot, [q]);
      }
      groups.push(...bySlot.values());
    }
    const out: QueuedWrite[][] = [];
    for (const g of groups) for (let i = 0; i < g.length; i += WRITE_BATCH) out.push(g.slice(i, i + WRITE_BATCH));
    return out;
  }

  /** Applies every batch, then (when asked to) confirms them with one WAIT per primary, then answers each write. */
  private async writeAll(batches: QueuedWrite[][]): Promise<void> {
    const applied = await Promise.all(batches.map((b) => this.apply(b)));
    const toConfirm =
      this.confirm.replicas > 0
        ? batches.filter((_, i) => {
            const a = applied[i];
            return !(a instanceof Error) && a.some((r) => r > 0);
          })
        : [];
    const acks = new Map<QueuedWrite[], number>();
    if (toConfirm.length > 0) {
      try {
        const n = await this.conn.waitReplicas(
          toConfirm.map((b) => b[0].keys[0]),
          this.confirm.replicas,
          this.confirm.timeoutMs,
        );
        toConfirm.forEach((b, i) => acks.set(b, n[i]));
      } catch {
        // The primary went away (or the connection did) before confirming: nothing it took is known to be safe.
        for (const b of toConfirm) acks.set(b, 0);
      }
    }
    batches.forEach((b, i) => this.settle(b, applied[i], acks.get(b) ?? Infinity));
  }

  /** The batch's script results, or the error for every write in it. */
  private async apply(batch: QueuedWrite[]): Promise<number[] | Error> {
    const keys: string[] = [];
    const args: string[] = [];
    for (const q of batch) {
      keys.push(...q.keys);
      const retry = this.unconfirmed.get(q.roomId) === `${q.epoch}:${q.w.seq}` ? '1' : '0';
      const w = q.w;
      // A steps-only write sends no data at all: that is the bytes (and the socket writes) it saves.
      args.push(String(q.epoch), String(w.seq), w.data ?? '', String(q.ttlMs), q.owner, retry);
      args.push(w.data === null ? String(w.after) : '', String(w.steps.length), ...w.steps);
    }
    try {
      return ((await WRITE_MANY.run(this.conn, keys, args)) as unknown[]).map(Number);
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
  }

  private settle(batch: QueuedWrite[], results: number[] | Error, confirmed: number): void {
    batch.forEach((q, i) => {
      if (results instanceof Error) {
        // The script may have run before the connection failed: its retry must be recognised.
        this.remember(q);
        return q.reject(results);
      }
      const r = results[i];
      if (r === -1) q.reject(new Error(`snapshot seq ${q.w.seq} not above the stored one for ${q.roomId}`));
      else if (r === 0) q.resolve('stale');
      else if (r === -2) q.resolve('gap');
      else if (confirmed < this.confirm.replicas) {
        this.remember(q);
        q.reject(new ReplicaTimeoutError(q.roomId, confirmed, this.confirm.replicas));
      } else {
        this.unconfirmed.delete(q.roomId);
        q.resolve('ok');
      }
    });
  }

  /** The write may be applied on the primary without its answer having reached us. */
  private remember(q: QueuedWrite): void {
    if (this.unconfirmed.size >= MAX_UNCONFIRMED) this.unconfirmed.clear();
    this.unconfirmed.set(q.roomId, `${q.epoch}:${q.w.seq}`);
  }
}
