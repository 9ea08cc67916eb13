/**
 * A room worker holds rooms in memory and runs their games. It takes rooms
 * only when a matchmaker asks (subjects.workerOpen): `create` starts a new
 * game, `restore` takes a room over from its snapshot at the next lease
 * epoch (crash failover, drains). While it owns a room it serves that room's
 * subjects; when it loses the lease (a write comes back stale) it lets go.
 *
 * Liveness is announced by heartbeats (a fixed size: no room list); when they
 * stop, matchmakers fail over whatever the store's leases say this worker ran.
 */
import { randomBytes } from 'node:crypto';
import type { Registry } from 'prom-client';
import { games as engineGames, type AnyGame } from '@joke/engine';
import { bus as wire, contract, emit, emitDurable, refuse, serve, PROTOCOL_VERSION } from '@joke/protocol';
import { type Bus, type BusSubscription } from '@joke/bus';
import { createLogger, type Logger } from '@joke/ops';
import { type SnapshotStore } from '@joke/stores';
import { systemClock, type Clock, type Timer } from '@joke/bus/clock';
import { workerConfig, type WorkerConfig } from './config.ts';
import { createWorkerMetrics } from './metrics.ts';
import { handOver, migrateRooms, type HandoverDeps, type MigrationHost } from './handover.ts';
import { openRoom, restoreRoom, type OpenHost } from './open.ts';
import type { Room, RoomHost } from './room.ts';
import type { HostedRoom } from './room-types.ts';
import { Upkeep } from './upkeep.ts';
import { PriorityIntake } from './intake.ts';
import { ReconnectGuard } from './reconnect.ts';
import { reportStoreLost } from './store-loss.ts';

