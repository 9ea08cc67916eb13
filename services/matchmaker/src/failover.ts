/**
 * Which workers are alive (from their heartbeats), and what happens when one
 * is not: one replica wins a one-shot claim for that death and asks live
 * workers to restore each room the store's leases say the dead worker held;
 * restoring takes the lease at the next epoch, which fences the old owner out
 * even if it was not dead after all. An orphan sweep places rooms whose lease
 * lapsed with nobody running them (e.g. every matchmaker was down at the time):
 * every ORPHAN_SWEEP_MS from the leases that came due (the store's expiry
 * index, so its cost does not grow with the tables), every ORPHAN_SCAN_MS by
 * walking every room, for any the index lost.
 *
 * Heartbeats carry no room lists (their size must not grow with the tables):
 * ownership is read from the fenced leases, only when a failover needs it.
 *
 * Busy is not dead (issue 37): a worker past its heartbeat deadline is first
 * checked for other signs of life — a lease it renewed after its last
 * heartbeat (`signs-of-life.ts`), a ping it answered — and kept when it shows
 * one. A failover then moves at most FAILOVER_STEP_SHARE of the worker's rooms
 * per FAILOVER_STEP_MS and stops the moment the worker shows life (a
 * heartbeat of the same incarnation, a ping answered, or — when only its
 * heartbeats were missed — a renewed lease): a false verdict costs a share of
 * its tables, not all of them. A restarted worker (new incarnation) is gone
 * for certain, and its rooms move at once.
 */
import { contract, listen } from '@joke/protocol';
import type { Bus, BusSubscription } from '@joke/bus';
import type { Logger } from '@joke/ops';
import type { MatchStore, SnapshotStore } from '@joke/stores';
import type { Clock, Timer } from '@joke/bus/clock';
import type { MatchmakerConfig } from './config.ts';
import type { MatchmakerMetrics } from './metrics.ts';
import type { Placer } from './placer.ts';
import { pool } from './util.ts';
import { WorkerProbe } from './probe.ts';
import { lastRenewal } from './signs-of-life.ts';
import { OrphanSweep } from './orphan-sweep.ts';
import { FleetRoom } from './fleet-room.ts';

export interface LiveWorker {
  workerId: string;
  shard: number;
  incarnation: string;
  rooms: number;
  draining: boolean;
  seenAt: number;
  loopLagMs: number;
  actionsPerSec: number;
  /**
   * The longest recent gap between two of its heartbeats (or its reported loop lag), decaying by half every
   * GAP_HALF_LIFE_MS: a worker whose heartbeats have been coming late gets a longer deadline.
   */
  slowGapMs: number;
  /** The TTL it gives its leases (heartbeat), for reading its renewals from them; undefined: older worker. */
  leaseTtlMs?: number;
  /** New rooms it will take now (heartbeat); undefined: an older worker, which says nothing. */
  headroom?: number;
}

/**
 * A worker is dead after DEAD_AFTER_MS of silence, or after GAP_SLACK times its recent slowest heartbeat gap
 * when that is longer (at most MAX_STRETCH × DEAD_AFTER_MS). On an overloaded box (5,000 tables on two
 * gateways) heartbeats came later and later until one gap passed 1.5 s: the matchmaker failed a live worker's
 * 2,171 rooms over, then the other's 2,578, and the moves buried the stack. A crashed worker is still found
 * within a ping ("no responders"); the heartbeat timeout is for what the bus cannot tell, and there a few
 * seconds more cost less than moving every room of a worker that was only slow.
 */
const GAP_SLACK = 3;
const MAX_STRETCH = 10;
const GAP_HALF_LIFE_MS = 10_000;

export interface FailoverReport {
  workerId: string;
  rooms: number;
  restored: number;
  failed: number;
  ms: number;
  /** The worker showed life mid-way: the rooms not yet moved stayed with it. */
  stopped?: boolean;
}

export interface FailoverHost {
  bus: Bus;
  snapshots: SnapshotStore;
  match: MatchStore;
  cfg: MatchmakerConfig;
  metrics: MatchmakerMetrics;
  log: Logger;
  placer: Placer;
  /** Heartbeat ages, the dead check and the orphan sweep; failover durations stay on `performance.now()`. */
  clock: Clock;
}

