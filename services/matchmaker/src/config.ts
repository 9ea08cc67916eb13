/** Matchmaker options: environment variable, default and meaning of each, in one place. */
import { hostname } from 'node:os';
import { z } from 'zod';
import { connectionOptions, defineConfig, int, opt, type ConfigOf, livenessOptions } from '@joke/ops';
import { autoRebalanceConfig } from './auto-rebalance-config.ts';

/**
 * The quick-match budgets (budgets.ts), apart so `npm start` (services/platform) spreads the same
 * variables into its own configuration, as it does with the lobby's limits.
 */
export const queueBudgetOptions = {
  queueRatePerUser: opt(
    'QUEUE_RATE_PER_USER',
    int(0, 1_000_000),
    30,
    'Quick-match requests one user may make per minute (0 = unlimited); cancels are not counted. Shared by every replica through Redis when REDIS_URL is set, else counted by each.',
  ),
  queueRatePerAddress: opt(
    'QUEUE_RATE_PER_ADDRESS',
    int(0, 1_000_000),
    120,
    'Quick-match requests from one client address (as the gateway counts it, see GATEWAY_TRUST_PROXY_HOPS) per minute, all its users together (0 = unlimited); cancels are not counted. Shared through Redis like QUEUE_RATE_PER_USER.',
  ),
  queueTablesPerAddress: opt(
    'QUEUE_TABLES_PER_ADDRESS',
    int(0, 1_000_000),
    60,
    'Quick-match tables that may start per minute seating users of one client address (a table counts once per address at it; 0 = unlimited). A request from a spent address is refused (addressTables); a user whose address ran out while a table formed is taken out of the queue and told so. Shared through Redis like QUEUE_RATE_PER_USER.',
  ),
};

export const matchmakerConfig = defineConfig({
  matchmakerId: opt(
    'MATCHMAKER_ID',
    z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    () => `mm-${hostname().replace(/[^A-Za-z0-9_-]/g, '')}-${process.pid}`.slice(0, 64),
    'Id of this replica (logs, claims). Replicas are interchangeable; any number may run.',
  ),
  ...connectionOptions({ natsUrl: 'nats://127.0.0.1:4222', redisUrl: 'redis://127.0.0.1:6379' }),
  deadAfterMs: opt(
    'DEAD_AFTER_MS',
    int(100, 600_000),
    1_500,
    'A worker whose heartbeats stop for this long is dead; its rooms are failed over.',
  ),
  probeMs: opt(
    'WORKER_PROBE_MS',
    int(0, 60_000),
    100,
    'How often each live worker is pinged on its own subject; "no responders" (its process or connection is gone) fails it over at once, without waiting for DEAD_AFTER_MS. 0 = heartbeats only.',
  ),
  probeTimeoutMs: opt(
    'WORKER_PROBE_TIMEOUT_MS',
    int(10, 60_000),
    1_000,
    'How long a ping waits for its answer. A ping that times out is no verdict: the heartbeat timeout judges a slow worker.',
  ),
  deadCheckMs: opt('DEAD_CHECK_MS', int(10, 60_000), 100, 'How often heartbeat ages are checked.'),
  orphanSweepMs: opt(
    'ORPHAN_SWEEP_MS',
    int(100, 3_600_000),
    5_000,
    'How often one replica looks for rooms whose lease lapsed with nobody running them (safety net behind heartbeats); on Redis it reads only the leases that came due.',
  ),
  orphanScanMs: opt(
    'ORPHAN_SCAN_MS',
    int(1_000, 86_400_000),
    600_000,
    'How often one replica walks every room instead (also at start): finds rooms the lease-expiry index lost in a store failover, and puts them back.',
  ),
  openTimeoutMs: opt(
    'OPEN_TIMEOUT_MS',
    int(50, 60_000),
    3_000,
    'Wait for a worker to create or restore a room before trying the next one.',
  ),
  openRetryRatio: opt(
    'OPEN_RETRY_RATIO',
    z.coerce.number().min(0).max(10),
    0.1,
    'Opens sent to another worker after one timed out, per first open (a retry budget per replica); past it the placement ends with its timeout.',
  ),
  capacityRooms: opt(
    'WORKER_CAPACITY_ROOMS',
    int(1, 10_000_000),
    10_000,
    'Rooms per worker counted as full load when weighting placement.',
  ),
  loadLevels: opt(
    'PLACEMENT_LOAD_LEVELS',
    int(1, 100),
    8,
    'Load is rounded to this many levels before weighting, so replicas with slightly different heartbeat timing still agree.',
  ),
  failoverStepShare: opt(
    'FAILOVER_STEP_SHARE',
    z.coerce.number().gt(0).max(1),
    0.25,
    "Share of a worker's rooms a failover moves per FAILOVER_STEP_MS; between steps a sign of life (heartbeat, ping answered, lease renewed) stops it. 1 = all at once.",
  ),
  failoverStepMs: opt(
    'FAILOVER_STEP_MS',
    int(0, 600_000),
    500,
    'Pause between two steps of a paced failover (FAILOVER_STEP_SHARE).',
  ),
  failoverConcurrency: opt('FAILOVER_CONCURRENCY', int(1, 10_000), 64, 'Rooms restored in parallel during a failover.'),
  queueStaleMs: opt(
    'QUEUE_STALE_MS',
    int(1_000, 86_400_000),
    600_000,
    'A quick-match entry older than this is dropped (its gateway may have died without cancelling).',
  ),
  ...queueBudgetOptions,
  queueBotFillMs: opt(
    'QUEUE_BOT_FILL_MS',
    int(0, 86_400_000),
    30_000,
    'After the oldest quick-match entry waited this long, bots take the seats still empty (0 = never; players may refuse bots).',
  ),
  queueGatewayHoldMs: opt(
    'QUEUE_GATEWAY_HOLD_MS',
    int(0, 60_000),
    500,
    'Quick match seats players who came through one gateway together, so each move reaches one gateway instead of several; a full queue without such a group waits at most this long after its oldest entry before seating across gateways (0 = always the oldest, wherever they are).',
  ),
  opsHost: opt('OPS_HOST', z.string(), '127.0.0.1', 'Bind address of the ops HTTP server (/healthz /readyz /metrics).'),
  opsPort: opt('OPS_PORT', int(0, 65535), 9102, 'Port of the ops HTTP server; 0 picks a free one.'),
  ...livenessOptions(),
});

export type MatchmakerConfig = ConfigOf<typeof matchmakerConfig.spec>;

/** Every option table the matchmaker reads (the chart's every-option test and README walk these). */
export const matchmakerOptionTables = [matchmakerConfig, autoRebalanceConfig];
