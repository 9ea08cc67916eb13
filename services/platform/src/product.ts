/**
 * The product behind `npm start`: the realtime runtime (platform.ts) plus the
 * lobby's tRPC API at /trpc and the built Phaser client at / (with
 * /config.json telling the page where the gateway is), all on one HTTP port.
 *
 * The lobby and the client stay independent of this package; this is the one
 * place that composes them, so a Kubernetes deployment can run each part as
 * its own service with the same code.
 */
import { createLobby, operatorPage, pickLimits, pickPresence, type Lobby } from '@joke/lobby';
import { clientHandler } from '@joke/web';
import { createLogger, serviceLogger } from '@joke/ops';
import { platformBus, startPlatform, type Platform } from './platform.ts';
import { platformConfig, type PlatformConfig } from './config.ts';
import { dataPaths, storedSecret } from './data-dir.ts';

export interface Product extends Platform {
  lobby: Lobby;
}

/** With a `dataDir` and no `jwtSecret`, the secret kept in the data folder signs tokens (data-dir.ts). */
export async function startProduct(config: Partial<PlatformConfig> = {}): Promise<Product> {
  const cfg = platformConfig.resolve(
    config.dataDir && config.jwtSecret === undefined ? { ...config, jwtSecret: storedSecret(config.dataDir) } : config,
  );
  const log = createLogger('platform', cfg.logLevel);
  const bus = await platformBus(cfg);
  // The lobby opens first: PGlite's start-up blocks the event loop for seconds,
  // which would otherwise stall the worker's heartbeats and make the matchmaker
  // declare it dead before the first room exists.
  let lobby: Lobby;
  try {
    lobby = await createLobby({
      bus,
      databaseUrl: cfg.databaseUrl || undefined,
      dataDir: dataPaths(cfg).lobbyDataDir,
      jwtSecret: cfg.jwtSecret,
      operatorToken: cfg.operatorToken || undefined,
      limits: pickLimits(cfg),
      presence: pickPresence(cfg),
      redisUrl: cfg.redisUrl || undefined,
      namespace: cfg.namespace || undefined,
      log: serviceLogger(log, 'lobby'),
    });
  } catch (err) {
    await bus.close();
    throw err;
  }
  let platform: Platform;
  try {
    platform = await startPlatform(cfg, { bus, log, roomAccess: 'lobby' });
  } catch (err) {
    await lobby.close();
    await bus.close();
    throw err;
  }
  platform.mountHttp('/trpc', lobby.handler);
  platform.mountHttp('/operator', operatorPage);
  // /config.json: PUBLIC_GATEWAY_URL when set; else the page's host when it names this machine (a phone
  // on the LAN reaches the same machine's gateway), else the gateway's own interface. Never a forged Host.
  const bound = platform.config.gatewayHost;
  const wildcard = bound === '0.0.0.0' || bound === '::' || bound === '';
  platform.mountHttp(
    '/',
    clientHandler({
      dir: platform.config.clientDir || undefined,
      gatewayUrl: platform.config.publicGatewayUrl || undefined,
      gatewayPort: platform.gateway.port,
      fallbackHost: wildcard ? '127.0.0.1' : bound.includes(':') ? `[${bound}]` : bound,
    }),
  );
  const closePlatform = platform.close;
  return Object.assign(platform, {
    lobby,
    async close() {
      await lobby.close();
      await closePlatform();
    },
  });
}
