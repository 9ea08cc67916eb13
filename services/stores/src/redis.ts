/**
 * Redis stores (node-redis 6), on a single Redis or a Redis Cluster alike
 * (`redis-conn.ts`). Every read-check-write is one Lua script, so a lease
 * check and the write it guards can never interleave with another worker's;
 * every script touches one hash slot (`redis-scripts.ts`). Snapshot writes are
 * coalesced (`redis-writes.ts`), and optionally confirmed by replicas.
 *
 * Keys (N = namespace; `{roomId}` is a hash tag so one room's keys share a slot):
 *   N:room:{id}:epoch  fencing counter, INCR on every acquisition (outlives the room by an hour)
 *   N:room:{id}:owner  "<owner>#<epoch>", PX lease TTL
 *   N:room:{id}:snap   hash { seq, epoch, data }: data is the last full snapshot, seq the last write's
 *   N:room:{id}:steps  list of record steps
 *   N:rooms:{tag}      set of the rooms that exist (not dropped) in the slot `tag` hashes to
 *                      (`slotTag`): the room index lives beside the rooms, one set per used slot,
 *                      found by SCAN on each primary
 *   N:lease-expiry     zset room → a time at or before which its lease may lapse (`redis-expiry.ts`): the
 *                      orphan sweep reads the rooms that came due, not every room
 *   N:owned:{owner}    hint: the rooms `owner` created or acquired (`redis-owned.ts`), checked against
 *                      the leases before use; makes a failover's first pass a read, not a scan
 *   N:generation       random id set once when missing: a new value means the store was wiped
 *                      (one key: on a cluster it tells a wipe of the node serving its slot, or of all)
 *   N:{mm}:q:<key>     zset userId -> enqueue time;  N:{mm}:q:<key>:e  hash userId -> entry JSON
 *   N:{mm}:qu:<userId> which queue holds the user;   N:claim:<key>  one-shot claims
 */
import { asConn, type RedisClient, type RedisConn } from './redis-conn.ts';
import { randomUUID } from 'node:crypto';
import {
  ACQUIRE,
  CREATE,
  DEQUEUE,
  DROP,
  ENQUEUE,
  GENERATION,
  RELEASE,
  WAITING,
  RENEW,
  REQUEUE,
} from './redis-scripts.ts';
import { bySlot, keySlot, slotTag } from './redis-slots.ts';
import { CoalescedWrites, type ReplicaConfirm } from './redis-writes.ts';
import { OwnedRooms } from './redis-owned.ts';
import { LeaseExpiries } from './redis-expiry.ts';
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

export { connectRedis, connectRedisConn, type RedisClient, type RedisConn } from './redis-conn.ts';

/** Leases per RENEW call, so each script stays short. */
const RENEW_BATCH = 500;

export interface SnapshotStoreOptions {
  /** Close the connection with the store. */
  ownsClient?: boolean;
  /** Replica confirmation of every snapshot write (default none). */
  confirm?: ReplicaConfirm;
  /** At most one coalesced snapshot write per this many ms (redis-writes.ts; default 0 = every turn). */
  writeGapMs?: number;
}

export class RedisSnapshotStore implements SnapshotStore {
  private readonly conn: RedisConn;
  private readonly writes: CoalescedWrites;
  private readonly ownsClient: boolean;
  private readonly owned: OwnedRooms;
  private readonly expiries: LeaseExpiries;

  constructor(
    client: RedisConn | RedisClient,
    private readonly ns: string,
    opts: SnapshotStoreOptions | boolean = {},
  ) {
    const o = typeof opts === 'boolean' ? { ownsClient: opts } : opts;
    this.conn = asConn(client);
    this.ownsClient = o.ownsClient ?? false;
    this.writes = new CoalescedWrites(this.conn, o.confirm, o.writeGapMs);
    this.owned = new OwnedRooms(this.conn, ns, (roomId) => this.keys(roomId)[1]);
    this.expiries = new LeaseExpiries(this.conn, ns, (roomId) => {
      const k = this.keys(roomId);
      return { owner: k[1], snap: k[2] };
    });
  }

