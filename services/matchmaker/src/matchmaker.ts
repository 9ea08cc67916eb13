/**
 * The matchmaker places rooms on room workers and moves them when a worker
 * dies or drains. It keeps no state of its own: the live worker set comes
 * from heartbeats every replica hears, quick-match queues live in the match
 * store (Redis), and who runs a room is the room's lease in the snapshot
 * store. Any number of replicas can run; requests reach one of them through
 * the `mm` queue group, and they all give the same answers.
 *
 * Failover: when a worker's heartbeats stop (or it comes back as a new
 * incarnation), one replica wins a one-shot claim for that death and asks
 * live workers to restore each of its rooms; restoring takes the lease at the
 * next epoch, which fences the old owner out even if it was not dead after all.
 * Two replicas racing past the claim (e.g. the claim expired) would at worst
 * restore a room twice: the second acquisition fences the first restorer,
 * which drops the room on its next write, so no transition is lost or doubled.
 */
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { randomBytes } from 'node:crypto';
import { Registry } from 'prom-client';
import type { z } from 'zod';
import { games as engineGames, type AnyGame } from '@joke/engine';
import { bus as wire, subjects, PROTOCOL_VERSION, QUEUE_GROUPS } from '@joke/protocol';
import {
  BusTimeoutError,
  createLogger,
  type Bus,
  type BusSubscription,
  type Logger,
  type MatchStore,
  type SnapshotStore,
} from '@joke/bus';
import { matchmakerConfig, type MatchmakerConfig } from './config.ts';
import { createMatchmakerMetrics } from './metrics.ts';
import { rank } from './placement.ts';
import { pool, safeJson } from './util.ts';
import { rebalance } from './rebalance.ts';

export interface MatchmakerDeps {
  bus: Bus;
  snapshots: SnapshotStore;
  match: MatchStore;
  games?: Record<string, AnyGame>;
  log?: Logger;
  registry?: Registry;
  /**
   * Counts quick-match requests per user (issue 10). Default: in this replica's memory,
   * QUEUE_RATE_PER_USER per minute; pass a RateLimiterRedis to share one count between replicas.
   */
  queueLimiter?: RateLimiterAbstract | null;
}

export interface LiveWorker {
  workerId: string;
  shard: number;
  incarnation: string;
  rooms: number;
  roomIds: Set<string>;
  draining: boolean;
  seenAt: number;
  loopLagMs: number;
  actionsPerSec: number;
}

