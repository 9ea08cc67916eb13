/**
 * The worker's periodic duties, each with its state in one place:
 * - heartbeat: liveness, load and `incarnation`, the same size at any room
 *   count (no room ids: who runs a room is its lease in the store);
 * - headroom: how many new rooms it takes now, from what it measured over
 *   the last heartbeat (rooms vs MAX_ROOMS, event-loop delay, queued items,
 *   CPU); 0 past any ADMIT_* limit, and then opens are refused (`capacity`)
 *   until a heartbeat measures it under them again. The loop delay counts
 *   only when at least two of the last four heartbeats measured it (the
 *   second highest of their p99s), so one pause — a start-up that blocked the
 *   loop, a full GC — does not refuse tables on an idle worker, while a loop
 *   that stays slow does (its long delays may land in every other window). It
 *   only gates new tables: the ones it runs, and restores of moved ones, keep
 *   going. With a CPU budget (ADMIT_MAX_CPU) it is also projected: the rooms
 *   the budget still holds at the CPU a live table costs (headroom.ts: live
 *   rooms only, the last such cost remembered), so a new table is judged by
 *   the load it will bring, not by the delay it already caused; and each room
 *   opened between heartbeats takes one off (`took`), so a burst of opens
 *   cannot spend one heartbeat's headroom many times over;
 * - lease renewal for rooms that have not written lately (a write renews too);
 * - dead gateways: viewers of a gateway silent for `gatewayDeadAfterMs` go.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { contract, emit, listen, PROTOCOL_VERSION, type bus as wire } from '@joke/protocol';
import type { Bus, BusSubscription } from '@joke/bus';
import type { Logger } from '@joke/ops';
import type { SnapshotStore } from '@joke/stores';
import type { Clock, Timer } from '@joke/bus/clock';
import type { WorkerConfig } from './config.ts';
import type { WorkerMetrics } from './metrics.ts';
import type { Room } from './room.ts';
import { currentGeneration } from './store-loss.ts';
import type { PriorityIntake } from './intake.ts';
import { admissionLagMs, headroomOf, liveRoomCpu, type Load } from './headroom.ts';

export interface UpkeepHost {
  bus: Bus;
  store: SnapshotStore;
  cfg: WorkerConfig;
  metrics: WorkerMetrics;
  log: Logger;
  clock: Clock;
  incarnation: string;
  rooms: ReadonlyMap<string, Room>;
  /** Told the loop delay admission reads at each heartbeat; its backlog is the worker's queued items. */
  intake?: PriorityIntake;
  draining(): boolean;
}

/** The heartbeat a worker with `rooms` rooms sends (exported so its size can be shown at any room count). */
export function heartbeatMessage(
  cfg: Pick<WorkerConfig, 'workerId' | 'shard'>,
  incarnation: string,
  rooms: number,
  actionsPerSec: number,
  loopLagMs: number,
  draining: boolean,
  at = Date.now(),
  admission: { leaseTtlMs?: number; headroom?: number } = {},
): wire.WorkerHeartbeat {
  return {
    v: PROTOCOL_VERSION,
    workerId: cfg.workerId,
    shard: cfg.shard,
    rooms,
    actionsPerSec,
    loopLagMs,
    draining,
    at,
    incarnation,
    ...admission,
  };
}

export class Upkeep {
  private readonly lag = monitorEventLoopDelay({ resolution: 10 });
  private lastBeat = performance.now();
  private lastCpu = process.cpuUsage();
  /** New rooms this worker takes now (`headroomOf` at the last heartbeat; opens check it). */
  headroom = Number.POSITIVE_INFINITY;
  /** The CPU one live table cost when last measured with enough live rooms (headroom.ts), null before. */
  private liveCpu: number | null = null;
  /** The last four heartbeats' loop delays (p99, ms): admission reads the second highest. */
  private readonly recentLagMs: number[] = [];
  private transitions = 0;
  private renewing = false;
  private readonly gatewaysSeen = new Map<string, number>();
  private readonly timers: Timer[] = [];
  private readonly sub: BusSubscription;

  constructor(private readonly h: UpkeepHost) {
    this.sub = listen(h.bus, contract.gatewayHeartbeat, (hb) => this.gatewaySeen(hb.gatewayId));
  }

  /** Starts the timers and sends the first heartbeat. */
  start(): void {
    const { cfg, clock } = this.h;
    this.lag.enable();
    this.timers.push(clock.setInterval(() => this.heartbeat(), cfg.heartbeatMs));
    this.timers.push(clock.setInterval(() => void this.renew(), Math.max(50, Math.floor(cfg.leaseRenewMs / 2))));
    this.timers.push(
      clock.setInterval(() => this.sweepGateways(), Math.max(50, Math.floor(cfg.gatewayDeadAfterMs / 4))),
    );
    this.heartbeat();
  }

  transition(): void {
    this.transitions++;
  }

  /** A room was opened: one less until the next heartbeat measures again. */
  took(): void {
    if (this.headroom > 0) this.headroom--;
  }

  gatewaySeen(gatewayId: string): void {
    this.gatewaysSeen.set(gatewayId, this.h.clock.now());
  }

