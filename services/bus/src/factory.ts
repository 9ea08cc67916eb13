/**
 * Picks the real backends when their URLs are set and the in-process ones
 * otherwise, so one code path serves `npm start` (one process, nothing to
 * install) and a cluster of services over NATS and Redis.
 */
import { z } from 'zod';
import { InProcessBus } from './in-process.ts';
import { NatsBus } from './nats.ts';
import { bool, opt } from './ops/config.ts';
import { FileSnapshotStore } from './store/file.ts';
import { MemoryMatchStore, MemorySnapshotStore } from './store/memory.ts';
import { connectRedisConn, RedisMatchStore, RedisSnapshotStore } from './store/redis.ts';
import type { MatchStore, SnapshotStore } from './store/types.ts';
import type { Bus } from './types.ts';

const namespace = z.string().regex(/^[A-Za-z0-9_-]{0,64}$/, 'letters, digits, _ and - only');

/** Options every service shares; each service spreads them into its own config with its own defaults. */
export const connectionOptions = (defaults: { natsUrl: string; redisUrl: string }) => ({
  natsUrl: opt(
    'NATS_URL',
    z.string(),
    defaults.natsUrl,
    'NATS server URL(s), comma-separated. Empty = in-process bus (only meaningful in the single-process platform).',
  ),
  redisUrl: opt(
    'REDIS_URL',
    z.string(),
    defaults.redisUrl,
    'Redis URL for room snapshots, leases and quick-match queues. Empty = in-memory stores (single process only).',
  ),
  redisClusterUrls: opt(
    'REDIS_CLUSTER_URLS',
    z.string(),
    '',
    'Seed nodes of a Redis Cluster (comma-separated redis:// URLs); set, it is used instead of REDIS_URL.',
  ),
  snapshotReplicas: opt(
    'SNAPSHOT_REPLICAS',
    z.coerce.number().int().min(0).max(10),
    0,
    'Replicas that must confirm each room snapshot (Redis WAIT) before its actions are acknowledged; 0 = primary only.',
  ),
  snapshotReplicaTimeoutMs: opt(
    'SNAPSHOT_REPLICA_TIMEOUT_MS',
    z.coerce.number().int().min(1),
    500,
    'How long a snapshot write waits for SNAPSHOT_REPLICAS confirmations; unconfirmed, it is retried and not acknowledged.',
  ),
  snapshotWriteGapMs: opt(
    'SNAPSHOT_WRITE_GAP_MS',
    z.coerce.number().int().min(0).max(50),
    1,
    'At most one coalesced snapshot write to Redis per this many ms (0 = every event-loop turn); fewer writes under load, each ack up to this much later.',
  ),
  natsWriteGapMs: opt(
    'NATS_WRITE_GAP_MS',
    z.coerce.number().int().min(0).max(50),
    1,
    'At most one socket write to NATS per this many ms (0 = every event-loop turn); fewer writes under load, each message up to this much later.',
  ),
  jetstreamCreateStreams: opt(
    'JETSTREAM_CREATE_STREAMS',
    bool(),
    true,
    'Create the durable-event streams and consumers on first use. 0 when the NATS user may not (the chart with bundled.nats.auth: its joke-streams hook Job creates them).',
  ),
  namespace: opt(
    'JOKE_NAMESPACE',
    namespace,
    '',
    'Prefix of every NATS subject and Redis key, so several deployments or test runs can share one NATS and one Redis.',
  ),
  logLevel: opt(
    'LOG_LEVEL',
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    'info',
    'pino log level.',
  ),
});

export interface BusTarget {
  natsUrl?: string;
  namespace?: string;
  /** Connection name shown by the NATS server (monitoring). */
  name?: string;
  onHandlerError?: (err: unknown, subject: string) => void;
}

/** NATS when `natsUrl` (or NATS_URL) is set, else a fresh in-process bus. */
export async function createBus(target: BusTarget = {}): Promise<Bus> {
  const url = target.natsUrl ?? process.env.NATS_URL ?? '';
  const prefix = target.namespace ?? process.env.JOKE_NAMESPACE ?? '';
  if (url) return NatsBus.connect(url, { prefix, name: target.name, onHandlerError: target.onHandlerError });
  return new InProcessBus({ prefix, onHandlerError: target.onHandlerError });
}

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
