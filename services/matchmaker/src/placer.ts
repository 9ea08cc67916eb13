/**
 * Opening a room on a worker: best-ranked live workers first, a timeout or a
 * refusal moves on to the next. Refusals are told apart by their machine code:
 * `roomExists` and `noSnapshot` mean no other worker would do better.
 *
 * Admission (issue 37): a new table goes only to workers whose last heartbeat
 * said they have headroom; when none has, or every one tried refused for want
 * of it (`full`, `capacity`), the answer is `capacity` at once — a refusal the
 * lobby and quick match can act on, not a timeout. Restores (failover,
 * migration) ignore headroom: a table already playing must land somewhere.
 *
 * Retry budget: trying the next worker after one timed out is a retry, and
 * retries draw on one RetryBudget per process (OPEN_RETRY_RATIO of first
 * tries): when opens time out everywhere (an overloaded fleet), a placement
 * ends with its `timeout` instead of adding up to three more opens to the
 * load. A refusal (full, draining) answers fast and costs nothing.
 */
import { BusTimeoutError, RetryBudget, type Bus } from '@joke/bus';
import { type Logger } from '@joke/ops';
import { type SnapshotStore } from '@joke/stores';
import type { Clock } from '@joke/bus/clock';
import { call, contract, refuse, type bus as wire, type Refusal } from '@joke/protocol';
import type { MatchmakerConfig } from './config.ts';
import type { MatchmakerMetrics } from './metrics.ts';

export type OpenResult = { ok: true; workerId: string; shard: number } | Refusal;

export interface PlacerHost {
  bus: Bus;
  snapshots: SnapshotStore;
  cfg: MatchmakerConfig;
  metrics: MatchmakerMetrics;
  log: Logger;
  clock: Clock;
  /** Live, non-draining workers best first for `roomId`; `withHeadroom`: only those that take new rooms now. */
  rank(roomId: string, exclude?: string, withHeadroom?: boolean): string[];
  shardOf(workerId: string): number;
  /** Some worker takes new rooms now (its last heartbeat's headroom, less what was placed since). */
  hasRoom(): boolean;
  /** A new room was placed on `workerId` (its headroom is one less until its next heartbeat). */
  took(workerId: string): void;
  /** Holds one room of the fleet's headroom for a new-table try (false: none to spare); `release` ends it. */
  reserve(): boolean;
  release(): void;
  /** `workerId` refused a new room for want of headroom: none there until its next heartbeat. */
  refusedNew(workerId: string): void;
}

const FINAL = new Set(['roomExists', 'noSnapshot']);
/** Refusals that mean "no room for it here": all of them together mean the fleet is full. */
const NO_HEADROOM = new Set(['full', 'capacity']);

/**
 * How long before this matchmaker gives up on an open the worker must have asked the store for the room
 * (OpenRoomRequest.deadline): room for the store's round trip and for the two hosts' clocks to differ, so
 * that a lease taken in time is already there when the timed-out attempt reads it (`place`).
 */
export const deadlineMargin = (openTimeoutMs: number): number => Math.min(1_000, Math.floor(openTimeoutMs / 3));

/** Opens after a timed-out one a quiet matchmaker may always make. */
const RETRY_FLOOR = 20;

export class Placer {
  readonly budget: RetryBudget;
  constructor(private readonly h: PlacerHost) {
    this.budget = new RetryBudget({ ratio: h.cfg.openRetryRatio, floor: RETRY_FLOOR });
  }

  /** One open request; a timeout or "no responders" comes back as code `timeout`. */
  async openOn(workerId: string, req: wire.OpenRoomRequest): Promise<wire.OpenRoomReply> {
    const { h } = this;
    const timeoutMs = h.cfg.openTimeoutMs;
    // Only a real clock's time means anything to the worker's clock.
    const sent = h.clock.real ? { ...req, deadline: h.clock.now() + timeoutMs - deadlineMargin(timeoutMs) } : req;
    const kind = req.create ? 'create' : 'restore';
    try {
      const r = await call(h.bus, contract.workerOpen.at(workerId), sent, timeoutMs);
      if (!r.ok && r.code === 'expired') {
        h.metrics.errors.inc({ kind: 'openExpired' });
        h.log.warn({ roomId: req.roomId, workerId, kind }, 'open reached the worker after its deadline');
      }
      return r;
    } catch (err) {
      const timedOut = err instanceof BusTimeoutError;
      h.metrics.errors.inc({ kind: timedOut ? 'openTimeout' : 'bus' });
      h.log.warn({ roomId: req.roomId, workerId, kind, timeoutMs, err: String(err) }, 'open got no answer in time');
      return refuse('timeout', String((err as Error).message));
    }
  }

