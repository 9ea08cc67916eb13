/**
 * A room worker holds rooms in memory and runs their games. It takes rooms
 * only when a matchmaker asks (subjects.workerOpen): `create` starts a new
 * game, `restore` takes a room over from its snapshot at the next lease
 * epoch (crash failover, drains). While it owns a room it serves that room's
 * subjects; when it loses the lease (a write comes back stale) it lets go.
 *
 * Liveness is announced by heartbeats carrying the room list, which is what
 * matchmakers fail over when the heartbeats stop.
 */
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Registry } from 'prom-client';
import type { z } from 'zod';
import { games as engineGames, type AnyGame } from '@joke/engine';
import { bus as wire, subjects, PROTOCOL_VERSION } from '@joke/protocol';
import { createLogger, type Bus, type BusSubscription, type Logger, type SnapshotStore } from '@joke/bus';
import { workerConfig, type WorkerConfig } from './config.ts';
import { createWorkerMetrics } from './metrics.ts';
import { MIGRATION, handOver, migrateRooms, type HandoverDeps, type MigrationHost } from './handover.ts';
import { Room, type RoomData, type RoomHost, type StepRec } from './room.ts';

export interface RoomWorkerDeps {
  bus: Bus;
  store: SnapshotStore;
  /** Defaults to every game of @joke/engine. */
  games?: Record<string, AnyGame>;
  log?: Logger;
  registry?: Registry;
}

export interface DrainReport {
  handedOver: number;
  /** Rooms nobody could take before the timeout: their leases were released for the orphan sweep. */
  released: number;
  ms: number;
}

export interface RoomWorker {
  readonly id: string;
  readonly incarnation: string;
  readonly config: WorkerConfig;
  readonly registry: Registry;
  roomIds(): string[];
  /** Inspection for tests and tools. */
  room(roomId: string): Room | undefined;
  /** Connected and not draining. */
  ready(): boolean;
  /** Stop taking rooms, hand every room to other live workers, then stop. */
  drain(): Promise<DrainReport>;
  /** Hand chosen rooms to another worker while their players keep playing (subjects.workerMigrate). */
  migrate(req: wire.MigrateRequest): Promise<wire.MigrateReply>;
  /** Stop at once without handing over (leases lapse; matchmakers fail the rooms over). */
  close(): Promise<void>;
}

const REASONS = {
  draining: '이 서버는 종료 중이에요',
  full: '이 서버에 방이 가득 찼어요',
  unknownGame: '알 수 없는 게임이에요',
  players: '참가 인원이 이 게임에 맞지 않아요',
  duplicateSeat: '같은 참가자가 두 번 들어 있어요',
  exists: '이미 있는 방이에요',
  noSnapshot: '방 정보를 찾을 수 없어요',
} as const;