  private keys(roomId: string): [string, string, string, string] {
    const b = `${this.ns}:room:{${roomId}}:`;
    return [`${b}epoch`, `${b}owner`, `${b}snap`, `${b}steps`];
  }

  /** The index of the rooms sharing this room's slot (so the scripts that add and remove it stay in one slot). */
  private roomIndex(roomId: string): string {
    return `${this.ns}:rooms:{${slotTag(keySlot(this.keys(roomId)[0]))}}`;
  }

  async createRoom(roomId: string, owner: string, first: FullWrite, ttlMs: number): Promise<CreateResult> {
    // Indexed before the room exists (in flight together), so no crash can leave a room the sweep cannot see;
    // an entry of a create that failed leaves at its first sweep (no snapshot). Best effort: an entry lost to an
    // error is put back by the next full scan.
    const indexed = this.expiries.taken(roomId, ttlMs, Date.now(), true).catch(() => {});
    const r = await CREATE.run(
      this.conn,
      [...this.keys(roomId), this.roomIndex(roomId)],
      [owner, String(ttlMs), String(first.seq), first.data, roomId, ...first.steps],
    );
    await indexed;
    if (Number(r) !== 1) return { ok: false, reason: 'exists' };
    await this.owned.add(owner, roomId);
    return { ok: true, epoch: 1 };
  }

  async acquire(roomId: string, owner: string, ttlMs: number): Promise<{ epoch: number; room: StoredRoom } | null> {
    const since = Date.now();
    const r = (await ACQUIRE.run(this.conn, this.keys(roomId), [owner, String(ttlMs)])) as
      [number, string, string, string, string[]] | null;
    if (!r) return null;
    // Best effort: a lost update leaves the old (lower) score, which only costs an early re-read.
    await Promise.all([this.owned.add(owner, roomId), this.expiries.taken(roomId, ttlMs, since).catch(() => {})]);
    return {
      epoch: Number(r[0]),
      room: { roomId, seq: Number(r[1]), epoch: Number(r[2]), data: r[3], steps: r[4] },
    };
  }

  /**
   * Coalesced per event-loop tick across rooms (`redis-writes.ts`): every write issued in one tick
   * leaves in one fenced script call (per slot on a cluster), and each caller awaits its own room's answer.
   */
  write(roomId: string, epoch: number, owner: string, w: SnapshotWrite, ttlMs: number): Promise<WriteResult> {
    return this.writes.write(this.keys(roomId), roomId, epoch, owner, w, ttlMs);
  }

  async renew(owner: string, leases: { roomId: string; epoch: number }[], ttlMs: number): Promise<string[]> {
    const lost: string[] = [];
    for (const chunk of bySlot(this.conn.cluster, leases, (l) => this.keys(l.roomId)[0], RENEW_BATCH)) {
      const keys: string[] = [];
      const args = [String(ttlMs), owner];
      for (const l of chunk) {
        const [e, o] = this.keys(l.roomId);
        keys.push(e, o);
        args.push(String(l.epoch));
      }
      const r = (await RENEW.run(this.conn, keys, args)) as number[];
      for (const idx of r) lost.push(chunk[Number(idx) - 1].roomId);
    }
    return lost;
  }

  async generation(): Promise<string> {
    return String(await GENERATION.run(this.conn, [`${this.ns}:generation`], [randomUUID()]));
  }

  async release(roomId: string, owner: string, epoch: number): Promise<boolean> {
    const released = Number(await RELEASE.run(this.conn, [this.keys(roomId)[1]], [`${owner}#${epoch}`])) === 1;
    // Due at once, so the next sweep places it (a lost update: found when its old score comes due).
    if (released) await Promise.all([this.owned.remove(owner, roomId), this.expiries.released(roomId).catch(() => {})]);
    return released;
  }

  async drop(roomId: string, epoch: number): Promise<boolean> {
    // Whose hint to clean: read before the script deletes the lease (the hint is in another slot).
    const holder = await this.lease(roomId).catch(() => null);
    const r = await DROP.run(this.conn, [...this.keys(roomId), this.roomIndex(roomId)], [String(epoch), roomId]);
    if (Number(r) !== 1) return false;
    // A leftover entry is harmless: the sweep drops it when it comes due (no snapshot).
    await Promise.all([
      holder ? this.owned.remove(holder.owner, roomId) : undefined,
      this.expiries.dropped(roomId).catch(() => {}),
    ]);
    return true;
  }