  /**
   * For a burst of restores (a failover): the worker each room should try first, its best-ranked one
   * unless that one already has its even share of the burst. Rendezvous ranks alone are even only on
   * average: one failover sent 27 of 34 rooms to one worker and 7 to the other, and a worker restores
   * its rooms one after the other on its CPU, so the last of its 27 resumed ≈ 0.6 s after the first.
   */
  spread(roomIds: string[], exclude?: string): Map<string, string> {
    const first = new Map<string, string>();
    const load = new Map<string, number>();
    for (const roomId of roomIds) {
      const order = this.h.rank(roomId, exclude);
      if (order.length === 0) break;
      const share = Math.ceil(roomIds.length / order.length);
      const pick = order.find((w) => (load.get(w) ?? 0) < share) ?? order[0];
      load.set(pick, (load.get(pick) ?? 0) + 1);
      first.set(roomId, pick);
    }
    return first;
  }

  /** Tries workers best first (`first`, if given, before them); a timeout or refusal moves on to the next. */
  async place(roomId: string, req: wire.OpenRoomRequest, exclude?: string, first?: string): Promise<OpenResult> {
    const { h } = this;
    const ranked = h.rank(roomId, exclude, req.create !== undefined);
    const order = first && ranked.includes(first) ? [first, ...ranked.filter((w) => w !== first)] : ranked;
    if (order.length === 0) return this.noneFor(roomId, req, exclude);
    let full = 0;
    let timedOut = false;
    let last: Refusal = refuse('noWorkers');
    this.budget.first();
    for (const workerId of order.slice(0, 4)) {
      if (timedOut && !this.budget.tryRetry()) {
        h.metrics.errors.inc({ kind: 'retryBudget' });
        break;
      }
      const r = await this.openOn(workerId, req);
      if (r.ok) {
        h.metrics.placed.inc({ kind: req.create ? 'create' : 'restore' });
        if (req.create) h.took(workerId);
        return { ok: true, workerId, shard: h.shardOf(workerId) };
      }
      // `expired` can only come back when the reply outran our own timer: the same uncertainty as a timeout.
      if (r.code === 'timeout' || r.code === 'expired') timedOut = true;
      if (NO_HEADROOM.has(r.code)) {
        full++;
        if (req.create) h.refusedNew(workerId);
      }
      last = r;
      // An earlier worker that timed out may have opened it after all: the lease says who runs it. For a
      // restore, a lease of the worker the room moves from (`exclude`) is the one that was there before.
      // Without this a slow restore (acquired, still building when its reply was due; a failover at load 34)
      // was restored again on the next worker at the next epoch, which fenced the first and moved the
      // table twice.
      if (timedOut) {
        const lease = await h.snapshots.lease(roomId).catch(() => null);
        if (lease && (req.create || lease.owner !== exclude))
          return { ok: true, workerId: lease.owner, shard: h.shardOf(lease.owner) };
      }
      if (FINAL.has(r.code)) break;
    }
    if (full > 0 && !timedOut && full === Math.min(order.length, 4)) return this.capacity(roomId);
    return last;
  }

  /**
   * Whether a new table can be tried now: false when every live worker said it has no headroom. Quick match
   * asks before it takes players out of the line (queues.ts), so a full fleet costs it nothing per request:
   * taking a table's players out, being refused and putting them back on every request was what kept the
   * matchmaker and Redis busy at 3× the knee (27,653 such tries in one minute of the 2026-12-07 run).
   */
  hasRoom(): boolean {
    return this.h.hasRoom();
  }

  /**
   * Holds one room of the fleet's headroom while a new table is tried (taking players out of the line,
   * placing them): false when the tries already under way use it all. Every `true` needs its `release`.
   */
  reserve(): boolean {
    return this.h.reserve();
  }

  release(): void {
    this.h.release();
  }

  /** No worker to try: `capacity` if live workers are only out of headroom, else `noWorkers`. */
  private noneFor(roomId: string, req: wire.OpenRoomRequest, exclude?: string): Refusal {
    if (req.create && this.h.rank(roomId, exclude).length > 0) return this.capacity(roomId);
    return refuse('noWorkers');
  }

  private capacity(roomId: string): Refusal {
    this.h.metrics.refusedCapacity.inc();
    this.h.log.info({ roomId }, 'new table refused: no worker has headroom');
    return refuse('capacity');
  }
}
