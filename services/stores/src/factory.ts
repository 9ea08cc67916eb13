/**
 * The stores a service runs on: Redis (single or Cluster) when a URL is given, else in memory (room
 * snapshots optionally on disk) for the single-process platform.
 */
import { FileSnapshotStore } from './file.ts';
import { MemoryMatchStore, MemorySnapshotStore } from './memory.ts';
import { connectRedisConn, RedisMatchStore, RedisSnapshotStore } from './redis.ts';
import type { MatchStore, SnapshotStore } from './types.ts';

export interface Stores {
  snapshots: SnapshotStore;
  match: MatchStore;
  /** 'redis', 'file' (snapshots on disk, queues in memory) or 'memory', for logs. */
  kind: 'redis' | 'file' | 'memory';
  /** Redis: the connection is up and ready for commands (node-redis reconnects by itself); memory/file: always. */
  connected(): boolean;
  close(): Promise<void>;
}

export interface StoreTarget {
  redisUrl?: string;
  /** Redis Cluster seed URLs (comma-separated or a list); win over `redisUrl`. */
  redisClusterUrls?: string | string[];
  /** SNAPSHOT_REPLICAS: replicas confirming each snapshot write before it resolves. */
  snapshotReplicas?: number;
  snapshotReplicaTimeoutMs?: number;
  /** SNAPSHOT_WRITE_GAP_MS: at most one coalesced snapshot write per this many ms. */
  snapshotWriteGapMs?: number;
  namespace?: string;
  /** Without Redis: keep room snapshots in this folder (kept across restarts) instead of in memory. */
  snapshotDir?: string;
  onError?: (err: unknown) => void;
}

const envList = (v: string | string[] | undefined) =>
  (Array.isArray(v) ? v : (v ?? '').split(',')).map((s) => s.trim()).filter(Boolean);

/**
 * Redis-backed stores (one shared connection) on a Redis Cluster when `redisClusterUrls` (or
 * REDIS_CLUSTER_URLS) is set, else on the single Redis of `redisUrl` (or REDIS_URL), else in-memory
 * ones, with the snapshots on disk when `snapshotDir` is given (quick-match queues are not worth keeping).
 */
export async function createStores(target: StoreTarget = {}): Promise<Stores> {
  const url = target.redisUrl ?? process.env.REDIS_URL ?? '';
  const clusterUrls = envList(target.redisClusterUrls ?? process.env.REDIS_CLUSTER_URLS);
  const ns = target.namespace ?? process.env.JOKE_NAMESPACE ?? '';
  const replicas = target.snapshotReplicas ?? Number(process.env.SNAPSHOT_REPLICAS || 0);
  const timeoutMs = target.snapshotReplicaTimeoutMs ?? Number(process.env.SNAPSHOT_REPLICA_TIMEOUT_MS || 500);
  const writeGapMs = target.snapshotWriteGapMs ?? Number(process.env.SNAPSHOT_WRITE_GAP_MS ?? 1);
  if (!url && clusterUrls.length === 0) {
    const snapshots = target.snapshotDir ? new FileSnapshotStore(target.snapshotDir) : new MemorySnapshotStore();
    const match = new MemoryMatchStore();
    return {
      snapshots,
      match,
      kind: target.snapshotDir ? 'file' : 'memory',
      connected: () => true,
      close: () => snapshots.close(),
    };
  }
  const conn = await connectRedisConn({ url, clusterUrls, onError: target.onError });
  const prefix = ns ? `joke:${ns}` : 'joke';
  return {
    snapshots: new RedisSnapshotStore(conn, prefix, { confirm: { replicas, timeoutMs }, writeGapMs }),
    match: new RedisMatchStore(conn, prefix),
    kind: 'redis',
    connected: () => conn.connected(),
    close: () => conn.close(),
  };
}
