/**
 * Standalone lobby: `npm start -w services/lobby`, configured by the
 * environment (config.ts; `--help-config` prints the table). With no
 * variables set it needs no server: PGlite in memory, in-process bus.
 * SIGTERM/SIGINT stop taking requests, finish recording games, then close.
 */
import { createBus } from '@joke/bus';
import { createLogger, exitOnConfigError, installLastResort } from '@joke/ops';
import { lobbyConfigFromEnv, lobbyEnv } from './config.ts';
import { startLobbyServer } from './server.ts';

if (process.argv.includes('--help-config')) {
  process.stdout.write(`${lobbyEnv.describe()}\n`);
  process.exit(0);
}
const config = exitOnConfigError('lobby', () => lobbyConfigFromEnv());
const logger = createLogger('lobby', config.logLevel);
if (!config.natsUrl) logger.warn('NATS_URL is empty: in-process bus, so rooms.start has no matchmaker to ask');
const bus = await createBus({ natsUrl: config.natsUrl, namespace: config.namespace, name: 'lobby' });
const server = await startLobbyServer(config, { bus, logger, defaultMetrics: true });
// After start-up only: a failure while starting still exits non-zero; once serving, a stray error is logged.
installLastResort(logger, server.registry);
// Multi-process tests wait for this line (as for the other services' mains).
if (process.env.JOKE_READY_LINE) console.log('READY lobby');

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping');
  await server.close();
  await bus.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