export interface FailoverReport {
  workerId: string;
  rooms: number;
  restored: number;
  failed: number;
  ms: number;
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

type OpenResult = { ok: true; workerId: string; shard: number } | { ok: false; reason: string };

const R = {
  noWorkers: '지금은 게임 서버가 없어요. 잠시 후 다시 시도해 주세요',
  unknownGame: '알 수 없는 게임이에요',
  players: '참가 인원이 이 게임에 맞지 않아요',
  bad: '잘못된 요청이에요',
  tooMany: '빠른 대전 요청이 너무 많아요. 잠시 후 다시 시도해 주세요',
} as const;

export async function startMatchmaker(config: Partial<MatchmakerConfig>, deps: MatchmakerDeps): Promise<Matchmaker> {
  const cfg = matchmakerConfig.resolve(config);
  const { bus, snapshots, match } = deps;
  const games = deps.games ?? engineGames;
  const log = (deps.log ?? createLogger('matchmaker', cfg.logLevel)).child({ matchmakerId: cfg.matchmakerId });
  const registry = deps.registry ?? new Registry();
  const m = createMatchmakerMetrics(registry);
  const queueLimiter =
    deps.queueLimiter !== undefined
      ? deps.queueLimiter
      : cfg.queueRatePerUser > 0
        ? new RateLimiterMemory({ points: cfg.queueRatePerUser, duration: 60 })
        : null;
  const workers = new Map<string, LiveWorker>();
  const failoverListeners: ((r: FailoverReport) => void)[] = [];
  let closed = false;

  const candidates = (exclude?: string) =>
    [...workers.values()]
      .filter((w) => !w.draining && w.workerId !== exclude)
      .map((w) => ({ workerId: w.workerId, rooms: w.rooms }));
  const rankFor = (roomId: string, exclude?: string) =>
    rank(roomId, candidates(exclude), cfg.capacityRooms, cfg.loadLevels);

  async function openOn(
    workerId: string,
    req: z.infer<typeof wire.OpenRoomRequest>,
  ): Promise<{ ok: boolean; reason?: string; timeout?: boolean }> {
    try {
      return JSON.parse(await bus.request(subjects.workerOpen(workerId), JSON.stringify(req), cfg.openTimeoutMs));
    } catch (err) {
      if (!(err instanceof BusTimeoutError)) m.errors.inc({ kind: 'bus' });
      return { ok: false, reason: String((err as Error).message), timeout: true };
    }
  }

  /** Tries workers best first; a timeout or refusal moves on to the next. */
  async function place(
    roomId: string,
    req: z.infer<typeof wire.OpenRoomRequest>,
    exclude?: string,
  ): Promise<OpenResult> {
    const order = rankFor(roomId, exclude);
    if (order.length === 0) return { ok: false, reason: R.noWorkers };
    let timedOut = false;
    let last = R.noWorkers as string;
    for (const workerId of order.slice(0, 4)) {
      const r = await openOn(workerId, req);
      if (r.ok) {
        m.placed.inc({ kind: req.create ? 'create' : 'restore' });
        return { ok: true, workerId, shard: workers.get(workerId)?.shard ?? -1 };
      }
      if (r.timeout) timedOut = true;
      last = r.reason ?? last;
      // An earlier worker that timed out may have opened it after all: the lease says who runs it.
      if (timedOut && req.create) {
        const lease = await snapshots.lease(roomId).catch(() => null);
        if (lease) return { ok: true, workerId: lease.owner, shard: workers.get(lease.owner)?.shard ?? -1 };
      }
      if (!r.timeout && (r.reason === '이미 있는 방이에요' || r.reason === '방 정보를 찾을 수 없어요')) break;
    }
    return { ok: false, reason: last };
  }

  // ---- heartbeats and failover ----------------------------------------------------------------

  const liveElsewhere = (roomId: string, except: string): boolean => {
    for (const w of workers.values()) if (w.workerId !== except && w.roomIds.has(roomId)) return true;
    return false;
  };

  async function failover(dead: LiveWorker, why: string): Promise<void> {
    const t0 = performance.now();
    const claimKey = `failover:${dead.workerId}:${dead.incarnation}`;
    let won = false;
    try {
      won = await match.claim(claimKey, cfg.matchmakerId, 60_000);
    } catch (err) {
      m.errors.inc({ kind: 'store' });
      log.error({ err }, 'failover claim failed; the orphan sweep will cover these rooms');
    }
    if (!won) return;
    m.failovers.inc();
    // What the dead worker ran: its last heartbeat, plus what the store says it still holds
    // (rooms opened after that heartbeat). Rooms a live worker already lists are not touched.
    const ids = new Set(dead.roomIds);
    try {
      for (const id of await snapshots.ownedBy(dead.workerId, 1_000_000)) ids.add(id);
    } catch (err) {
      m.errors.inc({ kind: 'store' });
      log.warn({ err }, 'could not list the dead worker leases; using its heartbeat only');
    }
    const todo = [...ids].filter((id) => !liveElsewhere(id, dead.workerId));
    log.warn({ deadWorker: dead.workerId, why, rooms: todo.length }, 'worker gone: failing its rooms over');
    let restored = 0;
    let failed = 0;
    await pool(todo, cfg.failoverConcurrency, async (roomId) => {
      const lease = await snapshots.lease(roomId).catch(() => null);
      // Someone else holds it (handed over in a drain, or restored already): not ours to move.
      if (lease && lease.owner !== dead.workerId) return;
      const r = await place(roomId, { v: 1, roomId, restore: true }, dead.workerId);
      if (r.ok) restored++;
      else {
        failed++;
        log.warn({ roomId, reason: r.reason }, 'failover of a room failed; the orphan sweep retries');
      }
    });
    const report = { workerId: dead.workerId, rooms: todo.length, restored, failed, ms: performance.now() - t0 };
    m.failoverSeconds.observe(report.ms / 1000);
    log.info(report, 'failover done');
    for (const l of failoverListeners) l(report);
  }

  const onHeartbeat = (data: string): void => {
    let hb: wire.WorkerHeartbeat;
    try {
      hb = wire.WorkerHeartbeat.parse(JSON.parse(data));
    } catch {
      m.errors.inc({ kind: 'bad-heartbeat' });
      return;
    }
    const incarnation = hb.incarnation ?? '';
    const prev = workers.get(hb.workerId);
    const next: LiveWorker = {
      workerId: hb.workerId,
      shard: hb.shard,
      incarnation,
      rooms: hb.rooms,
      roomIds: new Set(hb.roomIds),
      draining: hb.draining,
      seenAt: Date.now(),
      loopLagMs: hb.loopLagMs,
      actionsPerSec: hb.actionsPerSec,
    };
    workers.set(hb.workerId, next);
    if (prev && prev.incarnation !== incarnation) {
      // Restarted under the same id: whatever the old process ran is gone with it.
      const gone = { ...prev, roomIds: new Set([...prev.roomIds].filter((id) => !next.roomIds.has(id))) };
      void failover(gone, 'restarted');
    }
    m.live.set(candidates().length);
  };

  const deadTimer = setInterval(() => {
    const cutoff = Date.now() - cfg.deadAfterMs;
    for (const w of [...workers.values()]) {
      if (w.seenAt >= cutoff) continue;
      workers.delete(w.workerId);
      m.live.set(candidates().length);
      void failover(w, 'heartbeat timeout');
    }
  }, cfg.deadCheckMs);

  // Safety net: a room whose lease lapsed is run by nobody (e.g. every matchmaker was down when its worker died).
  let sweeping = false;
  const sweepTimer = setInterval(async () => {
    if (sweeping || closed) return;
    sweeping = true;
    try {
      if (candidates().length === 0) return;
      if (!(await match.claim('orphan-sweep', cfg.matchmakerId, Math.floor(cfg.orphanSweepMs * 0.8)))) return;
      const orphans = await snapshots.orphans(5_000);
      if (orphans.length === 0) return;
      log.warn({ rooms: orphans.length }, 'orphaned rooms found; placing them');
      await pool(orphans, cfg.failoverConcurrency, async (roomId) => {
        const r = await place(roomId, { v: 1, roomId, restore: true });
        if (!r.ok) log.warn({ roomId, reason: r.reason }, 'orphan placement failed');
      });
    } catch (err) {
      m.errors.inc({ kind: 'store' });
      log.warn({ err }, 'orphan sweep failed');
    } finally {
      sweeping = false;
    }
  }, cfg.orphanSweepMs);

  // ---- requests --------------------------------------------------------------------------------

  const reply = (respond: ((d: string) => void) | undefined, body: unknown) => respond?.(JSON.stringify(body));
  const subs: BusSubscription[] = [
    bus.subscribe(subjects.workerHeartbeat, (msg) => onHeartbeat(msg.data)),
    bus.subscribe(subjects.workerDraining, (msg) => {
      const p = wire.RoomsReleased.safeParse(safeJson(msg.data));
      const w = p.success ? workers.get(p.data.workerId) : undefined;
      if (w) w.draining = true;
      m.live.set(candidates().length);
    }),
    bus.subscribe(
      subjects.createRoom,
      (msg) => {
        const p = wire.CreateRoomRequest.safeParse(safeJson(msg.data));
        if (!p.success) return reply(msg.respond, { ok: false, reason: R.bad });
        const room = p.data.room;
        void place(room.roomId, { v: 1, roomId: room.roomId, create: room }).then((r) => reply(msg.respond, r));
      },
      { queue: QUEUE_GROUPS.matchmaker },
    ),
    bus.subscribe(
      subjects.reassign,
      (msg) => {
        const p = wire.ReassignRequest.safeParse(safeJson(msg.data));
        if (!p.success) return reply(msg.respond, { placed: [], failed: [] });
        const { fromWorkerId, roomIds, toWorkerId } = p.data;
        const out: wire.ReassignReply = { placed: [], failed: [] };
        const target = toWorkerId ? workers.get(toWorkerId) : undefined;
        void pool(roomIds, cfg.failoverConcurrency, async (roomId) => {
          const req = { v: 1 as const, roomId, restore: true };
          // A live migration names its target; if that worker refuses, the table still needs a home.
          if (
            target &&
            !target.draining &&
            target.workerId !== fromWorkerId &&
            (await openOn(target.workerId, req)).ok
          ) {
            m.placed.inc({ kind: 'restore' });
            out.placed.push({ roomId, workerId: target.workerId });
            return;
          }
          const r = await place(roomId, req, fromWorkerId);
          if (r.ok) out.placed.push({ roomId, workerId: r.workerId });
          else out.failed.push(roomId);
        }).then(() => reply(msg.respond, out));
      },
      { queue: QUEUE_GROUPS.matchmaker },
    ),
    bus.subscribe(subjects.queue, (msg) => void onQueue(msg.data, msg.respond), { queue: QUEUE_GROUPS.matchmaker }),
    bus.subscribe(
      subjects.rebalance,
      (msg) => {
        const p = wire.RebalanceRequest.safeParse(safeJson(msg.data));
        if (!p.success) return reply(msg.respond, { ok: false, reason: R.bad });
        const liveWorkers = () =>
          [...workers.values()]
            .filter((w) => !w.draining)
            .map((w) => ({ workerId: w.workerId, roomIds: [...w.roomIds] }));
        void rebalance({ bus, log, liveWorkers }, p.data).then((r) => reply(msg.respond, r));
      },
      { queue: QUEUE_GROUPS.matchmaker },
    ),
  ];

  async function onQueue(data: string, respond?: (d: string) => void): Promise<void> {
    const p = wire.QueueRequest.safeParse(safeJson(data));
    if (!p.success) return reply(respond, { ok: false, reason: R.bad });
    const q = p.data;
    try {
      if (q.cancel) {
        await match.dequeue(q.userId);
        return reply(respond, { ok: true });
      }
      if (queueLimiter) {
        const allowed = await queueLimiter.consume(q.userId).then(
          () => true,
          (e: unknown) => {
            if (e instanceof RateLimiterRes) return false;
            throw e;
          },
        );
        if (!allowed) return reply(respond, { ok: false, reason: R.tooMany });
      }
      // A client's string: `games['__proto__']` would be Object.prototype, not "no such game".
      const game = Object.hasOwn(games, q.game) ? games[q.game] : undefined;
      if (!game) return reply(respond, { ok: false, reason: R.unknownGame });
      const parsed = game.optionsSchema.safeParse({ mode: q.mode });
      if (!parsed.success) return reply(respond, { ok: false, reason: parsed.error.issues[0]?.message ?? R.bad });
      const range = game.playerRange(parsed.data);
      if (q.players < range.min || q.players > range.max) return reply(respond, { ok: false, reason: R.players });
      const key = `${q.game}:${q.mode}:${q.players}`;
      const table = await match.enqueue(
        key,
        { userId: q.userId, name: q.name, gatewayId: q.gatewayId, at: Date.now() },
        q.players,
        cfg.queueStaleMs,
      );
      // Answer first, so the client hears "queued" before any "matched".
      reply(respond, { ok: true });
      if (!table) return;
      const roomId = `q${randomBytes(9).toString('base64url')}`;
      const room: wire.RoomSpec = {
        roomId,
        game: q.game,
        options: { mode: q.mode },
        players: table.map((e) => ({ id: e.userId, name: e.name, bot: false })),
      };
      const r = await place(roomId, { v: 1, roomId, create: room });
      if (!r.ok) {
        log.warn({ key, reason: r.reason }, 'quick-match table could not start; back in the queue');
        await match.requeue(key, table, cfg.queueStaleMs);
        return;
      }
      m.matched.inc();
      for (const e of table)
        bus.publish(
          subjects.gatewayMatched(e.gatewayId),
          JSON.stringify({ v: PROTOCOL_VERSION, userId: e.userId, roomId, game: q.game, mode: q.mode }),
        );
    } catch (err) {
      m.errors.inc({ kind: 'store' });
      log.error({ err }, 'queue request failed');
      reply(respond, { ok: false, reason: R.noWorkers });
    }
  }

  await bus.flush?.();
  return {
    id: cfg.matchmakerId,
    config: cfg,
    registry,
    liveWorkers: () => [...workers.values()],
    rank: rankFor,
    ready: () => !closed,
    onFailover: (cb) => void failoverListeners.push(cb),
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(deadTimer);
      clearInterval(sweepTimer);
      for (const s of subs) s.unsubscribe();
    },
  };
}