export class Workers {
  readonly live = new Map<string, LiveWorker>();
  private readonly listeners: ((r: FailoverReport) => void)[] = [];
  private readonly subs: BusSubscription[];
  private readonly timers: Timer[] = [];
  private readonly probe: WorkerProbe;
  /** Workers whose leases are being read before a verdict (one look at a time each). */
  private readonly suspects = new Set<LiveWorker>();
  /** Workers being failed over step by step; pinged still, so an answer stops their failover. */
  private readonly dying = new Map<string, LiveWorker>();
  private readonly orphans: OrphanSweep;
  private closed = false;
  /** When the dead check last ran: a check much later than its period tells of this process's own pause. */
  private lastCheckAt: number;

  constructor(private readonly h: FailoverHost) {
    this.lastCheckAt = h.clock.now();
    this.subs = [
      listen(
        h.bus,
        contract.workerHeartbeat,
        (hb) => this.beat(hb),
        () => h.metrics.errors.inc({ kind: 'bad-heartbeat' }),
      ),
      listen(h.bus, contract.workerDraining, (d) => {
        const w = this.live.get(d.workerId);
        if (w) w.draining = true;
        this.gauge();
      }),
    ];
    this.timers.push(h.clock.setInterval(() => this.checkDead(), h.cfg.deadCheckMs));
    this.orphans = new OrphanSweep(h, () => this.candidates().length > 0 && !this.closed);
    this.timers.push(h.clock.setInterval(() => void this.orphans.sweep(), h.cfg.orphanSweepMs));
    this.probe = new WorkerProbe(
      h.bus,
      { probeMs: h.cfg.probeMs, probeTimeoutMs: h.cfg.probeTimeoutMs, from: h.cfg.matchmakerId, clock: h.clock },
      () => [...this.live.values(), ...this.dying.values()],
      (t) => this.gone(t.workerId, t.incarnation, 'no responders'),
      (t) => this.answered(t.workerId, t.incarnation),
    );
  }

  /**
   * Live, non-draining workers (except `exclude`) with their room counts, for placement. `withHeadroom`: only
   * those that said they can take a new room (a worker that says nothing about it counts as able).
   */
  candidates(exclude?: string, withHeadroom = false): { workerId: string; rooms: number }[] {
    const out: { workerId: string; rooms: number }[] = [];
    for (const w of this.live.values())
      if (!w.draining && w.workerId !== exclude && !(withHeadroom && w.headroom === 0))
        out.push({ workerId: w.workerId, rooms: w.rooms });
    return out;
  }

  /** The fleet's headroom for new tables, told by heartbeats and counted down between them. */
  readonly room = new FleetRoom(
    () => this.live.values(),
    (id) => this.live.get(id),
  );

  onFailover(cb: (r: FailoverReport) => void): void {
    this.listeners.push(cb);
  }

  private gauge(): void {
    this.h.metrics.live.set(this.candidates().length);
  }

  private beat(hb: {
    workerId: string;
    shard: number;
    rooms: number;
    draining: boolean;
    loopLagMs: number;
    actionsPerSec: number;
    incarnation?: string;
    leaseTtlMs?: number;
    headroom?: number;
  }): void {
    const incarnation = hb.incarnation ?? '';
    const prev = this.live.get(hb.workerId) ?? this.dying.get(hb.workerId);
    const now = this.h.clock.now();
    let slowGapMs = hb.loopLagMs;
    if (prev && prev.incarnation === incarnation) {
      const gap = now - prev.seenAt;
      slowGapMs = Math.max(slowGapMs, gap, prev.slowGapMs * 0.5 ** (gap / GAP_HALF_LIFE_MS));
    }
    this.live.set(hb.workerId, {
      workerId: hb.workerId,
      shard: hb.shard,
      incarnation,
      rooms: hb.rooms,
      // A drain is one-way: once announced it holds until the worker comes back as a new incarnation.
      draining: hb.draining || (prev !== undefined && prev.incarnation === incarnation && prev.draining),
      seenAt: now,
      loopLagMs: hb.loopLagMs,
      actionsPerSec: hb.actionsPerSec,
      slowGapMs,
      leaseTtlMs: hb.leaseTtlMs,
      headroom: hb.headroom,
    });
    // Restarted under the same id: whatever the old process ran is gone with it. The leases are read at
    // once, before this new incarnation is likely to have been given rooms of its own.
    if (prev && prev.incarnation !== incarnation) void this.failover(prev, 'restarted');
    this.gauge();
  }

