/**
 * Automatic rebalancing: one matchmaker replica at a time — the holder of a
 * Redis lease, renewed every round — compares the live workers' table counts
 * from their heartbeats and, when the fullest and the emptiest differ by more
 * than the threshold, moves tables by the same live migration `npm run
 * rebalance` uses (players keep their sockets). Rate-limited: at most
 * `maxMoves` tables per round and one round in flight, so a rollout or a
 * scale-up never turns into a migration storm. A worker is a target only once
 * it has been heard for `settleMs` (a new pod may still be starting; during
 * a rollout workers come and go). Draining workers are left to their own
 * hand-over, and a scale-down (highest ordinals first, by the StatefulSet)
 * drains itself, so the leader only ever evens out the live ones.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import { type Bus } from '@joke/bus';
import { aliasPrefix, type Logger } from '@joke/ops';
import { connectRedis, type RedisClient } from '@joke/stores';
import { systemClock, unrefTimer, type Clock } from '@joke/bus/clock';
import { PROTOCOL_VERSION, type bus as wire } from '@joke/protocol';
import type { AutoRebalanceConfig } from './auto-rebalance-config.ts';
import { planRebalance, rebalance, type WorkerLoad } from './rebalance.ts';

export interface AutoRebalanceDeps {
  bus: Bus;
  log: Logger;
  /** This replica's id: the lease's value. */
  matchmakerId: string;
  /** Redis holding the lease (the matchmakers' own); the leader election needs one shared store. */
  redisUrl: string;
  /** Key prefix, as JOKE_NAMESPACE gives every other key. */
  namespace: string;
  /** The matchmaker's view of the workers (from heartbeats: ids, incarnation, table count, draining). */
  liveWorkers(): readonly { workerId: string; incarnation: string; rooms: number; draining: boolean }[];
  /** The rooms a worker's leases name (read only when a round is due: heartbeats carry counts, not ids). */
  roomsOf(workerId: string): Promise<readonly string[]>;
  registry?: Registry;
  /** The rounds' interval, the settle time and the quiet period (the lease's TTL is Redis's). Default: system clock. */
  clock?: Clock;
}

export interface AutoRebalancer {
  isLeader(): boolean;
  /** One round now (tests, and the timer). Resolves with the report when tables were moved, else null. */
  round(): Promise<wire.RebalanceReply | null>;
  close(): Promise<void>;
}

/** Take the lease if free, or renew it if ours; 1 = we lead. */
const ACQUIRE = `
local v = redis.call('GET', KEYS[1])
if v == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if not v then redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;
/** Give the lease back only if still ours (on shutdown, so another replica takes over at once). */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;

/** A live worker old enough to take tables, with its table count from its heartbeat. */
export interface SettledWorker {
  workerId: string;
  rooms: number;
}

/** Live workers old enough to take tables (not draining, heard for `settleMs`). */
export function settledWorkers(
  workers: ReturnType<AutoRebalanceDeps['liveWorkers']>,
  firstSeen: Map<string, number>,
  now: number,
  settleMs: number,
): SettledWorker[] {
  const out: SettledWorker[] = [];
  for (const w of workers) {
    const key = `${w.workerId}\u0000${w.incarnation}`;
    if (!firstSeen.has(key)) firstSeen.set(key, now);
    if (w.draining || now - firstSeen.get(key)! < settleMs) continue;
    out.push({ workerId: w.workerId, rooms: w.rooms });
  }
  return out;
}

/** Whether the spread between the fullest and the emptiest worker passes the threshold. */
export function imbalanced(counts: readonly number[], threshold: number): boolean {
  if (threshold <= 0 || counts.length < 2) return false;
  return Math.max(...counts) - Math.min(...counts) > threshold;
}

export async function startAutoRebalance(cfg: AutoRebalanceConfig, deps: AutoRebalanceDeps): Promise<AutoRebalancer> {
  const clock = deps.clock ?? systemClock;
  const now = () => clock.now();
  const redis: RedisClient = await connectRedis(deps.redisUrl, (err) =>
    deps.log.warn({ err }, 'auto-rebalance redis error'),
  );
  const key = `joke:${deps.namespace ? `${deps.namespace}:` : ''}mm:rebalance-leader`;
  const leaseMs = cfg.intervalMs * 3;
  const firstSeen = new Map<string, number>();
  const registers = deps.registry ? [deps.registry] : [];
  const leaderGauge = new Gauge({
    name: 'joke_matchmaker_rebalance_leader',
    help: '1 on the replica holding the rebalance lease',
    registers,
  });
  const moved = new Counter({
    name: 'joke_matchmaker_auto_rebalance_moved_total',
    help: 'Tables moved by automatic rebalancing',
    registers,
  });
  if (deps.registry) aliasPrefix(deps.registry, 'joke_matchmaker_', 'joke_mm_');
  let leader = false;
  let inFlight: Promise<wire.RebalanceReply | null> | null = null;
  let closed = false;
  /** After a round that could move nothing (finished tables linger in heartbeats, targets refuse), wait a while. */
  let quietUntil = 0;

  async function lead(): Promise<boolean> {
    try {
      leader = (await redis.eval(ACQUIRE, { keys: [key], arguments: [deps.matchmakerId, String(leaseMs)] })) === 1;
    } catch (err) {
      deps.log.warn({ err }, 'rebalance lease check failed');
      leader = false;
    }
    leaderGauge.set(leader ? 1 : 0);
    return leader;
  }

  async function roundOnce(): Promise<wire.RebalanceReply | null> {
    if (closed || !(await lead()) || now() < quietUntil) return null;
    const settled = settledWorkers(deps.liveWorkers(), firstSeen, now(), cfg.settleMs);
    // Heartbeat counts decide whether a round is due; only then are the leases read for the room ids.
    if (
      !imbalanced(
        settled.map((w) => w.rooms),
        cfg.threshold,
      )
    )
      return null;
    const loads: WorkerLoad[] = await Promise.all(
      settled.map(async (w) => ({ workerId: w.workerId, roomIds: await deps.roomsOf(w.workerId) })),
    );
    if (
      !imbalanced(
        loads.map((w) => w.roomIds.length),
        cfg.threshold,
      )
    )
      return null;
    if (planRebalance(loads, cfg.maxMoves).length === 0) return null;
    const report = await rebalance(
      { bus: deps.bus, log: deps.log, liveWorkers: async () => loads },
      { v: PROTOCOL_VERSION, maxMoves: cfg.maxMoves, dryRun: false },
    );
    moved.inc(report.moved);
    if (report.moved === 0) quietUntil = now() + cfg.intervalMs * 10;
    deps.log.info({ moved: report.moved, stayed: report.stayed, after: report.after }, 'automatic rebalance round');
    return report;
  }

  const round = (): Promise<wire.RebalanceReply | null> => {
    // One round at a time: a slow migration delays the next round instead of overlapping it.
    if (!inFlight)
      inFlight = roundOnce().finally(() => {
        inFlight = null;
      });
    return inFlight;
  };

  const timer = cfg.threshold > 0 ? clock.setInterval(() => void round(), cfg.intervalMs) : null;
  if (timer) unrefTimer(timer);
  return {
    isLeader: () => leader,
    round,
    async close() {
      if (closed) return;
      closed = true;
      clock.clearInterval(timer);
      await inFlight;
      try {
        if (leader) await redis.eval(RELEASE, { keys: [key], arguments: [deps.matchmakerId] });
      } finally {
        leaderGauge.set(0);
        await redis.close();
      }
    },
  };
}
