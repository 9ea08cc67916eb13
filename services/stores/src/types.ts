/**
 * Durable room state and its fenced ownership lease.
 *
 * Each room has an epoch (fencing token) that goes up by one on every
 * acquisition, and a lease naming its owner that expires unless renewed.
 * A snapshot write names the writer's epoch and succeeds only while that epoch
 * is still the room's current one, so a worker that lost its room (crashed and
 * came back, was partitioned, was presumed dead) can never overwrite the state
 * its successor is building on: its write comes back `stale` and it drops the room.
 *
 * The store keeps the payloads opaque: `data` is the worker's JSON snapshot of
 * the room, `steps` the JSON record steps appended since the previous write.
 * Most writes carry steps only (`data` null): the store keeps the last full
 * snapshot it was given, and the room's current state is that snapshot with
 * the steps after it replayed — the worker's business, the store never reads either.
 */

export interface StoredRoom {
  roomId: string;
  /** Epoch of the writer of this snapshot. */
  epoch: number;
  /** Room revision; strictly increasing across writes of a room. */
  seq: number;
  /** The last full snapshot written: it may be older than `seq`, the steps after it carry the room on. */
  data: string;
  /** Every step appended so far, in order. */
  steps: string[];
}

/** A write with the room's whole snapshot: the first one, and any the writer chose to make whole. */
export interface FullWrite {
  seq: number;
  data: string;
  /** Appended to the room's step list in the same atomic write. */
  steps: string[];
}

/**
 * A write of steps only (`data` null): the stored `data` stays and the steps are appended. The steps
 * continue the stored state, so the write applies only while the stored seq is still `after` (the
 * writer's previous write); else it is refused as `gap` and changes nothing — a write lost in a store
 * failover would otherwise leave a hole no replay can cross.
 */
export interface StepsWrite {
  seq: number;
  data: null;
  after: number;
  steps: string[];
}

export type SnapshotWrite = FullWrite | StepsWrite;

export type CreateResult = { ok: true; epoch: number } | { ok: false; reason: 'exists' };
/**
 * 'stale': fenced out (another epoch holds the room). 'gap': a steps-only write whose `after` is not the
 * stored seq; nothing was written, and the writer must send the whole snapshot instead.
 */
export type WriteResult = 'ok' | 'stale' | 'gap';

export interface LeaseInfo {
  owner: string;
  epoch: number;
}

export interface SnapshotStore {
  /**
   * Creates a room at epoch 1 with its first snapshot, owned by `owner`.
   * Refuses if the room id was ever used (its epoch counter exists).
   */
  createRoom(roomId: string, owner: string, first: FullWrite, ttlMs: number): Promise<CreateResult>;
  /**
   * Takes the room at the next epoch — even from a live owner, which is then
   * fenced out — and returns the latest snapshot read in the same atomic step,
   * so every write the previous owner made is in it and none can follow.
   * null (nothing taken) if the room has no snapshot.
   */
  acquire(roomId: string, owner: string, ttlMs: number): Promise<{ epoch: number; room: StoredRoom } | null>;
  /**
   * Conditional on `epoch` being current and `seq` above the stored one (and, without data, on the
   * stored seq being `after`); renews the lease.
   */
  write(roomId: string, epoch: number, owner: string, w: SnapshotWrite, ttlMs: number): Promise<WriteResult>;
  /** Renews the leases still held at their epoch; returns the room ids that are no longer ours. */
  renew(owner: string, leases: { roomId: string; epoch: number }[], ttlMs: number): Promise<string[]>;
  /** Ends our lease early (only if it is still ours at `epoch`) so another worker may take the room at once. */
  release(roomId: string, owner: string, epoch: number): Promise<boolean>;
  /**
   * Deletes a finished room's snapshot, steps and lease (only if `epoch` is current).
   * The epoch counter is kept for an hour so the id stays fenced against late writers.
   */
  drop(roomId: string, epoch: number): Promise<boolean>;
  /**
   * The store's generation marker: a random id written once, when missing. A worker keeps the value it
   * opened each room under beside the room's lease; a different value later means the store lost its
   * data (wiped, or restarted without persistence), not that another worker took the room.
   * Optional: stores written before it (and test doubles) have none, and then no loss is detected.
   */
  generation?(): Promise<string>;
  /** Read-only view of the latest snapshot (tests, tools). */
  load(roomId: string): Promise<StoredRoom | null>;
  /** The live lease, if any. */
  lease(roomId: string): Promise<LeaseInfo | null>;
  /**
   * Optional: the milliseconds left on the live leases of up to `sample` rooms leased to `owner` (any rooms of
   * it, cheaply picked). Every write and renewal resets a lease to its owner's TTL, so `now + left - ttl` is
   * when the owner last renewed it: the matchmaker's proof that a worker whose heartbeats are late is still
   * working (busy is not dead).
   */
  leaseLeft?(owner: string, sample: number): Promise<number[]>;
  /** Rooms that exist (not dropped) but whose lease has lapsed: nobody is running them. A full scan of every room. */
  orphans(limit: number): Promise<string[]>;
  /**
   * Optional cheap form of `orphans` for the frequent sweep (Redis: a lease-expiry index, so the cost follows the
   * leases that came due, not the number of rooms). It may miss a room its index lost (a store failover); then
   * `orphans`, run now and then, finds it and puts it back.
   */
  lapsed?(limit: number): Promise<string[]>;
  /** Rooms whose live lease names `owner` (what a dead worker was running, whatever its last heartbeat said). */
  ownedBy(owner: string, limit: number): Promise<string[]>;
  /**
   * Optional fast first answer to `ownedBy` (Redis: a per-owner hint set checked against the leases, no
   * scan): every room it returns is leased to `owner`, but it may miss some, so `ownedBy` must follow.
   */
  ownedByHint?(owner: string, limit: number): Promise<string[]>;
  /**
   * Takes a room out of `owner`'s hint (best effort) while it keeps its lease: it still fails over, but
   * from the `ownedBy` scan that follows the hinted rooms. For a finished table that only lingers for late
   * viewers: restoring it first would delay the live tables of the same failover.
   */
  unhint?(owner: string, roomId: string): Promise<void>;
  close(): Promise<void>;
}

