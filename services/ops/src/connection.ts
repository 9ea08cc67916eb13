/**
 * The connection settings every service reads (NATS, Redis, the namespace, the log level): declared once
 * here so each service spreads the same options, with its own defaults, into its own config.
 */
import { z } from 'zod';
import { bool, opt } from './config.ts';

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