export async function startRoomWorker(config: Partial<WorkerConfig>, deps: RoomWorkerDeps): Promise<RoomWorker> {
  const cfg = workerConfig.resolve(config);
  const { bus, store } = deps;
  const games = deps.games ?? engineGames;
  const log = (deps.log ?? createLogger('room-worker', cfg.logLevel)).child({ workerId: cfg.workerId });
  const metrics = createWorkerMetrics(deps.registry);
  const incarnation = randomBytes(8).toString('hex');
  const rooms = new Map<string, Room>();
  const opening = new Map<string, Promise<string>>();
  const gatewaysSeen = new Map<string, number>();
  let draining = false;
  let closed = false;
  let transitionsSinceBeat = 0;

  const host: RoomHost = {
    bus,
    store,
    cfg,
    metrics,
    log,
    workerId: cfg.workerId,
    onGone(room) {
      if (rooms.get(room.id) === room) rooms.delete(room.id);
      metrics.rooms.set(rooms.size);
    },
    onFinished(room) {
      try {
        bus.publish(subjects.roomFinished, room.finishedMessage());
      } catch (err) {
        metrics.errors.inc({ kind: 'bus' });
        log.error({ err, roomId: room.id }, 'could not publish RoomFinished');
      }
    },
    onTransition() {
      transitionsSinceBeat++;
    },
    gatewaySeen(gatewayId) {
      gatewaysSeen.set(gatewayId, Date.now());
    },
  };

  const handoverDeps: HandoverDeps = { bus, workerId: cfg.workerId, metrics, log };
  const migrationHost: MigrationHost = {
    ...handoverDeps,
    store,
    room: (id) => rooms.get(id),
    refusal: (to) => (draining || closed ? REASONS.draining : to === cfg.workerId ? MIGRATION.same : null),
    reopen: async (id) => (JSON.parse(await restore(id).catch(() => fail(REASONS.noSnapshot))) as { ok: boolean }).ok,
    // Matchmakers and gateways learn the new homes now, not half a beat later.
    announce: () => heartbeat(),
  };
  const migrate = (req: wire.MigrateRequest) => migrateRooms(migrationHost, req);

  const adopt = (room: Room): void => {
    rooms.set(room.id, room);
    metrics.rooms.set(rooms.size);
    for (const g of room.gateways()) if (!gatewaysSeen.has(g)) gatewaysSeen.set(g, Date.now());
  };

  async function create(spec: wire.RoomSpec): Promise<string> {
    const game = games[spec.game];
    if (!game) return fail(REASONS.unknownGame);
    const parsed = game.optionsSchema.safeParse(spec.options);
    if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? '옵션이 올바르지 않아요');
    const options = parsed.data as Record<string, unknown> & { mode: string };
    const range = game.playerRange(options);
    if (spec.players.length < range.min || spec.players.length > range.max) return fail(REASONS.players);
    if (new Set(spec.players.map((p) => p.id)).size !== spec.players.length) return fail(REASONS.duplicateSeat);
    const now = Date.now();
    const state = game.setup({
      seed: randomBytes(32).toString('hex'),
      players: spec.players.map((p) => ({ id: p.id, name: p.name })),
      options,
      now,
    });
    const data: RoomData = {
      v: 1,
      roomId: spec.roomId,
      game: spec.game,
      mode: String(options.mode),
      options,
      startedAt: now,
      state,
      // Nobody has joined yet: every human seat counts as disconnected from the start.
      seats: spec.players.map((p) => ({
        id: p.id,
        name: p.name,
        bot: p.bot,
        away: false,
        timeouts: 0,
        disconnectedSince: p.bot ? null : now,
      })),
      viewers: [],
      finishedAt: null,
      finishedPublished: false,
      ...(spec.chat ? { chat: spec.chat } : {}),
    };
    const room = new Room(host, game, data, 1, 0, []);
    const r = await store.createRoom(
      spec.roomId,
      cfg.workerId,
      { seq: 0, data: JSON.stringify(data), steps: [] },
      cfg.leaseTtlMs,
    );
    if (!r.ok) return fail(REASONS.exists);
    adopt(room);
    room.subscribe();
    room.start();
    log.debug({ roomId: spec.roomId, game: spec.game }, 'room created');
    return JSON.stringify({ ok: true, epoch: 1, seq: 0 });
  }

  async function restore(roomId: string): Promise<string> {
    const acq = await store.acquire(roomId, cfg.workerId, cfg.leaseTtlMs);
    if (!acq) return fail(REASONS.noSnapshot);
    const data = JSON.parse(acq.room.data) as RoomData;
    const game = games[data.game];
    if (!game || data.roomId !== roomId) {
      await store.release(roomId, cfg.workerId, acq.epoch);
      return fail(REASONS.unknownGame);
    }
    // The engine checks the state before it is trusted (zod shape, rules version; older shapes migrated).
    const checked = game.restoreState?.(data.state) ?? { ok: true as const, state: data.state };
    if (!checked.ok) {
      await store.release(roomId, cfg.workerId, acq.epoch);
      return fail(checked.reason);
    }
    data.state = checked.state;
    const steps = acq.room.steps.map((s) => JSON.parse(s) as StepRec);
    const room = new Room(host, game, data, acq.epoch, acq.room.seq, steps);
    adopt(room);
    room.subscribe();
    room.start();
    // A view may have been lost with the previous owner between its write and its publish.
    room.republish();
    metrics.restores.inc();
    log.info({ roomId, epoch: acq.epoch, seq: acq.room.seq }, 'room restored');
    return JSON.stringify({ ok: true, epoch: acq.epoch, seq: acq.room.seq });
  }

  async function open(req: z.infer<typeof wire.OpenRoomRequest>): Promise<string> {
    const have = rooms.get(req.roomId);
    // Idempotent: a retried open (or two matchmakers agreeing) finds the room already here.
    if (have && !have.closed) return JSON.stringify({ ok: true, epoch: have.epoch, seq: have.seq });
    if (draining || closed) return fail(REASONS.draining);
    if (req.create) {
      if (rooms.size >= cfg.maxRooms) return fail(REASONS.full);
      return create(req.create);
    }
    if (req.restore) return restore(req.roomId);
    return fail('create 또는 restore가 필요해요');
  }

  const subs: BusSubscription[] = [
    bus.subscribe(subjects.workerOpen(cfg.workerId), (m) => {
      if (!m.respond) return;
      const p = wire.OpenRoomRequest.safeParse(safeJson(m.data));
      if (!p.success) return m.respond(fail('잘못된 요청이에요'));
      if (p.data.create && p.data.create.roomId !== p.data.roomId) return m.respond(fail('잘못된 요청이에요'));
      let job = opening.get(p.data.roomId);
      if (!job) {
        job = open(p.data).catch((err) => {
          metrics.errors.inc({ kind: 'store' });
          log.error({ err, roomId: p.data.roomId }, 'open failed');
          return fail(String((err as Error)?.message ?? err));
        });
        opening.set(p.data.roomId, job);
        void job.finally(() => opening.delete(p.data.roomId));
      }
      void job.then((reply) => m.respond!(reply));
    }),
    bus.subscribe(subjects.workerMigrate(cfg.workerId), (m) => {
      if (!m.respond) return;
      const p = wire.MigrateRequest.safeParse(safeJson(m.data));
      if (!p.success) return m.respond(fail('잘못된 요청이에요'));
      void migrate(p.data).then(
        (reply) => m.respond!(JSON.stringify(reply)),
        (err) => {
          log.error({ err }, 'migration failed');
          m.respond!(fail(String((err as Error)?.message ?? err)));
        },
      );
    }),
    bus.subscribe(subjects.gatewayHeartbeat, (m) => {
      const hb = safeJson(m.data) as { gatewayId?: unknown } | undefined;
      if (typeof hb?.gatewayId === 'string') gatewaysSeen.set(hb.gatewayId, Date.now());
    }),
  ];

  // ---- heartbeats, lease renewal, dead gateways --------------------------------------------
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  let lastBeat = performance.now();
  const heartbeat = (): void => {
    const now = performance.now();
    const secs = Math.max((now - lastBeat) / 1000, 1e-3);
    lastBeat = now;
    const loopLagMs = Math.round((lag.percentile(99) / 1e6) * 10) / 10;
    lag.reset();
    metrics.loopLag.set(loopLagMs);
    const hb: wire.WorkerHeartbeat = {
      v: PROTOCOL_VERSION,
      workerId: cfg.workerId,
      shard: cfg.shard,
      rooms: rooms.size,
      roomIds: [...rooms.keys()],
      actionsPerSec: Math.round(transitionsSinceBeat / secs),
      loopLagMs,
      draining,
      at: Date.now(),
      incarnation,
    };
    transitionsSinceBeat = 0;
    try {
      bus.publish(subjects.workerHeartbeat, JSON.stringify(hb));
    } catch (err) {
      metrics.errors.inc({ kind: 'bus' });
      log.warn({ err }, 'heartbeat publish failed');
    }
  };
  // Announce ourselves only once the server has our subscriptions: a matchmaker acting on the
  // first heartbeat must not find "no responders" on our open subject.
  await bus.flush?.();
  const beatTimer = setInterval(heartbeat, cfg.heartbeatMs);
  heartbeat();

  let renewing = false;
  const renewTimer = setInterval(
    async () => {
      if (renewing) return;
      renewing = true;
      try {
        const cutoff = Date.now() - cfg.leaseRenewMs;
        const due = [...rooms.values()].filter((r) => !r.closed && r.lastWriteAt < cutoff);
        if (due.length === 0) return;
        const lost = await store.renew(
          cfg.workerId,
          due.map((r) => ({ roomId: r.id, epoch: r.epoch })),
          cfg.leaseTtlMs,
        );
        const now = Date.now();
        for (const r of due) r.lastWriteAt = now;
        for (const id of lost) {
          log.warn({ roomId: id }, 'lease lost; letting the room go');
          metrics.errors.inc({ kind: 'stale' });
          rooms.get(id)?.close();
        }
      } catch (err) {
        metrics.errors.inc({ kind: 'store' });
        log.warn({ err }, 'lease renewal failed');
      } finally {
        renewing = false;
      }
    },
    Math.max(50, Math.floor(cfg.leaseRenewMs / 2)),
  );

  const gatewayTimer = setInterval(
    () => {
      const cutoff = Date.now() - cfg.gatewayDeadAfterMs;
      for (const [g, t] of gatewaysSeen) {
        if (t >= cutoff) continue;
        gatewaysSeen.delete(g);
        log.info({ gatewayId: g }, 'gateway silent; removing its viewers');
        for (const r of rooms.values()) r.gatewayGone(g);
      }
    },
    Math.max(50, Math.floor(cfg.gatewayDeadAfterMs / 4)),
  );

  const stopTimers = (): void => {
    clearInterval(beatTimer);
    clearInterval(renewTimer);
    clearInterval(gatewayTimer);
    lag.disable();
  };

  async function drain(): Promise<DrainReport> {
    const t0 = Date.now();
    draining = true;
    heartbeat();
    const leaving = [...rooms.values()];
    const released: wire.RoomsReleased = {
      v: PROTOCOL_VERSION,
      workerId: cfg.workerId,
      roomIds: leaving.map((r) => r.id),
      incarnation,
    };
    try {
      bus.publish(subjects.workerDraining, JSON.stringify(released));
    } catch (err) {
      log.warn({ err }, 'draining announcement failed');
    }
    log.info({ rooms: leaving.length }, 'draining: handing rooms over');
    const deadline = Date.now() + cfg.drainTimeoutMs;
    let handedOver = 0;
    // Finished rooms whose record is out need no new home; the rest move in chunks.
    let todo: Room[] = [];
    for (const r of leaving) {
      if (r.finished && r.data.finishedPublished) {
        await r.pause();
        r.close();
        await store.drop(r.id, r.epoch).catch(() => {});
      } else todo.push(r);
    }
    while (todo.length > 0 && Date.now() < deadline) {
      const r = await handOver(handoverDeps, todo, {
        reason: 'drain',
        timeoutMs: clamp(deadline - Date.now(), 1000, 10_000),
      });
      handedOver += r.placed.length;
      todo = r.failed;
      if (todo.length > 0) await new Promise((res) => setTimeout(res, 250));
    }
    // Nobody could take these: end our leases now so the orphan sweep can place them as soon as a worker appears.
    for (const r of todo) await store.release(r.id, cfg.workerId, r.epoch).catch(() => false);
    const report = { handedOver, released: todo.length, ms: Date.now() - t0 };
    log.info(report, 'drained');
    // The last heartbeat lists only rooms still here (none, or the released ones), so when it
    // goes silent matchmakers fail over nothing that already has a new owner.
    heartbeat();
    await close();
    return report;
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    stopTimers();
    for (const r of [...rooms.values()]) r.close();
    for (const s of subs) s.unsubscribe();
    await Promise.allSettled([...opening.values()]);
  }

  return {
    id: cfg.workerId,
    incarnation,
    config: cfg,
    registry: metrics.registry,
    roomIds: () => [...rooms.keys()],
    room: (id) => rooms.get(id),
    ready: () => !draining && !closed,
    drain,
    migrate,
    close,
  };
}

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

function fail(reason: string): string {
  return JSON.stringify({ ok: false, reason });
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