export interface QueueEntry {
  userId: string;
  name: string;
  gatewayId: string;
  /** Enqueue time (ms); the queue is served oldest first. */
  at: number;
  /** False when the user wants humans only: a bot-filled table leaves them waiting. */
  bots?: boolean;
  /** The client address the user queued from (the matchmaker's per-address table budget). */
  addr?: string;
}

/**
 * Shared state of the (otherwise stateless) matchmakers: quick-match queues
 * and one-shot claims, atomic in the store so any replica can serve any request.
 */
export interface MatchStore {
  /**
   * Puts the user in queue `key` (leaving any other queue; keeping its place if
   * already there) and drops entries older than `staleMs`. If `size` users now
   * wait, removes the `size` oldest and returns them (the table); else null. `size` 0 only joins the line
   * (the fleet is full: no table would start).
   *
   * `gatewayHoldMs` > 0 prefers tables whose players share a gateway: then the table is the `size`
   * oldest of the entry's own gateway once that many wait there, and otherwise the `size` oldest of all
   * only if the oldest has waited `gatewayHoldMs` by the entry's clock (`entry.at`); else null, and the
   * matchmaker seats a held queue when its hold ends (services/matchmaker/src/queue-watch.ts).
   */
  enqueue(
    key: string,
    entry: QueueEntry,
    size: number,
    staleMs: number,
    gatewayHoldMs?: number,
  ): Promise<QueueEntry[] | null>;
  /**
   * `enqueue` for a client's request `requestId`, carried out at most once: the id is remembered for `ttlMs`
   * in the same atomic step as the enqueue. A request tried again after it was carried out (its answer was
   * late) changes nothing and returns 'repeat' — the user is queued, maybe seated already, and must not be
   * queued twice; one that failed before the store took it leaves no trace, so its retry is carried out.
   */
  enqueueRequest(
    requestId: string,
    ttlMs: number,
    key: string,
    entry: QueueEntry,
    size: number,
    staleMs: number,
    gatewayHoldMs?: number,
  ): Promise<QueueEntry[] | null | 'repeat'>;
  /** Takes the user out of whatever queue holds them. */
  dequeue(userId: string): Promise<boolean>;
  /**
   * Who waits in queue `key` now, oldest first, leaving out entries older than `staleMs`
   * (queue size on the waiting screen; the seats bots may fill).
   */
  waiting(key: string, staleMs: number): Promise<QueueEntry[]>;
  /** Puts popped entries back at their old places (a table that could not be started). */
  requeue(key: string, entries: QueueEntry[], staleMs: number): Promise<void>;
  /** True for exactly one caller per `key` until `ttlMs` passes. */
  claim(key: string, owner: string, ttlMs: number): Promise<boolean>;
  close(): Promise<void>;
}
