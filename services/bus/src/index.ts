export * from './types.ts';
export { InProcessBus, type InProcessBusOptions } from './in-process.ts';
export { NatsBus, type NatsBusOptions } from './nats.ts';
export { DEAD_HEADERS, deadLetterStream, streamName } from './nats-durable.ts';
export {
  DEFAULT_DELIVERY_POLICY,
  deadLetterSubject,
  isPermanent,
  type DeliveryPolicy,
  type DurableConsumerOptions,
  type ParkedEvent,
} from './durable-policy.ts';
export { SubjectFamily } from './family.ts';
export { SlotSet } from './slots.ts';
export {
  createBus,
  createStores,
  connectionOptions,
  type BusTarget,
  type Stores,
  type StoreTarget,
} from './factory.ts';
export * from './store/types.ts';
export { MemorySnapshotStore, MemoryMatchStore } from './store/memory.ts';
export { FileSnapshotStore } from './store/file.ts';
export {
  RedisSnapshotStore,
  RedisMatchStore,
  connectRedis,
  connectRedisConn,
  type RedisClient,
  type RedisConn,
  type SnapshotStoreOptions,
} from './store/redis.ts';
export { SingleRedis, ClusterRedis, type RedisTarget, type RedisClusterClient } from './store/redis-conn.ts';
export { ReplicaTimeoutError, type ReplicaConfirm } from './store/redis-writes.ts';
export { keySlot } from './store/redis-slots.ts';
export {
  defineConfig,
  opt,
  int,
  bool,
  ConfigError,
  exitOnConfigError,
  type ConfigDef,
  type ConfigOf,
  type EnvOption,
} from './ops/config.ts';
export { createLogger, serviceLogger, type Logger } from './ops/log.ts';
export { installLastResort, type LastResort } from './ops/last-resort.ts';
export { processRegistry, aliasMetrics, aliasPrefix, type MetricAlias } from './ops/metrics.ts';
export {
  startOpsServer,
  failingChecks,
  type OpsServer,
  type OpsServerOptions,
  type HttpHandler,
  type ReadinessChecks,
} from './ops/http.ts';
export { startLoopLagMonitor, livenessOptions, type LoopLagMonitor } from './ops/liveness.ts';
export { RetryBudget, backoffMs, pastDeadline, type RetryBudgetOptions } from './retry-budget.ts';