  /** A room arrived with viewers on these gateways: give them the full grace period. */
  gatewaysKnown(ids: Iterable<string>): void {
    for (const g of ids) if (!this.gatewaysSeen.has(g)) this.gatewaysSeen.set(g, this.h.clock.now());
  }

  heartbeat(): void {
    const { cfg, metrics, log } = this.h;
    const now = performance.now();
    const secs = Math.max((now - this.lastBeat) / 1000, 1e-3);
    this.lastBeat = now;
    // Real milliseconds: the matchmaker stretches this worker's deadline by them, on its own clock. A worker on
    // another clock (the tests' fake time) reports none: there the real lag of a loaded test box stretched a
    // deadline that the test had placed on fake time (a failover test failed under two busy loops).
    const measuredLagMs = Math.round((this.lag.percentile(99) / 1e6) * 10) / 10;
    const loopLagMs = this.h.clock.real ? measuredLagMs : 0;
    this.lag.reset();
    metrics.loopLag.set(measuredLagMs / 1000);
    const cpuNow = process.cpuUsage(this.lastCpu);
    this.lastCpu = process.cpuUsage();
    let queued = 0;
    let live = 0;
    for (const r of this.h.rooms.values()) {
      queued += r.queued;
      if (r.live) live++;
    }
    metrics.liveRooms.set(live);
    // Lag and CPU only on real time, for the same reason as loopLagMs: a test on fake time must not find
    // its worker full because the box running it is busy.
    const real = this.h.clock.real;
    this.recentLagMs.push(loopLagMs);
    if (this.recentLagMs.length > 4) this.recentLagMs.shift();
    const sustainedLagMs = admissionLagMs(this.recentLagMs);
    this.h.intake?.loopLag(sustainedLagMs);
    if (this.h.intake) metrics.intakeBacklog.set(this.h.intake.backlog);
    const load: Load = {
      rooms: this.h.rooms.size,
      live,
      lagMs: sustainedLagMs,
      queued,
      cpu: real ? (cpuNow.user + cpuNow.system) / 1e6 / secs : 0,
    };
    this.liveCpu = liveRoomCpu(load) ?? this.liveCpu;
    this.headroom = headroomOf(cfg, load, this.h.draining(), this.liveCpu);
    const hb = heartbeatMessage(
      cfg,
      this.h.incarnation,
      this.h.rooms.size,
      Math.round(this.transitions / secs),
      loopLagMs,
      this.h.draining(),
      this.h.clock.now(),
      { leaseTtlMs: cfg.leaseTtlMs, headroom: this.headroom },
    );
    this.transitions = 0;
    try {
      emit(this.h.bus, contract.workerHeartbeat, hb);
    } catch (err) {
      metrics.errors.inc({ kind: 'bus' });
      log.warn({ err }, 'heartbeat publish failed');
    }
  }

  private async renew(): Promise<void> {
    if (this.renewing) return;
    const { cfg, metrics, log, rooms } = this.h;
    this.renewing = true;
    try {
      const cutoff = this.h.clock.now() - cfg.leaseRenewMs;
      const due = [...rooms.values()].filter((r) => !r.closed && r.lastWriteAt < cutoff);
      if (due.length > 0) await this.renewLeases(due);
    } catch (err) {
      metrics.errors.inc({ kind: 'store' });
      log.warn({ err }, 'lease renewal failed');
    } finally {
      this.renewing = false;
    }
  }

  /**
   * Renews the leases of `due` and lets go of every room whose lease is no longer ours (a takeover), or marks it
   * store-lost when the store itself lost everything. Rejects when the store cannot be reached (nothing decided).
   */
  async renewLeases(due: Room[]): Promise<void> {
    const { cfg, store, log, metrics, rooms } = this.h;
    const lost = await store.renew(
      cfg.workerId,
      due.map((r) => ({ roomId: r.id, epoch: r.epoch })),
      cfg.leaseTtlMs,
    );
    const now = this.h.clock.now();
    for (const r of due) r.lastWriteAt = now;
    // A lease lost because the store lost everything is not a takeover (store-loss.ts).
    const generation = lost.length > 0 ? await currentGeneration(store) : null;
    for (const id of lost) {
      const room = rooms.get(id);
      if (room && generation !== null && room.generation !== null && room.generation !== generation) {
        room.storeLost();
        continue;
      }
      log.warn({ roomId: id }, 'lease lost; letting the room go');
      metrics.errors.inc({ kind: 'stale' });
      room?.close();
    }
  }

  private sweepGateways(): void {
    const cutoff = this.h.clock.now() - this.h.cfg.gatewayDeadAfterMs;
    for (const [g, t] of this.gatewaysSeen) {
      if (t >= cutoff) continue;
      this.gatewaysSeen.delete(g);
      this.h.log.info({ gatewayId: g }, 'gateway silent; removing its viewers');
      for (const r of this.h.rooms.values()) r.gatewayGone(g);
    }
  }

  stop(): void {
    for (const t of this.timers) this.h.clock.clearInterval(t);
    this.timers.length = 0;
    this.sub.unsubscribe();
    this.lag.disable();
  }
}
