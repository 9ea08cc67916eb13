/**
 * The lobby: guest sign-in, rooms, hand-off to the matchmaker and game
 * history, served as tRPC over HTTP at /trpc. Used by its own main.ts and by
 * the single-process platform, which mounts `handler` next to the gateway.
 *
 * Client side: `import type { AppRouter } from '@joke/lobby'` with
 * httpBatchLink({ url: '/trpc', headers: { authorization: `Bearer ${token}` } }).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { pino, type Logger } from 'pino';
import { games as engineGames, type AnyGame } from '@joke/engine';
import type { Bus } from '@joke/bus';
import { systemClock, unrefTimer, type Clock } from '@joke/bus/clock';
import { openDatabase, type Db, type OpenedDatabase } from './db/open.ts';
import { subscribeFinished } from './finished.ts';
import { subscribeClosed } from './closed.ts';
import { subscribeDepartures } from './departures.ts';
import { subscribeLost } from './lost.ts';
import { serveAccess } from './access.ts';
import { createMetrics } from './metrics.ts';
import { appRouter } from './routers/index.ts';
import { createContext, type LobbyDeps } from './trpc.ts';
import type { Registry } from 'prom-client';
import { DEFAULT_SWEEP, sweep, type SweepLimits, type SweepReport } from './sweep.ts';
import { limitBody } from './limits/body.ts';
import { DEFAULT_LIMITS, type LobbyLimits } from './limits/options.ts';
import { createRateLimits } from './limits/rate.ts';
import { RoomDirectory } from './rooms/directory.ts';
import { TokenCache } from './token-cache.ts';
import { DEFAULT_PRESENCE, PresenceBoard, type PresenceLimits } from './rooms/presence.ts';
import { RoomLifecycle, type LifecycleReport } from './rooms/lifecycle.ts';
import { connectPresence } from './presence-bus.ts';
import { leanTrpcHandler } from './trpc-http.ts';

export type { AppRouter } from './routers/index.ts';
export type { RoomDetail, RoomSummary, SeatView, RoomStatus } from './rooms/view.ts';
export type { GameInfo } from './routers/games.ts';
export type { HistoryEntry, HistoryDetail, HistoryPlayer } from './routers/history.ts';
export type { ReplayDetail, ReplayPlayer } from './routers/replay.ts';
export type { ReplayRefusalCode } from './refused.ts';
export { appRouter };
export { operatorPage } from './fairplay/page.ts';
export { MSG as LOBBY_MESSAGES } from './messages.ts';
export type { SweepLimits, SweepReport } from './sweep.ts';
export { DEFAULT_PRESENCE, pickPresence, presenceOptions, type PresenceLimits } from './rooms/presence.ts';
export type { LifecycleReport } from './rooms/lifecycle.ts';
export { DEFAULT_LIMITS, lobbyLimitOptions, pickLimits, type LobbyLimits } from './limits/options.ts';

export const TRPC_BASE_PATH = '/trpc/';

export interface LobbyOptions {
  bus: Bus;
  /** postgresql://…[?schema=name]. Absent = embedded PGlite. */
  databaseUrl?: string;
  /** PGlite data directory when there is no databaseUrl; absent = in memory. */
  dataDir?: string;
  /** PostgreSQL connections of this lobby process (default 20). */
  dbPoolSize?: number;
  /** HS256 secret shared with the gateway. */
  jwtSecret: string;
  /** Credential of the operator view (operator.fairplay, /operator); absent = that view refuses everyone. */
  operatorToken?: string;
  log?: Logger;
  /** Games offered; defaults to the engine registry. */
  games?: Record<string, AnyGame>;
  /** Lifetime of issued tokens (default 7 days). */
  tokenTtlSeconds?: number;
  /** How long `rooms.start` waits for the matchmaker (default 5000 ms). */
  startTimeoutMs?: number;
  /** Access-Control-Allow-Origin for browser clients on another origin; absent = no CORS headers. */
  corsOrigin?: string;
  /** Registry for the lobby's metrics (default: a new one, exposed as `metrics`). */
  metricsRegistry?: Registry;
  /** How often abandoned rooms are cleaned up (default 60 s; 0 = never, call `sweep()` yourself). */
  sweepIntervalMs?: number;
  sweepLimits?: Partial<SweepLimits>;
  /** Body, batch, rate and room limits (docs/security.md); anything not given keeps its default. */
  limits?: Partial<LobbyLimits>;
  /** Redis for the rate-limit counters shared by every replica; absent = per-process memory. */
  redisUrl?: string;
  /** Prefix of the lobby's Redis keys (JOKE_NAMESPACE). */
  namespace?: string;
  /**
   * Longest a room-list page is served from memory (default 1000 ms; 0 = always read). Changes made
   * through this process show at once; this bounds how late another replica's changes appear.
   */
  listCacheMs?: number;
  /** Room lifecycle timings (rooms/presence.ts); `tickMs: 0` = no timer, call `lifecycle()` yourself. */
  presence?: Partial<PresenceLimits>;
  /** The bus Clock of the presence marks, lifecycle rules, timers and retry pauses (tests: a FakeClock). */
  clock?: Clock;
}