  private checkDead(): void {
    const now = this.h.clock.now();
    // A check that runs more than a period late means this process was not running meanwhile (starved of CPU,
    // a long GC, a paused VM or container). The workers' heartbeats of that time may still be unread on its
    // socket (timers run before I/O when it resumes): the time it did not watch is not their silence. Under the
    // suite's own load a matchmaker's pause failed live workers over, and their rooms moved a second time.
    const late = now - this.lastCheckAt - 2 * this.h.cfg.deadCheckMs;
    this.lastCheckAt = now;
    if (late > 0) {
      for (const w of this.live.values()) w.seenAt += late;
      this.h.metrics.pauses.inc();
    }
    for (const w of [...this.live.values()]) if (now - w.seenAt > this.deadline(w)) void this.suspect(w);
  }

  /**
   * Past its heartbeat deadline: kept if it renewed a lease since its last heartbeat (that time becomes its
   * last sign of life, so the deadline runs from there), failed over if not.
   */
  private async suspect(w: LiveWorker): Promise<void> {
    if (this.suspects.has(w)) return;
    this.suspects.add(w);
    const renewed = await lastRenewal(this.h.snapshots, w.workerId, w.leaseTtlMs, () => this.h.clock.now());
    this.suspects.delete(w);
    if (this.live.get(w.workerId) !== w) return; // a heartbeat (a new entry) or another verdict came first
    if (renewed !== null && renewed > w.seenAt) {
      w.seenAt = renewed;
      this.h.metrics.busyNotDead.inc({ sign: 'lease' });
      this.h.log.info(
        { workerId: w.workerId, heartbeatLateMs: this.h.clock.now() - w.seenAt },
        'worker late with its heartbeats but renewing its leases: busy, not dead',
      );
      if (this.h.clock.now() - w.seenAt <= this.deadline(w)) return;
    }
    this.gone(w.workerId, w.incarnation, 'heartbeat timeout');
  }

  /** A ping of that incarnation was answered: as good as a heartbeat for its liveness. */
  private answered(workerId: string, incarnation: string): void {
    const w = this.live.get(workerId) ?? this.dying.get(workerId);
    if (!w || w.incarnation !== incarnation) return;
    w.seenAt = Math.max(w.seenAt, this.h.clock.now());
  }

  /**
   * Whether a worker being failed over has shown life since `since` (its last sign when it was judged): a
   * heartbeat of the same incarnation, a ping answered, or — when the bus could not tell (`heartbeat
   * timeout`) — a lease renewed. After "no responders" a renewed lease is not enough: a worker cut off from
   * the bus but not from the store keeps renewing tables nobody can reach.
   */
  private async showsLife(dead: LiveWorker, since: number, why: string): Promise<string | null> {
    const back = this.live.get(dead.workerId);
    if (back && back.incarnation === dead.incarnation) return 'heartbeat';
    if (dead.seenAt > since) return 'ping';
    if (why !== 'heartbeat timeout') return null;
    const renewed = await lastRenewal(this.h.snapshots, dead.workerId, dead.leaseTtlMs, () => this.h.clock.now());
    return renewed !== null && renewed > since ? 'lease' : null;
  }

  /** How long this worker may be silent (see GAP_SLACK). */
  private deadline(w: LiveWorker): number {
    const { deadAfterMs } = this.h.cfg;
    return Math.max(deadAfterMs, Math.min(GAP_SLACK * w.slowGapMs, MAX_STRETCH * deadAfterMs));
  }

  /**
   * That incarnation of the worker is dead (or looks it): no more placements on it, and its rooms fail over.
   * A worker that was only cut off comes back with its next heartbeat, as a live worker with no rooms left.
   */
  private gone(workerId: string, incarnation: string, why: string): void {
    const w = this.live.get(workerId);
    // A ping answered after close() (the bus shutting down says "no responders" too) is no death.
    if (this.closed || !w || w.incarnation !== incarnation) return;
    this.live.delete(workerId);
    this.gauge();
    this.h.metrics.deaths.inc({ why });
    void this.failover(w, why);
  }

