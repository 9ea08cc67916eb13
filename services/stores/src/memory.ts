/**
 * In-memory stores for the embedded single-process mode and unit tests. Same
 * contract as the Redis ones (epochs, fencing, lease expiry, queues); every
 * method is atomic because it runs to completion on the event loop. Results are
 * returned on a later tick, as over a socket, so callers cannot come to rely on
 * synchronous completion.
 */
import type {
  CreateResult,
  FullWrite,
  LeaseInfo,
  MatchStore,
  QueueEntry,
  SnapshotStore,
  SnapshotWrite,
  StoredRoom,
  WriteResult,
} from './types.ts';

/** One room's whole state; the file store (file.ts) writes it out as it is. */
export interface RoomRec {
  epoch: number;
  owner: string | null;
  leaseUntil: number;
  snap: { seq: number; epoch: number; data: string } | null;
  steps: string[];
  /** Dropped rooms keep only their epoch (fencing) until this time. */
  droppedUntil: number | null;
}

const later = <T>(v: T): Promise<T> => new Promise((r) => setImmediate(() => r(v)));

export class MemorySnapshotStore implements SnapshotStore {
  protected readonly rooms = new Map<string, RoomRec>();
  constructor(protected readonly now: () => number = Date.now) {}

  createRoom(roomId: string, owner: string, first: FullWrite, ttlMs: number): Promise<CreateResult> {
    this.gc(roomId);
    if (this.rooms.has(roomId)) return later({ ok: false, reason: 'exists' });
    this.rooms.set(roomId, {
      epoch: 1,
      owner,
      leaseUntil: this.now() + ttlMs,
      snap: { seq: first.seq, epoch: 1, data: first.data },
      steps: [...first.steps],
      droppedUntil: null,
    });
    return later({ ok: true, epoch: 1 });
  }

  acquire(roomId: string, owner: string, ttlMs: number): Promise<{ epoch: number; room: StoredRoom } | null> {
    const r = this.live(roomId);
    if (!r?.snap) return later(null);
    r.epoch++;
    r.owner = owner;
    r.leaseUntil = this.now() + ttlMs;
    const room: StoredRoom = { roomId, epoch: r.snap.epoch, seq: r.snap.seq, data: r.snap.data, steps: [...r.steps] };
    return later({ epoch: r.epoch, room });
  }

  write(roomId: string, epoch: number, owner: string, w: SnapshotWrite, ttlMs: number): Promise<WriteResult> {
    const r = this.live(roomId);
    if (!r || r.epoch !== epoch) return later('stale');
    if (r.snap && w.seq <= r.snap.seq)
      return Promise.reject(new Error(`snapshot seq ${w.seq} not above ${r.snap.seq} for ${roomId}`));
    // Steps only: they must continue the stored state, which stays (see StepsWrite).
    if (w.data === null && r.snap?.seq !== w.after) return later('gap');
    r.snap = { seq: w.seq, epoch, data: w.data ?? r.snap!.data };
    for (const s of w.steps) r.steps.push(s);
    r.owner = owner;
    r.leaseUntil = this.now() + ttlMs;
    return later('ok');
  }

  renew(owner: string, leases: { roomId: string; epoch: number }[], ttlMs: number): Promise<string[]> {
    const lost: string[] = [];
    const until = this.now() + ttlMs;
    for (const l of leases) {
      const r = this.live(l.roomId);
      if (r && r.epoch === l.epoch) {
        r.owner = owner;
        r.leaseUntil = until;
      } else lost.push(l.roomId);
    }
    return later(lost);
  }

  release(roomId: string, owner: string, epoch: number): Promise<boolean> {
    const r = this.live(roomId);
    if (!r || r.epoch !== epoch || r.owner !== owner || r.leaseUntil <= this.now()) return later(false);
    r.owner = null;
    r.leaseUntil = 0;
    return later(true);
  }

  drop(roomId: string, epoch: number): Promise<boolean> {
    const r = this.live(roomId);
    if (!r || r.epoch !== epoch) return later(false);
    r.epoch++; // fences out any write still in flight
    r.snap = null;
    r.steps = [];
    r.owner = null;
    r.leaseUntil = 0;
    r.droppedUntil = this.now() + 3_600_000;
    return later(true);
  }

  load(roomId: string): Promise<StoredRoom | null> {
    const r = this.live(roomId);
    if (!r?.snap) return later(null);
    return later({ roomId, epoch: r.snap.epoch, seq: r.snap.seq, data: r.snap.data, steps: [...r.steps] });
  }

  leaseLeft(owner: string, sample: number): Promise<number[]> {
    const now = this.now();
    const left: number[] = [];
    for (const r of this.rooms.values()) {
      if (left.length >= sample) break;
      if (r.owner === owner && r.leaseUntil > now && r.snap) left.push(r.leaseUntil - now);
    }
    return later(left);
  }

  lease(roomId: string): Promise<LeaseInfo | null> {
    const r = this.live(roomId);
    if (!r || r.owner === null || r.leaseUntil <= this.now()) return later(null);
    return later({ owner: r.owner, epoch: r.epoch });
  }

  orphans(limit: number): Promise<string[]> {
    const out: string[] = [];
    const now = this.now();
    for (const [id, r] of this.rooms) {
      if (out.length >= limit) break;
      if (r.snap && r.droppedUntil === null && (r.owner === null || r.leaseUntil <= now)) out.push(id);
    }
    return later(out);
  }