  async load(roomId: string): Promise<StoredRoom | null> {
    const [, , snap, steps] = this.keys(roomId);
    const [s, list] = await Promise.all([
      this.conn.hmGet(snap, ['seq', 'epoch', 'data']),
      this.conn.lRange(steps, 0, -1),
    ]);
    if (s[0] === null || s[2] === null) return null;
    return { roomId, seq: Number(s[0]), epoch: Number(s[1]), data: s[2], steps: list };
  }

  async leaseLeft(owner: string, sample: number): Promise<number[]> {
    const rooms = await this.owned.sample(owner, sample);
    // A GET and a PTTL per room (each lease in its own slot); node-redis pipelines the ones issued together.
    const read = await Promise.all(
      rooms.map((id) => Promise.all([this.conn.get(this.keys(id)[1]), this.conn.pTTL(this.keys(id)[1])])),
    );
    const left: number[] = [];
    for (const [v, t] of read) if (v !== null && v.slice(0, v.lastIndexOf('#')) === owner && t > 0) left.push(t);
    return left;
  }

  async lease(roomId: string): Promise<LeaseInfo | null> {
    const v = await this.conn.get(this.keys(roomId)[1]);
    if (v === null) return null;
    const i = v.lastIndexOf('#');
    return { owner: v.slice(0, i), epoch: Number(v.slice(i + 1)) };
  }

  /** The full scan: every room index of every primary; it also puts back any room the expiry index lost. */
  async orphans(limit: number): Promise<string[]> {
    const walked: string[] = [];
    const found = await this.scanOwners(
      limit,
      (owner) => owner === null,
      (ids) => walked.push(...ids),
    );
    // One ZADD NX per 500 rooms after the walk, not one per room index (≈ one per room: most hold one).
    await this.expiries.repair(walked);
    return found;
  }

  /** Lapsed leases from the expiry index: costs the rooms that came due since the last call, not all rooms. */
  lapsed(limit: number): Promise<string[]> {
    return this.expiries.lapsed(limit);
  }

  /** The owner's hinted rooms whose lease still names it: fast, but may miss some (`ownedBy` does not). */
  ownedByHint(owner: string, limit: number): Promise<string[]> {
    return this.owned.list(owner, limit);
  }

  unhint(owner: string, roomId: string): Promise<void> {
    return this.owned.remove(owner, roomId);
  }

  ownedBy(owner: string, limit: number): Promise<string[]> {
    const prefix = `${owner}#`;
    return this.scanOwners(limit, (o) => o !== null && o.startsWith(prefix));
  }

  /**
   * Walks every primary's room indexes (SCAN by node); the indexes of one SCAN page are read together
   * (pipelined), each 500 rooms at a time with one MGET of the lease holders per page of rooms (they
   * share the index's slot).
   */
  private async scanOwners(
    limit: number,
    keep: (owner: string | null) => boolean,
    seen?: (roomIds: string[]) => void,
  ): Promise<string[]> {
    const out: string[] = [];
    for (const node of await this.conn.nodes()) {
      let cursor = '0';
      do {
        const page = await node.scan(cursor, `${this.ns}:rooms:{*}`, 'set');
        cursor = page.cursor;
        const found = await Promise.all(page.keys.map((index) => this.scanIndex(index, limit, keep, seen)));
        for (const ids of found) for (const id of ids) if (out.length < limit) out.push(id);
        if (out.length >= limit) return out;
      } while (cursor !== '0');
    }
    return out;
  }

  private async scanIndex(
    index: string,
    limit: number,
    keep: (o: string | null) => boolean,
    seen?: (roomIds: string[]) => void,
  ): Promise<string[]> {
    const out: string[] = [];
    let cursor = '0';
    do {
      const r = await this.conn.sScan(index, cursor, 500);
      cursor = r.cursor;
      if (r.members.length === 0) continue;
      seen?.(r.members);
      const owners = await this.conn.mGet(r.members.map((id) => this.keys(id)[1]));
      for (let i = 0; i < owners.length && out.length < limit; i++) if (keep(owners[i])) out.push(r.members[i]);
    } while (cursor !== '0' && out.length < limit);
    return out;
  }

