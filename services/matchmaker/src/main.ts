/**
 * Standalone matchmaker: `npm start -w services/matchmaker`. Stateless: run as
 * many replicas as you like against the same NATS and Redis.
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
import { connectRedis, createStores } from '@joke/stores';
import { matchmakerConfig } from './config.ts';
import { startMatchmaker } from './matchmaker.ts';
import { autoRebalanceConfig } from './auto-rebalance-config.ts';
import { startAutoRebalance } from './auto-rebalance.ts';

if (process.argv.includes('--help-config')) {
  console.log(`${matchmakerConfig.describe()}\n${autoRebalanceConfig.describe()}`);
  process.exit(0);
}

const cfg = exitOnConfigError('matchmaker', () => matchmakerConfig.fromEnv());
const autoCfg = exitOnConfigError('matchmaker', () => autoRebalanceConfig.fromEnv());
const log = createLogger('matchmaker', cfg.logLevel);
const bus = await createBus({ natsUrl: cfg.natsUrl, namespace: cfg.namespace, name: cfg.matchmakerId });
const stores = await createStores({
  redisUrl: cfg.redisUrl,
  namespace: cfg.namespace,
  onError: (err) => log.warn({ err }, 'redis error'),
});
// The quick-match budgets count in the shared Redis, so every replica sees one address's total (budgets.ts).
const budgetRedis = cfg.redisUrl
  ? await connectRedis(cfg.redisUrl, (err) => log.warn({ err }, 'budget redis error'))
  : null;
const mm = await startMatchmaker(cfg, { bus, snapshots: stores.snapshots, match: stores.match, log, budgetRedis });
// Automatic rebalancing needs the shared Redis for its leader lease (auto-rebalance.ts).
const auto =
  cfg.redisUrl && cfg.natsUrl
    ? await startAutoRebalance(autoCfg, {
        bus,
        log,
        matchmakerId: cfg.matchmakerId,
        redisUrl: cfg.redisUrl,
        namespace: cfg.namespace,
        liveWorkers: () => mm.liveWorkers(),
        roomsOf: (workerId) => stores.snapshots.ownedBy(workerId, 1_000_000),
        registry: mm.registry,
      })
    : null;
const ops = await startOpsServer({
  host: cfg.opsHost,
  port: cfg.opsPort,
  // Process metrics (CPU, memory, event loop, GC) beside the service's own.
  registries: [processRegistry(), mm.registry],
  checks: { matchmaker: () => mm.ready(), nats: () => bus.connected?.() ?? true, redis: () => stores.connected() },
  loop: startLoopLagMonitor({ maxLagMs: cfg.livenessMaxLagMs }),
  onError: (err) => log.warn({ err }, 'ops http error'),
});
log.info({ ops: ops.url, bus: cfg.natsUrl || 'in-process', store: stores.kind }, 'matchmaker up');
// Started: from here an error nothing caught is logged and counted, and the rooms keep playing
// (a failure while starting still ends the process, above).
installLastResort(log, mm.registry);
if (process.env.JOKE_READY_LINE) console.log(`READY ${cfg.matchmakerId} ${ops.port}`);

const stop = async (): Promise<void> => {
  await auto?.close();
  await mm.close();
  await budgetRedis?.close();
  await bus.close();
  await stores.close();
  await ops.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