  ownedBy(owner: string, limit: number): Promise<string[]> {
    const out: string[] = [];
    const now = this.now();
    for (const [id, r] of this.rooms) {
      if (out.length >= limit) break;
      if (r.snap && r.owner === owner && r.leaseUntil > now) out.push(id);
    }
    return later(out);
  }

  close(): Promise<void> {
    return later(undefined);
  }

  /** A dropped room whose fencing period ended is forgotten. */
  private gc(roomId: string): void {
    const r = this.rooms.get(roomId);
    if (r?.droppedUntil !== null && r?.droppedUntil !== undefined && r.droppedUntil <= this.now())
      this.rooms.delete(roomId);
  }

  private live(roomId: string): RoomRec | undefined {
    this.gc(roomId);
    return this.rooms.get(roomId);
  }
}

export class MemoryMatchStore implements MatchStore {
  private readonly queues = new Map<string, Map<string, QueueEntry>>();
  private readonly userQueue = new Map<string, string>();
  /** Claim key → until when it holds. Expired ones are dropped as claims are made (`claim`), as Redis expires keys. */
  private readonly claims = new Map<string, number>();
  private claimsSinceSweep = 0;
  constructor(private readonly now: () => number = Date.now) {}

  enqueue(
    key: string,
    entry: QueueEntry,
    size: number,
    staleMs: number,
    gatewayHoldMs = 0,
  ): Promise<QueueEntry[] | null> {
    const q = this.queue(key);
    this.dropStale(q, staleMs);
    const prev = this.userQueue.get(entry.userId);
    if (prev !== undefined && prev !== key) this.queues.get(prev)?.delete(entry.userId);
    const had = q.get(entry.userId);
    // Re-queueing keeps the user's place in line.
    q.set(entry.userId, had ? { ...entry, at: had.at } : entry);
    this.userQueue.set(entry.userId, key);
    if (size <= 0 || q.size < size) return later(null);
    const line = [...q.values()].sort((a, b) => a.at - b.at || cmp(a.userId, b.userId));
    let table = line.slice(0, size);
    if (gatewayHoldMs > 0) {
      const own = line.filter((e) => e.gatewayId === entry.gatewayId);
      if (own.length >= size) table = own.slice(0, size);
      else if (line[0].at > entry.at - gatewayHoldMs) return later(null);
    }
    for (const e of table) {
      q.delete(e.userId);
      this.userQueue.delete(e.userId);
    }
    return later(table);
  }

  enqueueRequest(
    requestId: string,
    ttlMs: number,
    key: string,
    entry: QueueEntry,
    size: number,
    staleMs: number,
    gatewayHoldMs = 0,
  ): Promise<QueueEntry[] | null | 'repeat'> {
    // One synchronous step here, as one script in Redis: the id and the enqueue stand or fall together.
    if (!this.claimNow(`queue-request:${requestId}`, ttlMs)) return later('repeat');
    return this.enqueue(key, entry, size, staleMs, gatewayHoldMs);
  }

  dequeue(userId: string): Promise<boolean> {
    const key = this.userQueue.get(userId);
    if (key === undefined) return later(false);
    this.userQueue.delete(userId);
    return later(this.queues.get(key)?.delete(userId) ?? false);
  }

  waiting(key: string, staleMs: number): Promise<QueueEntry[]> {
    const before = this.now() - staleMs;
    const q = this.queues.get(key);
    const list = q ? [...q.values()].filter((e) => e.at >= before) : [];
    return later(list.sort((a, b) => a.at - b.at || cmp(a.userId, b.userId)));
  }

  requeue(key: string, entries: QueueEntry[], _staleMs: number): Promise<void> {
    const q = this.queue(key);
    for (const e of entries) {
      if (this.userQueue.has(e.userId)) continue; // queued again meanwhile, maybe elsewhere
      q.set(e.userId, e);
      this.userQueue.set(e.userId, key);
    }
    return later(undefined);
  }

  claim(key: string, _owner: string, ttlMs: number): Promise<boolean> {
    return later(this.claimNow(key, ttlMs));
  }

  private claimNow(key: string, ttlMs: number): boolean {
    const now = this.now();
    // Every quick-match request makes one (its requestId): without the sweep a long-running embedded
    // platform kept them all. A sweep per 256 claims keeps the map near the claims still live.
    if (++this.claimsSinceSweep >= 256) {
      this.claimsSinceSweep = 0;
      for (const [k, until] of this.claims) if (until <= now) this.claims.delete(k);
    }
    const until = this.claims.get(key);
    if (until !== undefined && until > now) return false;
    this.claims.set(key, now + ttlMs);
    return true;
  }

  /** Claims held in memory, live or not yet swept (the tests see that expired ones go). */
  get claimCount(): number {
    return this.claims.size;
  }

  close(): Promise<void> {
    return later(undefined);
  }

  private queue(key: string): Map<string, QueueEntry> {
    let q = this.queues.get(key);
    if (!q) this.queues.set(key, (q = new Map()));
    return q;
  }

  private dropStale(q: Map<string, QueueEntry>, staleMs: number): void {
    const before = this.now() - staleMs;
    for (const [u, e] of q)
      if (e.at < before) {
        q.delete(u);
        this.userQueue.delete(u);
      }
  }
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
