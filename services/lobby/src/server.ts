/**
 * The standalone lobby process: ops endpoints (/healthz, /readyz, /metrics)
 * plus the tRPC API under /trpc on one port. main.ts wires it to the
 * environment; tests start it directly.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import { startOpsServer, type Bus, type Logger } from '@joke/bus';
import { clientHandler } from '@joke/client/serve';
import type { LobbyEnv } from './config.ts';
import { pickLimits } from './limits/options.ts';
import { pickPresence } from './rooms/presence.ts';
import { createLobby, type Lobby } from './index.ts';

export interface LobbyServer {
  lobby: Lobby;
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startLobbyServer(
  config: LobbyEnv,
  deps: { bus: Bus; logger: Logger; defaultMetrics?: boolean },
): Promise<LobbyServer> {
  const started = performance.now();
  const registry = new Registry();
  if (deps.defaultMetrics) collectDefaultMetrics({ register: registry });
  const lobby = await createLobby({
    bus: deps.bus,
    databaseUrl: config.databaseUrl || undefined,
    dataDir: config.dataDir || undefined,
    dbPoolSize: config.dbPoolSize,
    presence: pickPresence(config),
    jwtSecret: config.jwtSecret,
    tokenTtlSeconds: config.tokenTtlSeconds,
    startTimeoutMs: config.startTimeoutMs,
    corsOrigin: config.corsOrigin || undefined,
    limits: pickLimits(config),
    redisUrl: config.redisUrl || undefined,
    namespace: config.namespace || undefined,
    log: deps.logger,
    metricsRegistry: registry,
  });
  // Readiness follows the database: a periodic ping, so /readyz itself stays synchronous and cheap.
  let ready = true;
  let closing = false;
  const check = setInterval(() => {
    lobby.ping().then(
      () => (ready = true),
      (err) => {
        if (ready) deps.logger.warn({ err }, 'database ping failed: not ready');
        ready = false;
      },
    );
  }, 5000);
  check.unref();
  const ops = await startOpsServer({
    host: config.host,
    port: config.port,
    registries: [registry],
    ready: () => ready && !closing,
    onError: (err) => deps.logger.error({ err }, 'http error'),
  });
  ops.mountHttp('/trpc', lobby.handler);
  if (config.serveClient)
    ops.mountHttp(
      '/',
      clientHandler({ dir: config.clientDir || undefined, gatewayUrl: config.publicGatewayUrl || undefined }),
    );
  deps.logger.info(
    { url: ops.url, database: lobby.database.kind, startupMs: Math.round(performance.now() - started) },
    'lobby listening',
  );
  return {
    lobby,
    url: ops.url,
    port: ops.port,
    async close() {
      closing = true;
      clearInterval(check);
      await ops.close();
      await lobby.close();
    },
  };
}
