/**
 * Picks the real backends when their URLs are set and the in-process ones
 * otherwise, so one code path serves `npm start` (one process, nothing to
 * install) and a cluster of services over NATS and Redis.
 */
import { z } from 'zod';
import { InProcessBus } from './in-process.ts';
import { NatsBus } from './nats.ts';
import { opt } from './ops/config.ts';
import { FileSnapshotStore } from './store/file.ts';
import { MemoryMatchStore, MemorySnapshotStore } from './store/memory.ts';
import { connectRedis, RedisMatchStore, RedisSnapshotStore } from './store/redis.ts';
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
  close(): Promise<void>;
}

export interface StoreTarget {
  redisUrl?: string;
  namespace?: string;
  /** Without Redis: keep room snapshots in this folder (kept across restarts) instead of in memory. */
  snapshotDir?: string;
  onError?: (err: unknown) => void;
}

/**
 * Redis-backed stores when `redisUrl` (or REDIS_URL) is set (one shared connection), else in-memory
 * ones, with the snapshots on disk when `snapshotDir` is given (quick-match queues are not worth keeping).
 */
export async function createStores(target: StoreTarget = {}): Promise<Stores> {
  const url = target.redisUrl ?? process.env.REDIS_URL ?? '';
  const ns = target.namespace ?? process.env.JOKE_NAMESPACE ?? '';
  if (!url) {
    const snapshots = target.snapshotDir ? new FileSnapshotStore(target.snapshotDir) : new MemorySnapshotStore();
    const match = new MemoryMatchStore();
    return { snapshots, match, kind: target.snapshotDir ? 'file' : 'memory', close: () => snapshots.close() };
  }
  const client = await connectRedis(url, target.onError);
  const prefix = ns ? `joke:${ns}` : 'joke';
  return {
    snapshots: new RedisSnapshotStore(client, prefix),
    match: new RedisMatchStore(client, prefix),
    kind: 'redis',
    close: async () => {
      if (client.isOpen) await client.close();
    },
  };
}