export interface RoomWorkerDeps {
  bus: Bus;
  store: SnapshotStore;
  /** Defaults to every game of @joke/engine. */
  games?: Record<string, AnyGame>;
  log?: Logger;
  registry?: Registry;
  /** Time of every timer the worker sets itself (rooms, upkeep, retries, drain); tests pass a FakeClock. */
  clock?: Clock;
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

export async function startRoomWorker(config: Partial<WorkerConfig>, deps: RoomWorkerDeps): Promise<RoomWorker> {
  const cfg = workerConfig.resolve(config);
  const { bus, store } = deps;
  const games = deps.games ?? engineGames;
  const log = (deps.log ?? createLogger('room-worker', cfg.logLevel)).child({ workerId: cfg.workerId });
  const metrics = createWorkerMetrics(deps.registry);
  const clock = deps.clock ?? systemClock;
  const incarnation = randomBytes(8).toString('hex');
  const rooms = new Map<string, Room>();
  const opening = new Map<string, Promise<wire.OpenRoomReply>>();
  let draining = false;
  let closed = false;
  const intake = new PriorityIntake(
    {
      deferQueued: cfg.intakeDeferQueued,
      deferLagMs: cfg.intakeDeferLagMs,
      deferMax: cfg.intakeDeferMax,
      deferWaitMs: cfg.intakeDeferWaitMs,
    },
    clock,
    { deferred: (kind, outcome) => metrics.intakeDeferred.inc({ kind, outcome }) },
  );

  const upkeep = new Upkeep({
    bus,
    store,
    cfg,
    metrics,
    log,
    clock,
    incarnation,
    rooms,
    intake,
    draining: () => draining,
  });
  const reconnect = new ReconnectGuard({ bus, log, clock, rooms, upkeep, closed: () => closed });

  const host: RoomHost = {
    bus,
    store,
    cfg,
    metrics,
    log,
    clock,
    workerId: cfg.workerId,
    owner: `${cfg.workerId}/${incarnation}`,
    onGone(room) {
      if (rooms.get(room.id) === room) rooms.delete(room.id);
      metrics.rooms.set(rooms.size);
    },
    // Durable (JetStream): retried until stored, under one id so a retry is never a second game.
    onFinished: (room) =>
      durably(`finished:${room.id}`, (id) => emitDurable(bus, contract.roomFinished, room.finishedMessage(), id)),
    // The lobby unseats them (lobby departures.ts); durable for the same reason as RoomFinished.
    onDeparture: (room, d, id) =>
      durably(id, (mid) =>
        emitDurable(
          bus,
          contract.playerLeft,
          { v: 1, roomId: room.id, userId: d.userId, reason: d.reason, at: d.at },
          mid,
        ),
      ),
    onClosedForGood: (room) => void closedForGood(room),
    onStoreLost: (room) => reportStoreLost({ bus, log, metrics, clock }, room),
    onTransition: () => upkeep.transition(),
    gatewaySeen: (gatewayId) => upkeep.gatewaySeen(gatewayId),
    intake,
  };

  /** Publishes a durable fact (`send`), retrying until the stream stored it (or this worker stops). */
  async function durably(id: string, send: (id: string) => Promise<void>): Promise<void> {
    for (let attempt = 0; !closed; attempt++) {
      try {
        await send(id);
        return;
      } catch (err) {
        metrics.errors.inc({ kind: 'bus' });
        if (attempt % 10 === 0) log.error({ err, id, attempt }, 'could not publish a durable fact; retrying');
        await clock.sleep(Math.min(100 * 2 ** attempt, 5_000));
      }
    }
  }
  // The lobby frees its lobby room on this, once it has recorded the game (lobby closed.ts).
  const closedForGood = (room: HostedRoom) =>
    durably(`closed:${room.id}`, (id) =>
      emitDurable(bus, contract.roomClosed, { v: 1, roomId: room.id, finished: room.finished, at: clock.now() }, id),
    );

  const openHost: OpenHost = {
    cfg,
    store,
    games,
    room: host,
    rooms,
    refusing: () => draining || closed,
    headroom: () => upkeep.headroom,
    tookRoom: () => upkeep.took(),
    adopt(room) {
      rooms.set(room.id, room);
      reconnect.adopted(room);
      metrics.rooms.set(rooms.size);
      upkeep.gatewaysKnown(room.gateways());
    },
    restored(roomId, epoch, seq, took) {
      metrics.restores.inc();
      log.info({ roomId, epoch, seq, storeMs: Math.round(took.storeMs), ms: Math.round(took.ms) }, 'room restored');
    },
  };

  const handoverDeps: HandoverDeps = { bus, workerId: cfg.workerId, metrics, log };
  const migrationHost: MigrationHost = {
    ...handoverDeps,
    store,
    room: (id) => rooms.get(id),
    refusal: (to) => (draining || closed ? 'draining' : to === cfg.workerId ? 'sameWorker' : null),
    reopen: async (id) => (await restoreRoom(openHost, id).catch(() => refuse('noSnapshot'))).ok,
    // Matchmakers learn the new load now, not half a beat later.
    announce: () => upkeep.heartbeat(),
  };
  const migrate = (req: wire.MigrateRequest) => migrateRooms(migrationHost, req);

  const subs: BusSubscription[] = [
    serve(
      bus,
      contract.workerOpen.at(cfg.workerId),
      (req, respond) => {
        if (req.create && req.create.roomId !== req.roomId) return respond(refuse('malformed'));
        const open = (): void => {
          let job = opening.get(req.roomId);
          if (!job) {
            job = openRoom(openHost, req).catch((err) => {
              metrics.errors.inc({ kind: 'store' });
              log.error({ err, roomId: req.roomId }, 'open failed');
              return refuse('internal', String((err as Error)?.message ?? err));
            });
            opening.set(req.roomId, job);
            void job.finally(() => opening.delete(req.roomId));
          }
          void job.then(respond);
        };
        // A new table waits behind the commands of the tables already playing (intake.ts); a restore is a
        // table already playing (its players wait on it) and goes at once.
        if (!req.create) return open();
        intake.admit('open', open, () => respond(refuse('capacity')), req.deadline);
      },
      () => refuse('malformed'),
    ),
    // Liveness probe of the matchmakers (failover.ts): answered even while draining; only absence counts.
    serve(
      bus,
      contract.workerPing.at(cfg.workerId),
      (_req, respond) => respond({ v: 1, workerId: cfg.workerId, incarnation }),
      () => ({ v: 1, workerId: cfg.workerId, incarnation }),
    ),
    serve(
      bus,
      contract.workerMigrate.at(cfg.workerId),
      (req, respond) => {
        void migrate(req).then(respond, (err) => {
          log.error({ err }, 'migration failed');
          const { code, reason } = refuse('internal', String(err));
          respond({ moved: [], stayed: req.roomIds.map((roomId) => ({ roomId, code, reason })) });
        });
      },
      () => ({ moved: [], stayed: [] }),
    ),
  ];

  // Announce ourselves only once the server has our subscriptions: a matchmaker acting on the
  // first heartbeat must not find "no responders" on our open subject.
  await bus.flush?.();
  upkeep.start();

  async function drain(): Promise<DrainReport> {
    const t0 = clock.now();
    draining = true;
    upkeep.heartbeat();
    const leaving = [...rooms.values()];
    const released: wire.RoomsReleased = {
      v: PROTOCOL_VERSION,
      workerId: cfg.workerId,
      rooms: leaving.length,
      incarnation,
    };
    try {
      emit(bus, contract.workerDraining, released);
    } catch (err) {
      log.warn({ err }, 'draining announcement failed');
    }
    log.info({ rooms: leaving.length }, 'draining: handing rooms over');
    const deadline = clock.now() + cfg.drainTimeoutMs;
    let handedOver = 0;
    // Finished rooms whose record is out need no new home; the rest move in chunks.
    let todo: Room[] = [];
    const facts: Promise<void>[] = [];
    for (const r of leaving) {
      if (r.finished && r.data.finishedPublished) {
        await r.pause();
        r.close();
        await store.drop(r.id, r.epoch).catch(() => {});
        facts.push(closedForGood(r));
      } else todo.push(r);
    }
    while (todo.length > 0 && clock.now() < deadline) {
      const r = await handOver(handoverDeps, todo, {
        reason: 'drain',
        timeoutMs: clamp(deadline - clock.now(), 1000, 10_000),
      });
      handedOver += r.placed.length;
      todo = r.failed;
      if (todo.length > 0) await clock.sleep(250);
    }
    // Nobody could take these: end our leases now so the orphan sweep can place them as soon as a worker appears.
    for (const r of todo) await store.release(r.id, cfg.workerId, r.epoch).catch(() => false);
    // The room-closed facts are a safety net (RoomFinished frees the lobby room too): bounded by the drain deadline.
    let factsTimer: Timer | undefined;
    await Promise.race([
      Promise.all(facts),
      new Promise<void>((res) => (factsTimer = clock.setTimeout(res, Math.max(0, deadline - clock.now())))),
    ]);
    clock.clearTimeout(factsTimer);
    const report = { handedOver, released: todo.length, ms: clock.now() - t0 };
    log.info(report, 'drained');
    upkeep.heartbeat();
    await close();
    return report;
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    upkeep.stop();
    intake.close();
    reconnect.close();
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
