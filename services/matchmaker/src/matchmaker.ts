/**
 * The matchmaker places rooms on room workers and moves them when a worker
 * dies or drains. It keeps no state of its own: the live worker set comes
 * from heartbeats every replica hears, quick-match queues live in the match
 * store (Redis), and who runs a room is the room's lease in the snapshot
 * store. Any number of replicas can run; requests reach one of them through
 * the `mm` queue group, and they all give the same answers.
 *
 * The parts: `failover.ts` (live workers, failover, orphan sweep), `placer.ts`
 * (opening a room on the best worker), `queues.ts` (quick-match) and
 * `rebalance.ts`; this file wires them to their subjects.
 *
 * Two replicas racing past a failover claim (e.g. the claim expired) would at
 * worst restore a room twice: the second acquisition fences the first
 * restorer, which drops the room on its next write, so no transition is lost
 * or doubled.
 */
import { Registry } from 'prom-client';
import { games as engineGames, type AnyGame } from '@joke/engine';
import { contract, refuse, serve } from '@joke/protocol';
import { type Bus, type BusSubscription } from '@joke/bus';
import { createLogger, type Logger } from '@joke/ops';
import { type MatchStore, type RedisClient, type SnapshotStore } from '@joke/stores';
import { systemClock, type Clock } from '@joke/bus/clock';
import { matchmakerConfig, type MatchmakerConfig } from './config.ts';
import { createMatchmakerMetrics } from './metrics.ts';
import { rank } from './placement.ts';
import { Placer } from './placer.ts';
import { Workers, type FailoverReport, type LiveWorker } from './failover.ts';
import { onQueue, startTable, type QueueHost } from './queues.ts';
import { createQueueBudgets } from './budgets.ts';
import { QueueWatch } from './queue-watch.ts';
import { pool } from './util.ts';
import { rebalance } from './rebalance.ts';

export type { FailoverReport, LiveWorker } from './failover.ts';

export interface MatchmakerDeps {
  bus: Bus;
  snapshots: SnapshotStore;
  match: MatchStore;
  games?: Record<string, AnyGame>;
  log?: Logger;
  registry?: Registry;
  /**
   * Where the quick-match budgets count (budgets.ts): a connected Redis client shares them between
   * replicas (main.ts passes one when REDIS_URL is set); absent or null = this replica's memory.
   */
  budgetRedis?: RedisClient | null;
  /**
   * The time of the matchmaker's own duties: worker probes, heartbeat ages and the dead check, the orphan
   * sweep, queue entry times and the bot fill. Default: the system clock; tests pass a FakeClock. Bus request
   * timeouts (opening a room, a probe's answer) and the stores' TTLs stay on real time.
   */
  clock?: Clock;
}

export interface Matchmaker {
  readonly id: string;
  readonly config: MatchmakerConfig;
  readonly registry: Registry;
  liveWorkers(): LiveWorker[];
  /** Best-first placement for a room among live, non-draining workers (excluding `exclude`). */
  rank(roomId: string, exclude?: string): string[];
  ready(): boolean;
  /** Resolves with each failover this replica carried out (tests, tools). */
  onFailover(cb: (r: FailoverReport) => void): void;
  close(): Promise<void>;
}

export async function startMatchmaker(config: Partial<MatchmakerConfig>, deps: MatchmakerDeps): Promise<Matchmaker> {
  const cfg = matchmakerConfig.resolve(config);
  const { bus, snapshots, match } = deps;
  const games = deps.games ?? engineGames;
  const clock = deps.clock ?? systemClock;
  const log = (deps.log ?? createLogger('matchmaker', cfg.logLevel)).child({ matchmakerId: cfg.matchmakerId });
  const registry = deps.registry ?? new Registry();
  const metrics = createMatchmakerMetrics(registry);
  const budgets = createQueueBudgets(cfg, deps.budgetRedis ?? null);
  let closed = false;

  const rankFor = (roomId: string, exclude?: string, withHeadroom = false): string[] =>
    rank(roomId, workers.candidates(exclude, withHeadroom), cfg.capacityRooms, cfg.loadLevels);
  const placer: Placer = new Placer({
    bus,
    snapshots,
    cfg,
    metrics,
    log,
    clock,
    rank: rankFor,
    shardOf: (id) => workers.live.get(id)?.shard ?? -1,
    hasRoom: () => workers.room.hasRoom(),
    took: (id) => workers.room.took(id),
    reserve: () => workers.room.reserve(),
    release: () => workers.room.release(),
    refusedNew: (id) => workers.room.refusedNew(id),
  });
  const workers: Workers = new Workers({ bus, snapshots, match, cfg, metrics, log, placer, clock });
  const queueBase = { bus, match, games, cfg, metrics, log, placer, budgets, clock };
  const watch = new QueueWatch(queueBase, (key, q, humans, bots) => startTable(queueBase, key, q, humans, bots));
  const queueHost: QueueHost = { ...queueBase, watch };
  const bad = () => refuse('malformed');

  const subs: BusSubscription[] = [
    serve(
      bus,
      contract.createRoom,
      (req, respond) => {
        const room = req.room;
        void placer.place(room.roomId, { v: 1, roomId: room.roomId, create: room }).then(respond);
      },
      bad,
    ),
    serve(
      bus,
      contract.reassign,
      (req, respond) => {
        const { fromWorkerId, roomIds, toWorkerId } = req;
        const out: { placed: { roomId: string; workerId: string }[]; failed: string[] } = { placed: [], failed: [] };
        const target = toWorkerId ? workers.live.get(toWorkerId) : undefined;
        void pool(roomIds, cfg.failoverConcurrency, async (roomId) => {
          const open = { v: 1 as const, roomId, restore: true };
          // A live migration names its target; if that worker refuses, the table still needs a home.
          if (
            target &&
            !target.draining &&
            target.workerId !== fromWorkerId &&
            (await placer.openOn(target.workerId, open)).ok
          ) {
            metrics.placed.inc({ kind: 'restore' });
            out.placed.push({ roomId, workerId: target.workerId });
            return;
          }
          const r = await placer.place(roomId, open, fromWorkerId);
          if (r.ok) out.placed.push({ roomId, workerId: r.workerId });
          else out.failed.push(roomId);
        }).then(() => respond(out));
      },
      () => ({ placed: [], failed: [] }),
    ),
    serve(bus, contract.queue, (req, respond) => void onQueue(queueHost, req, respond), bad),
    serve(
      bus,
      contract.rebalance,
      (req, respond) => {
        // Who holds which room comes from the leases, not from heartbeats (which carry counts only).
        const liveWorkers = async () =>
          Promise.all(
            [...workers.live.values()]
              .filter((w) => !w.draining)
              .map(async (w) => ({ workerId: w.workerId, roomIds: await snapshots.ownedBy(w.workerId, 1_000_000) })),
          );
        void rebalance({ bus, log, liveWorkers }, req).then(respond, (err) => {
          log.warn({ err }, 'rebalance failed');
          respond({ before: {}, planned: 0, moved: 0, stayed: 0, after: {} });
        });
      },
      () => ({ before: {}, planned: 0, moved: 0, stayed: 0, after: {} }),
    ),
  ];

  await bus.flush?.();
  return {
    id: cfg.matchmakerId,
    config: cfg,
    registry,
    liveWorkers: () => [...workers.live.values()],
    rank: rankFor,
    ready: () => !closed,
    onFailover: (cb) => workers.onFailover(cb),
    async close() {
      if (closed) return;
      closed = true;
      workers.close();
      queueHost.watch.close();
      for (const s of subs) s.unsubscribe();
    },
  };
}
