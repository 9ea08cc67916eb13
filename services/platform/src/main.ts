/**
 * `npm start` at the repository root: the whole product in one process
 * (see product.ts). Prints the HTTP and WebSocket URLs when ready.
 *
 * A failure while starting exits non-zero (a bad setting: 78, one line; a
 * port in use: the error). Once running, an error nothing caught is logged
 * and counted by the last resort and the tables keep being served.
 */
import { exitOnConfigError, installLastResort } from '@joke/ops';
import { platformConfig, platformConfigFromEnv } from './config.ts';
import { startProduct } from './product.ts';
import { homeInstallEnv } from './data-dir.ts';
import { initTracing } from '@joke/bus/tracing';

if (process.argv.includes('--help-config')) {
  console.log(platformConfig.describe());
  process.exit(0);
}

const env = homeInstallEnv(process.env, process.argv);
const config = exitOnConfigError('platform', () => platformConfigFromEnv(env));
// The gateway and the worker in this process share one tracer; off (no endpoint) nothing is loaded.
const tracing = await initTracing(config);
// No JWT_SECRET given: the data folder's own secret, so tokens (guest accounts) outlive a restart.
const platform = await startProduct(env.JWT_SECRET ? config : { ...config, jwtSecret: undefined });
// Only now: a start-up failure above still ends the process (top-level await rejects, exit 1).
installLastResort(platform.log, platform.processMetrics);
const mode = platform.config.natsUrl ? `NATS ${platform.config.natsUrl}` : 'in-process bus';
const store =
  platform.stores.kind === 'redis'
    ? `Redis ${platform.config.redisUrl}`
    : platform.stores.kind === 'file'
      ? `snapshots in ${platform.config.dataDir}/rooms`
      : 'in-memory store';
console.log(`joke-app platform (${mode}, ${store})`);
console.log(`  Client    ${platform.httpUrl}/  (open this in a browser)`);
console.log(`  Lobby API ${platform.httpUrl}/trpc  ·  /healthz /readyz`);
console.log(`  Ops       ${platform.opsUrl}/metrics  (this machine only unless OPS_HOST says otherwise)`);
console.log(`  WebSocket ${platform.gatewayUrl}`);
console.log(
  platform.config.dataDir
    ? `  Data      ${platform.config.dataDir} (kept across restarts; --in-memory for a throwaway run)`
    : '  Data      in memory (forgotten on exit)',
);

let stopping = false;
const stop = async (signal: string): Promise<void> => {
  if (stopping) return;
  stopping = true;
  platform.log.info({ signal }, 'stopping');
  // With a cluster behind (NATS + Redis) the embedded worker hands its rooms over; alone it just stops.
  if (platform.config.natsUrl) await platform.worker.drain();
  await platform.close();
  await tracing.shutdown();
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
