/**
 * The standalone lobby process: the public port serves the tRPC API under
 * /trpc (and the client when asked) with /healthz and /readyz; the ops port
 * serves the same probes and /metrics, so no Ingress rule can expose the
 * metrics. Readiness follows the database and NATS; a Redis outage does not
 * count, since the rate limits fall back to per-process counters. main.ts
 * wires it to the environment; tests start it directly. A handler that throws
 * answers its own request (400 for a URL it cannot read, else 500) and never
 * reaches the event loop (@joke/bus ops server, @joke/web static handler).
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import { type Bus } from '@joke/bus';
import { startLoopLagMonitor, startOpsServer, type Logger, type ReadinessChecks } from '@joke/ops';
import { clientHandler } from '@joke/web';
import type { LobbyEnv } from './config.ts';
import { pickLimits } from './limits/options.ts';
import { pickPresence } from './rooms/presence.ts';
import { createLobby, type Lobby } from './index.ts';
import { operatorPage } from './fairplay/page.ts';

export interface LobbyServer {
  lobby: Lobby;
  url: string;
  port: number;
  /** The ops server (/healthz /readyz /metrics). */
  opsUrl: string;
  opsPort: number;
  /** The lobby's metrics (served on the ops port). */
  registry: Registry;
  close(): Promise<void>;
}

export async function startLobbyServer(
  config: LobbyEnv,
  deps: { bus: Bus; logger: Logger; defaultMetrics?: boolean; dbCheckMs?: number },
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
    operatorToken: config.operatorToken || undefined,
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
  }, deps.dbCheckMs ?? 5000);
  check.unref();
  const checks: ReadinessChecks = {
    lobby: () => !closing,
    database: () => ready,
    nats: () => deps.bus.connected?.() ?? true,
  };
  const loop = startLoopLagMonitor({ maxLagMs: config.livenessMaxLagMs });
  const onError = (err: unknown): void => deps.logger.error({ err }, 'http error');
  const common = { registries: [registry], checks, loop, onError };
  const ops = await startOpsServer({ ...common, host: config.opsHost, port: config.opsPort });
  const pub = await startOpsServer({ ...common, host: config.host, port: config.port, metrics: false });
  pub.mountHttp('/trpc', lobby.handler);
  pub.mountHttp('/operator', operatorPage);
  if (config.serveClient)
    pub.mountHttp(
      '/',
      // No PUBLIC_GATEWAY_URL: port 8081 of the page's host only when that host is this machine, never an echo.
      clientHandler({ dir: config.clientDir || undefined, gatewayUrl: config.publicGatewayUrl || undefined }),
    );
  deps.logger.info(
    { url: pub.url, ops: ops.url, database: lobby.database.kind, startupMs: Math.round(performance.now() - started) },
    'lobby listening',
  );
  return {
    lobby,
    url: pub.url,
    port: pub.port,
    opsUrl: ops.url,
    opsPort: ops.port,
    registry,
    async close() {
      closing = true;
      clearInterval(check);
      loop.stop();
      await pub.close();
      await ops.close();
      await lobby.close();
    },
  };
}
