/**
 * Standalone room worker: `npm start -w services/room-worker`.
 * Configuration from the environment (`--help-config` lists it). SIGTERM drains:
 * every room is handed to another live worker before the process exits.
 */
import { createBus } from '@joke/bus';
import {
  createLogger,
  exitOnConfigError,
  installLastResort,
  processRegistry,
  startLoopLagMonitor,
  startOpsServer,
} from '@joke/ops';
import { createStores } from '@joke/stores';
import { initTracing } from '@joke/bus/tracing';
import { workerConfig } from './config.ts';
import { startRoomWorker } from './worker.ts';

if (process.argv.includes('--help-config')) {
  console.log(workerConfig.describe());
  process.exit(0);
}

const cfg = exitOnConfigError('room-worker', () => workerConfig.fromEnv());
const log = createLogger('room-worker', cfg.logLevel);
// Off (no OTEL_EXPORTER_OTLP_ENDPOINT): nothing is loaded or registered, and batches make no spans.
const tracing = await initTracing(cfg);
const bus = await createBus({ natsUrl: cfg.natsUrl, namespace: cfg.namespace, name: cfg.workerId });
const stores = await createStores({
  redisUrl: cfg.redisUrl,
  namespace: cfg.namespace,
  onError: (err) => log.warn({ err }, 'redis error'),
});
const worker = await startRoomWorker(cfg, { bus, store: stores.snapshots, log });
const ops = await startOpsServer({
  host: cfg.opsHost,
  port: cfg.opsPort,
  // Process metrics (CPU, memory, event loop, GC) beside the service's own.
  registries: [processRegistry(), worker.registry],
  // Not ready while draining or while NATS or Redis is away: the gateways' retries go to the other workers.
  checks: { worker: () => worker.ready(), nats: () => bus.connected?.() ?? true, redis: () => stores.connected() },
  loop: startLoopLagMonitor({ maxLagMs: cfg.livenessMaxLagMs }),
  onError: (err) => log.warn({ err }, 'ops http error'),
});
log.info({ ops: ops.url, bus: cfg.natsUrl || 'in-process', store: stores.kind, shard: cfg.shard }, 'room worker up');
// Tests and orchestration scripts wait for this line on stdout.
// Started: from here an error nothing caught is logged and counted, and the rooms keep playing
// (a failure while starting still ends the process, above).
installLastResort(log, worker.registry);
if (process.env.JOKE_READY_LINE) console.log(`READY ${cfg.workerId} ${ops.port}`);

let stopping = false;
const stop = async (signal: string): Promise<void> => {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'stopping: draining rooms');
  const report = await worker.drain();
  if (process.env.JOKE_READY_LINE) console.log(`DRAINED ${JSON.stringify(report)}`);
  await bus.close();
  await stores.close();
  await tracing.shutdown();
  await ops.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));