  async close(): Promise<void> {
    if (this.ownsClient) await this.conn.close();
  }
}

export class RedisMatchStore implements MatchStore {
  private readonly conn: RedisConn;
  /** Every queue key carries the {mm} tag: one slot, so a user moving between queues stays one script. */
  private readonly mm: string;

  constructor(
    client: RedisConn | RedisClient,
    private readonly ns: string,
    private readonly ownsClient = false,
  ) {
    this.conn = asConn(client);
    this.mm = `${ns}:{mm}`;
  }

  private q(key: string): [string, string] {
    return [`${this.mm}:q:${key}`, `${this.mm}:q:${key}:e`];
  }

  enqueue(
    key: string,
    entry: QueueEntry,
    size: number,
    staleMs: number,
    gatewayHoldMs = 0,
  ): Promise<QueueEntry[] | null> {
    return this.enqueueOnce(null, 0, key, entry, size, staleMs, gatewayHoldMs) as Promise<QueueEntry[] | null>;
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
    return this.enqueueOnce(requestId, ttlMs, key, entry, size, staleMs, gatewayHoldMs);
  }

  /** The ENQUEUE script, with a request key when `requestId` is given. */
  private async enqueueOnce(
    requestId: string | null,
    ttlMs: number,
    key: string,
    entry: QueueEntry,
    size: number,
    staleMs: number,
    gatewayHoldMs: number,
  ): Promise<QueueEntry[] | null | 'repeat'> {
    const [zset, hash] = this.q(key);
    const keys = [zset, hash, `${this.mm}:qu:${entry.userId}`];
    const args = [
      entry.userId,
      JSON.stringify(entry),
      String(entry.at),
      String(size),
      String(Date.now() - staleMs),
      zset,
      `${this.mm}:qu:`,
      String(staleMs),
      ...(gatewayHoldMs > 0 ? [entry.gatewayId, String(entry.at - gatewayHoldMs)] : ['', '']),
    ];
    if (requestId !== null) {
      keys.push(`${this.mm}:req:${requestId}`);
      args.push(String(ttlMs));
    }
    const r = (await ENQUEUE.run(this.conn, keys, args)) as string[] | number;
    if (typeof r === 'number') return 'repeat';
    if (r.length === 0) return null;
    const table: QueueEntry[] = [];
    // The zset score is the user's place in line; the entry may carry a later re-queue time.
    for (let i = 0; i < r.length; i += 2) table.push({ ...(JSON.parse(r[i]) as QueueEntry), at: Number(r[i + 1]) });
    return table;
  }

  async dequeue(userId: string): Promise<boolean> {
    return Number(await DEQUEUE.run(this.conn, [`${this.mm}:qu:${userId}`], [userId])) === 1;
  }

  async waiting(key: string, staleMs: number): Promise<QueueEntry[]> {
    const [zset, hash] = this.q(key);
    // One script: the queue's zset and entries share the {mm} slot, so this runs on a cluster too.
    const flat = (await WAITING.run(this.conn, [zset, hash], [String(Date.now() - staleMs)])) as string[];
    const out: QueueEntry[] = [];
    for (let i = 0; i < flat.length; i += 3)
      out.push({ ...(JSON.parse(flat[i + 2]) as QueueEntry), at: Number(flat[i + 1]) });
    return out;
  }

  async requeue(key: string, entries: QueueEntry[], staleMs: number): Promise<void> {
    const [zset, hash] = this.q(key);
    const args = [zset, `${this.mm}:qu:`, String(staleMs)];
    for (const e of entries) args.push(e.userId, String(e.at), JSON.stringify(e));
    await REQUEUE.run(this.conn, [zset, hash], args);
  }

  claim(key: string, owner: string, ttlMs: number): Promise<boolean> {
    return this.conn.setNxPx(`${this.ns}:claim:${key}`, owner, ttlMs);
  }

  async close(): Promise<void> {
    if (this.ownsClient) await this.conn.close();
  }
}
