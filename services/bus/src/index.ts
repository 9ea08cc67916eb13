export * from './types.ts';
export { InProcessBus, type InProcessBusOptions } from './in-process.ts';
export { NatsBus, type NatsBusOptions } from './nats.ts';
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
export { RedisSnapshotStore, RedisMatchStore, connectRedis, type RedisClient } from './store/redis.ts';
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
export { createLogger, type Logger } from './ops/log.ts';
export { startOpsServer, type OpsServer, type OpsServerOptions, type HttpHandler } from './ops/http.ts';
