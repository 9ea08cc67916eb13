/**
 * The whole realtime runtime in one process: bus, stores, matchmaker, one room
 * worker, the WebSocket gateway and an HTTP server. With NATS_URL / REDIS_URL
 * unset it runs on the in-process bus and in-memory stores (nothing to install);
 * with them set the very same code joins a cluster over NATS and Redis.
 *
 * The public HTTP server answers /healthz and /readyz; everything else is
 * routed to handlers mounted with `mountHttp(prefix, handler)` — the lobby's
 * tRPC handler and the client's static files are mounted there by whoever
 * composes the product (services/lobby and client do not depend on this package).
 * /metrics is served only by the ops server (OPS_HOST:OPS_PORT, loopback by
 * default), so a LAN or the internet never reads the process's metrics.
 */
import type { Registry } from 'prom-client';
import { createBus, type Bus } from '@joke/bus';
import { createLogger, serviceLogger, startOpsServer, processRegistry, type HttpHandler, type Logger } from '@joke/ops';
import { createStores, type Stores } from '@joke/stores';
import { startGateway, type Gateway } from '@joke/gateway';
import { startMatchmaker, type Matchmaker } from '@joke/matchmaker';
import { startRoomWorker, type RoomWorker } from '@joke/room-worker';
import { platformConfig, type PlatformConfig } from './config.ts';
import { dataPaths } from './data-dir.ts';

export interface Platform {
  config: PlatformConfig;
  /** http://host:port of the HTTP server. */
  httpUrl: string;
  /** http://host:port of the ops server (/healthz /readyz /metrics). */
  opsUrl: string;
  /** The process's own metrics (default Node metrics, the last resort's counter). */
  processMetrics: Registry;
  /** ws://host:port/ws of the gateway. */
  gatewayUrl: string;
  bus: Bus;
  stores: Stores;
  matchmaker: Matchmaker;
  worker: RoomWorker;
  gateway: Gateway;
  log: Logger;
  /**
   * Mount point for the rest of the product on the platform's HTTP server:
   * `mountHttp('/trpc', trpcHandler)`, `mountHttp('/', staticFiles)`. The
   * longest matching prefix wins; /healthz and /readyz always come first.
   */
  mountHttp(prefix: string, handler: HttpHandler): void;
  close(): Promise<void>;
}

/** Connects the bus the platform would use for `config` (for callers that need it before the runtime starts). */
export async function platformBus(cfg: PlatformConfig): Promise<Bus> {
  return createBus({ natsUrl: cfg.natsUrl, namespace: cfg.namespace, name: 'platform' });
}

/**
 * `deps.bus`: an already connected bus (from `platformBus`); the platform owns and closes it.
 * `deps.roomAccess`: 'lobby' when a lobby serves the same bus (startProduct), so the gateway checks
 * private-room membership with it before a join; default 'open' (no lobby to ask).
 */
export async function startPlatform(
  config: Partial<PlatformConfig> = {},
  deps: { bus?: Bus; log?: Logger; roomAccess?: 'lobby' | 'open' } = {},
): Promise<Platform> {
  const cfg = platformConfig.resolve(config);
  const log = deps.log ?? createLogger('platform', cfg.logLevel);
  const bus = deps.bus ?? (await platformBus(cfg));
  const stores = await createStores({
    redisUrl: cfg.redisUrl,
    namespace: cfg.namespace,
    snapshotDir: dataPaths(cfg).snapshotDir,
    onError: (err) => log.warn({ err }, 'redis error'),
  });
  const matchmaker = await startMatchmaker(
    {
      matchmakerId: 'mm-embedded',
      logLevel: cfg.logLevel,
      queueRatePerUser: cfg.queueRatePerUser,
      queueRatePerAddress: cfg.queueRatePerAddress,
      queueTablesPerAddress: cfg.queueTablesPerAddress,
    },
    { bus, snapshots: stores.snapshots, match: stores.match, log: serviceLogger(log, 'matchmaker') },
  );
  const worker = await startRoomWorker(
    {
      workerId: cfg.workerId,
      logLevel: cfg.logLevel,
      botDelayMs: cfg.botDelayMs,
      botJitterMs: cfg.botJitterMs,
      chatRatePerSecond: cfg.chatRatePerSecond,
      chatBurst: cfg.chatBurst,
      chatPlayerReserve: cfg.chatPlayerReserve,
      maxRooms: cfg.maxRooms,
    },
    { bus, store: stores.snapshots, log: serviceLogger(log, 'room-worker') },
  );
  const gateway = await startGateway(
    { host: cfg.gatewayHost, port: cfg.gatewayPort, jwtSecret: cfg.jwtSecret, roomAccess: deps.roomAccess ?? 'open' },
    { bus, logger: serviceLogger(log, 'gateway') },
  );
  // One set of process metrics for the whole process, however many services it embeds.
  const processMetrics = processRegistry();
  const common = {
    registries: [processMetrics, worker.registry, matchmaker.registry, gateway.metrics.registry],
    ready: () => worker.ready() && matchmaker.ready(),
    onError: (err: unknown) => log.warn({ err }, 'http handler error'),
  };
  const http = await startOpsServer({ ...common, host: cfg.host, port: cfg.port, metrics: false });
  let ops: Awaited<ReturnType<typeof startOpsServer>>;
  try {
    ops = await startOpsServer({ ...common, host: cfg.opsHost, port: cfg.opsPort });
  } catch (err) {
    await http.close();
    throw err;
  }
  const wsHost = cfg.gatewayHost.includes(':') ? `[${cfg.gatewayHost}]` : cfg.gatewayHost;
  let closed = false;
  return {
    config: cfg,
    httpUrl: http.url,
    opsUrl: ops.url,
    processMetrics,
    gatewayUrl: `ws://${wsHost}:${gateway.port}/ws`,
    bus,
    stores,
    matchmaker,
    worker,
    gateway,
    log,
    mountHttp: http.mountHttp,
    async close() {
      if (closed) return;
      closed = true;
      await gateway.close();
      await worker.close();
      await matchmaker.close();
      await http.close();
      await ops.close();
      await bus.close();
      await stores.close();
    },
  };
}
