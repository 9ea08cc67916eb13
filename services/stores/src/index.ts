/**
 * Where rooms and queues are kept between processes: room snapshots with their leases (written before any
 * ack, fenced by the lease), and the quick-match queues. Redis (single or Cluster) in production; memory
 * or files for the single-process platform.
 */
export * from './types.ts';
export { createStores, type Stores, type StoreTarget } from './factory.ts';
export { MemorySnapshotStore, MemoryMatchStore } from './memory.ts';
export { FileSnapshotStore } from './file.ts';
export {
  RedisSnapshotStore,
  RedisMatchStore,
  connectRedis,
  connectRedisConn,
  type RedisClient,
  type RedisConn,
  type SnapshotStoreOptions,
} from './redis.ts';
export { SingleRedis, ClusterRedis, type RedisTarget, type RedisClusterClient } from './redis-conn.ts';
export { ReplicaTimeoutError, type ReplicaConfirm } from './redis-writes.ts';
export { keySlot } from './redis-slots.ts';