  private async failover(dead: LiveWorker, why: string): Promise<void> {
    const { snapshots, match, cfg, metrics: m, log, placer } = this.h;
    const t0 = performance.now();
    let won = false;
    try {
      // Held long enough for every replica to notice the same death, short enough that a worker that was
      // only cut off (a false alarm) and then really dies is failed over again, not left to the orphan sweep.
      const hold = Math.max(5_000, 2 * cfg.deadAfterMs);
      won = await match.claim(`failover:${dead.workerId}:${dead.incarnation}`, cfg.matchmakerId, hold);
    } catch (err) {
      m.errors.inc({ kind: 'store' });
      log.error({ err }, 'failover claim failed; the orphan sweep will cover these rooms');
    }
    if (!won) return;
    const claimedMs = performance.now() - t0;
    m.failovers.inc();
    let restored = 0;
    let failed = 0;
    const seen = new Set<string>();
    // Paced unless the worker is certainly gone: FAILOVER_STEP_SHARE of its rooms per FAILOVER_STEP_MS, and a
    // sign of life between two steps ends it (`showsLife`).
    const paced = why !== 'restarted' && cfg.failoverStepShare < 1;
    const since = dead.seenAt;
    let stopped: string | null = null;
    if (paced) this.dying.set(dead.workerId, dead);
    /** `checked`: the list was just read against the live leases (the hint is), so no second read per room. */
    const restore = async (roomIds: string[], checked: boolean) => {
      const all = roomIds.filter((id) => !seen.has(id));
      const step = paced ? Math.max(1, Math.ceil(all.length * cfg.failoverStepShare)) : all.length;
      for (let i = 0; i < all.length && !stopped; i += step) {
        if (paced && (i > 0 || seen.size > 0)) {
          await this.h.clock.sleep(cfg.failoverStepMs);
          stopped = this.closed ? 'closed' : await this.showsLife(dead, since, why);
          if (stopped) break;
        }
        await restoreNow(all.slice(i, i + step), checked);
      }
    };
    const restoreNow = async (todo: string[], checked: boolean) => {
      for (const id of todo) seen.add(id);
      const first = placer.spread(todo, dead.workerId);
      await pool(todo, cfg.failoverConcurrency, async (roomId) => {
        const lease = checked ? null : await snapshots.lease(roomId).catch(() => null);
        // Someone else holds it (handed over in a drain, or restored already): not ours to move.
        if (lease && lease.owner !== dead.workerId) return;
        const r = await placer.place(roomId, { v: 1, roomId, restore: true }, dead.workerId, first.get(roomId));
        if (r.ok) restored++;
        else {
          failed++;
          log.warn({ roomId, code: r.code }, 'failover of a room failed; the orphan sweep retries');
        }
      });
    };
    const list = async (how: 'hint' | 'scan') => {
      try {
        if (how === 'scan') return await snapshots.ownedBy(dead.workerId, 1_000_000);
        return (await snapshots.ownedByHint?.(dead.workerId, 1_000_000)) ?? [];
      } catch (err) {
        m.errors.inc({ kind: 'store' });
        log.warn(
          { err, how },
          'could not list the dead worker leases; the orphan sweep will place them when they lapse',
        );
        return [];
      }
    };
    // First what the owner hint names (one read: most rooms resume within a round trip or two), then the
    // full scan of the leases for anything the hint missed; a room restored in the first pass is skipped.
    const hinted = await list('hint');
    const listedMs = performance.now() - t0;
    log.warn({ deadWorker: dead.workerId, why, rooms: hinted.length }, 'worker gone: failing its rooms over');
    await restore(hinted, true);
    const hintedRestoredMs = performance.now() - t0;
    // Where the players' pause went (detection is before t0): logged now, the full scan below may take a while.
    log.info(
      { workerId: dead.workerId, why, hinted: hinted.length, claimedMs, listedMs, hintedRestoredMs },
      'failover: hinted rooms restored',
    );
    if (!stopped) await restore(await list('scan'), false);
    this.dying.delete(dead.workerId);
    if (stopped) {
      m.busyNotDead.inc({ sign: stopped });
      log.warn(
        { workerId: dead.workerId, why, sign: stopped, moved: seen.size },
        'failover stopped: the worker shows life; it keeps the rooms not yet moved',
      );
    }
    const report: FailoverReport = {
      workerId: dead.workerId,
      rooms: seen.size,
      restored,
      failed,
      ms: performance.now() - t0,
      ...(stopped ? { stopped: true } : {}),
    };
    m.failoverSeconds.observe(report.ms / 1000);
    log.info(report, 'failover done');
    for (const l of this.listeners) l(report);
  }

  close(): void {
    this.closed = true;
    this.probe.close();
    for (const t of this.timers) this.h.clock.clearInterval(t);
    for (const s of this.subs) s.unsubscribe();
  }
}