export interface Lobby {
  router: typeof appRouter;
  /** Node http handler for requests under /trpc/ (anything else gets 404). */
  handler: (req: IncomingMessage, res: ServerResponse) => void;
  db: Db;
  database: Pick<OpenedDatabase, 'kind' | 'schema' | 'openMs' | 'migrations'>;
  metrics: Registry;
  /** The room list in memory (its `loads` count tells tests and benchmarks how often it read the database). */
  directory: RoomDirectory;
  /** Throws if the database does not answer. */
  ping(): Promise<void>;
  /** Closes idle rooms and frees tables whose start or game never finished (also runs on a timer). */
  sweep(now?: number): Promise<SweepReport>;
  /** Applies the room lifecycle rules once (also runs every `presence.tickMs`). */
  lifecycle(now?: number): Promise<LifecycleReport>;
  /** Resolves once every RoomFinished received so far is stored (tests, graceful shutdown). */
  idle(): Promise<void>;
  /** Stops taking RoomFinished, finishes those in flight, closes the database. The bus stays open (not ours). */
  close(): Promise<void>;
}

export async function createLobby(opts: LobbyOptions): Promise<Lobby> {
  const log = opts.log ?? pino({ name: 'lobby' });
  const metrics = createMetrics(opts.metricsRegistry);
  const limits: LobbyLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const rate = await createRateLimits(limits, {
    redisUrl: opts.redisUrl,
    namespace: opts.namespace,
    log,
    onLimited: (action, scope) => metrics.rateLimited.inc({ action, scope }),
  });
  const database = await openDatabase({
    databaseUrl: opts.databaseUrl,
    dataDir: opts.dataDir,
    poolSize: opts.dbPoolSize,
  }).catch(async (err: unknown) => {
    await rate.close();
    throw err;
  });
  log.info(
    { kind: database.kind, schema: database.schema, openMs: database.openMs, migrations: database.migrations },
    'lobby database ready',
  );
  const clock = opts.clock ?? systemClock;

  const presenceLimits: PresenceLimits = { ...DEFAULT_PRESENCE, ...opts.presence };
  const board = new PresenceBoard(presenceLimits.awayAfterMs);
  const directory = new RoomDirectory(opts.listCacheMs ?? 1000);
  const lifecycle = new RoomLifecycle(database.prisma, database.raw, board, directory, presenceLimits, log, clock);
  const deps: LobbyDeps = {
    db: database.prisma,
    raw: database.raw,
    bus: opts.bus,
    games: opts.games ?? engineGames,
    jwtSecret: opts.jwtSecret,
    operatorToken: opts.operatorToken ?? '',
    tokenTtlSeconds: opts.tokenTtlSeconds ?? 7 * 24 * 3600,
    startTimeoutMs: opts.startTimeoutMs ?? 5000,
    log,
    metrics,
    limits,
    rate,
    seenUsers: new Map(),
    presence: board,
    lifecycle,
    clock,
    tokens: new TokenCache(opts.jwtSecret),
    directory,
  };
  const presenceBus = connectPresence(opts.bus, board, log, () => {});
  // The tick in progress, so close() lets it finish before the pool ends (a tick now spans several reads).
  let ticking: Promise<unknown> = Promise.resolve();
  const runLifecycle = async (now?: number): Promise<LifecycleReport> => {
    presenceBus.flush();
    const run = deps.lifecycle.tick(now);
    ticking = Promise.all([ticking, run.catch(() => {})]); // an overlapping call returns at once: keep the one running
    return run;
  };
  const ticker =
    presenceLimits.tickMs > 0
      ? clock.setInterval(
          () => void runLifecycle().catch((err) => log.warn({ err }, 'room lifecycle tick failed')),
          presenceLimits.tickMs,
        )
      : null;
  if (ticker) unrefTimer(ticker);
  const changed = () => {
    deps.directory.changed();
    deps.lifecycle.touched();
  };
  // Each durable subscription waits for its stream and consumer to be created (replicated on a cluster):
  // set up together, not one after the other.
  const [finished, roomClosed, departures] = await Promise.all([
    subscribeFinished(opts.bus, deps.db, log, metrics, changed, clock),
    subscribeClosed(opts.bus, deps.db, log, metrics, changed),
    subscribeDepartures(opts.bus, deps.db, log, metrics, (roomId) => {
      deps.directory.changed();
      deps.lifecycle.touched(roomId);
    }),
  ]);
  const lost = subscribeLost(opts.bus, deps.db, log, metrics, clock);
  const access = serveAccess(opts.bus, deps.raw, log);
  const trpc = createHTTPHandler({
    router: appRouter,
    basePath: TRPC_BASE_PATH,
    maxBodySize: limits.maxBodyBytes,
    maxBatchSize: limits.maxBatchSize,
    createContext: ({ req }) => createContext(deps, req),
  });
  // The usual calls skip tRPC's fetch adaptation (trpc-http.ts); tRPC's handler answers the rest.
  const lean = leanTrpcHandler({
    router: appRouter,
    basePath: TRPC_BASE_PATH,
    maxBatchSize: limits.maxBatchSize,
    createContext: (req) => createContext(deps, req),
    fallback: trpc,
  });
  const limited = limitBody(limits.maxBodyBytes, lean);
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    if (opts.corsOrigin) {
      res.setHeader('Access-Control-Allow-Origin', opts.corsOrigin);
      res.setHeader('Access-Control-Allow-Headers', 'authorization, content-type, trpc-accept');
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
      if (req.method === 'OPTIONS') {
        res.writeHead(204).end();
        return;
      }
    }
    if (!(req.url ?? '').startsWith(TRPC_BASE_PATH)) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    limited(req, res);
  };
  const sweepLimits: SweepLimits = { ...DEFAULT_SWEEP, ...opts.sweepLimits };
  const runSweep = async (now?: number): Promise<SweepReport> => {
    const report = await sweep(deps.db, sweepLimits, now ?? clock.now());
    if (report.closed + report.unstuckStarts + report.unstuckGames > 0) {
      deps.directory.changed();
      deps.lifecycle.touched();
    }
    if (report.closed + report.unstuckStarts + report.unstuckGames > 0) log.info(report, 'swept abandoned rooms');
    return report;
  };
  const sweepEvery = opts.sweepIntervalMs ?? 60_000;
  const sweeper =
    sweepEvery > 0
      ? clock.setInterval(() => void runSweep().catch((err) => log.warn({ err }, 'room sweep failed')), sweepEvery)
      : null;
  if (sweeper) unrefTimer(sweeper);
  metrics.ready.set(1);
  let closed: Promise<void> | null = null;
  return {
    router: appRouter,
    handler,
    db: deps.db,
    database: {
      kind: database.kind,
      schema: database.schema,
      openMs: database.openMs,
      migrations: database.migrations,
    },
    metrics: metrics.registry,
    directory: deps.directory,
    async ping() {
      await deps.db.$queryRaw`SELECT 1`;
    },
    sweep: runSweep,
    lifecycle: runLifecycle,
    idle: async () => {
      await finished.idle();
      await lost.idle();
    },
    close() {
      closed ??= (async () => {
        clock.clearInterval(sweeper);
        clock.clearInterval(ticker);
        await ticking;
        presenceBus.close();
        metrics.ready.set(0);
        access.unsubscribe();
        roomClosed.close();
        departures.close();
        await finished.close();
        await lost.close();
        await database.close();
        await rate.close();
      })();
      return closed;
    },
  };
}
