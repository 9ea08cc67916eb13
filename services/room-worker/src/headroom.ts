/**
 * A worker's headroom (issue 37): how many new tables it takes now, from what it measured over one
 * heartbeat against its ADMIT_* limits. Pure: upkeep.ts measures and keeps the state (the last live-room
 * cost it could measure); this only decides.
 *
 * With a CPU budget (ADMIT_MAX_CPU) the rooms it still takes are projected: the budget left over, divided
 * by what one more table will cost. That cost is measured over LIVE rooms only — rooms not finished with
 * a connected player (Room.live) — never over all of them. A worker's rooms include tables whose players
 * all left, playing out on substitutes (bots standing in) at a fraction of a live table's cost; averaged
 * in, they made a new table look cheap, and the 3× level of the 2026-12-07 overload run admitted 4,535
 * tables against the ≈ 3,000 the box plays in time (docs/measurements/overload.md).
 *
 * Why live rooms and not rooms weighted by their action rate: counting them is one pass over the rooms at
 * each heartbeat (the pass that sums their queues already), with nothing counted per action. And it errs
 * on the safe side: the whole CPU (substitute tables' and the process's own included) is charged to the
 * live rooms, so the cost per live table is an upper bound and the projection can refuse a table the box
 * could have played, never admit one it cannot. A weighting by action rate charges a substitute's move as
 * much as a live one's, yet a live move is dearer (its views fan out to every player's gateway), so it
 * would still overestimate what fits. The bound tightens by itself: substitute tables finish, and every
 * live table admitted spreads the same CPU over one more room.
 *
 * Failure modes: with fewer than PROJECT_FROM_ROOMS live rooms (a worker whose tables all went to
 * substitutes, as after a level of the overload run) the cost of one cannot be told from the process's
 * own; the last cost measured with enough of them is used (`known`), else the cost per room over all of
 * them (a lower bound, but a bound), else only the free slots count.
 */
import type { WorkerConfig } from './config.ts';

/** What the worker measured over one heartbeat, against its ADMIT_* limits. */
export interface Load {
  rooms: number;
  /** Rooms not finished with a connected player (Room.live): the tables a new one will cost like. */
  live: number;
  lagMs: number;
  queued: number;
  /** Cores' worth of CPU this process used (1 = one core busy all the time). */
  cpu: number;
}

/**
 * The loop delay admission reads: the second highest of the last heartbeats' p99s, so one pause (one
 * window) never closes admission and a loop slow in two windows of four does.
 */
export function admissionLagMs(recentLagMs: readonly number[]): number {
  return [...recentLagMs].sort((a, b) => b - a)[1] ?? 0;
}

/** Rooms below which the CPU per room is not measured (a few rooms' CPU is mostly the process's own). */
export const PROJECT_FROM_ROOMS = 20;

/** The CPU one live table costs, as measured over this heartbeat; null when too few live rooms tell. */
export function liveRoomCpu(load: Pick<Load, 'live' | 'cpu'>): number | null {
  return load.live >= PROJECT_FROM_ROOMS && load.cpu > 0 ? load.cpu / load.live : null;
}

/**
 * New rooms the worker takes now: 0 when draining or past any limit (a 0 limit is none), else its free
 * slots, and with a CPU budget no more than the budget left over holds at a live table's cost
 * (`(budget − cpu) / (cpu / live)`: 1,000 live rooms using 0.5 of a 0.8 budget take 600 more — and so do
 * 1,000 live rooms beside 3,000 substitute-only ones on the same 0.5). `known`: the last live-room cost
 * measured with enough live rooms (used when this heartbeat had too few).
 */
export function headroomOf(
  cfg: Pick<
    WorkerConfig,
    'maxRooms' | 'admitMaxLagMs' | 'admitMaxQueued' | 'admitMaxCpu' | 'admitMaxOpensPerS' | 'heartbeatMs'
  >,
  load: Load,
  draining: boolean,
  known: number | null = null,
): number {
  const over = (limit: number, v: number) => limit > 0 && v > limit;
  if (draining || over(cfg.admitMaxLagMs, load.lagMs) || over(cfg.admitMaxQueued, load.queued)) return 0;
  if (over(cfg.admitMaxCpu, load.cpu)) return 0;
  const free = Math.min(Math.max(0, cfg.maxRooms - load.rooms), opensPerBeat(cfg));
  if (cfg.admitMaxCpu <= 0 || load.cpu <= 0) return free;
  const perTable = liveRoomCpu(load) ?? known ?? (load.rooms >= PROJECT_FROM_ROOMS ? load.cpu / load.rooms : null);
  if (perTable === null) return free;
  // The 1e-6: a quotient whole in decimals may come out just under it in binary.
  const fit = Math.floor((cfg.admitMaxCpu - load.cpu) / perTable + 1e-6);
  return Math.max(0, Math.min(free, fit));
}

/**
 * New rooms one heartbeat's headroom holds at most under ADMIT_MAX_OPENS_PER_S (at least 1; no limit at 0).
 * Why a rate: when a cohort of tables ends together beside a long quick-match line (the waves 34 s into the
 * overload run's levels), the headroom their end frees was filled at once — hundreds of opens, joins and
 * first views in one second on top of the tables still playing, whose p99 went past a second.
 */
export function opensPerBeat(cfg: Pick<WorkerConfig, 'admitMaxOpensPerS' | 'heartbeatMs'>): number {
  if (cfg.admitMaxOpensPerS <= 0) return Number.POSITIVE_INFINITY;
  return Math.max(1, Math.floor((cfg.admitMaxOpensPerS * cfg.heartbeatMs) / 1_000));
}
