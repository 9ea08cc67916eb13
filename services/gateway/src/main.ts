/**
 * Standalone gateway: `npm start -w services/gateway`, configured by the
 * environment (`gatewayEnv` in config.ts; `--help-config` prints the table).
 * SIGTERM/SIGINT close the sockets, then the NATS connection.
 */
import { createBus } from '@joke/bus';
import {
  ConfigError,
  createLogger,
  exitOnConfigError,
  installLastResort,
  startLoopLagMonitor,
  startOpsServer,
} from '@joke/ops';
import { initTracing } from '@joke/bus/tracing';
import { configFromEnv, gatewayEnv } from './config.ts';
import { startGateway } from './gateway.ts';
import { shutdownEnv } from './shutdown-config.ts';
import { shutdownGracefully } from './shutdown.ts';

if (process.argv.includes('--help-config')) {
  process.stdout.write(`${gatewayEnv.describe()}\n${shutdownEnv.describe()}\n`);
  process.exit(0);
}
const {
  config,
  natsUrl,
  namespace,
  logLevel,
  ops: opsCfg,
  tracing: tracingCfg,
} = exitOnConfigError('gateway', () => {
  const c = configFromEnv();
  if (!c.natsUrl) throw new ConfigError('NATS_URL is required: a standalone gateway talks to room workers over NATS');
  return c;
});
const shutdownCfg = exitOnConfigError('gateway', () => shutdownEnv.fromEnv());
const logger = createLogger('gateway', logLevel);
// Off (no OTEL_EXPORTER_OTLP_ENDPOINT): nothing is loaded or registered, and actions make no spans.
const tracing = await initTracing(tracingCfg);
const bus = await createBus({ natsUrl, namespace, name: config.gatewayId });
const gateway = await startGateway(config, { bus, logger, defaultMetrics: true });
// /metrics and the probes on their own port: the public one carries only players' sockets.
const ops = await startOpsServer({
  host: opsCfg.host,
  port: opsCfg.port,
  registries: [gateway.metrics.registry],
  checks: { gateway: () => gateway.ready(), nats: () => bus.connected?.() ?? true },
  loop: startLoopLagMonitor({ maxLagMs: opsCfg.livenessMaxLagMs }),
  onError: (err) => logger.warn({ err }, 'ops http error'),
});
logger.info({ ops: ops.url }, 'gateway ops endpoint up');
// After start-up only: a failure while starting still exits non-zero; once serving, a stray error is logged.
installLastResort(logger, gateway.metrics.registry);
// Tests and orchestration scripts wait for this line on stdout (same convention as the other services).
if (process.env.JOKE_READY_LINE) console.log(`OPS ${ops.port}\nREADY ${gateway.gatewayId} ${gateway.port}`);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'stopping');
  // SIGTERM (rolling update, scale-down): spread the players over the other gateways; SIGINT: at once.
  const report = await shutdownGracefully(gateway, signal === 'SIGTERM' ? shutdownCfg : { spreadMs: 0 }, logger);
  if (process.env.JOKE_READY_LINE) console.log(`SHUTDOWN ${JSON.stringify(report)}`);
  await bus.close();
  await tracing.shutdown();
  await ops.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
