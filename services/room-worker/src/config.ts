/** Room worker options: environment variable, default and meaning of each, in one place. */
import { hostname } from 'node:os';
import { z } from 'zod';
import { CHAT_LIMITS } from '@joke/protocol';
import { connectionOptions, defineConfig, int, opt, type ConfigOf, livenessOptions } from '@joke/ops';
import { tracingOptions } from '@joke/bus/tracing';

/**
 * The per-room chat budget (chat.ts, issue 36), apart so `npm start` (services/platform) spreads the
 * same variables into its own configuration.
 */
export const chatBudgetOptions = {
  chatRatePerSecond: opt(
    'ROOM_CHAT_RATE_PER_SECOND',
    int(1, 1_000),
    CHAT_LIMITS.roomRatePerSecond,
    'Chat lines one room relays per second, all senders together (sustained); a line past it is refused to its sender with chatRoomBusy.',
  ),
  chatBurst: opt(
    'ROOM_CHAT_BURST',
    int(1, 10_000),
    CHAT_LIMITS.roomBurst,
    'Chat lines one room may relay at once before ROOM_CHAT_RATE_PER_SECOND applies.',
  ),
  chatPlayerReserve: opt(
    'ROOM_CHAT_PLAYER_RESERVE',
    int(0, 10_000),
    CHAT_LIMITS.roomPlayerReserve,
    "Of the room's chat budget, this many lines only players may take: a spectator's line needs more than this left, so spectators are refused first (ROOM_CHAT_BURST or more = spectators never chat).",
  ),
};

export const workerConfig = defineConfig({
  shard: opt('SHARD', int(0, 1_000_000), 0, 'Shard number (e.g. the StatefulSet ordinal); reported to the matchmaker.'),
  workerId: opt(
    'WORKER_ID',
    z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    () => `worker-${hostname().replace(/[^A-Za-z0-9_-]/g, '')}-${process.env.SHARD ?? '0'}`.slice(0, 64),
    'Stable id of this worker; its open-room subject is joke.v1.worker.<id>.open. Default: worker-<host>-<SHARD>.',
  ),
  ...connectionOptions({ natsUrl: 'nats://127.0.0.1:4222', redisUrl: 'redis://127.0.0.1:6379' }),
  ...tracingOptions('joke-room-worker'),
  heartbeatMs: opt(
    'HEARTBEAT_MS',
    int(50, 60_000),
    500,
    'Heartbeat (load + room list) period. Matchmakers declare the worker dead after DEAD_AFTER_MS of silence.',
  ),
  leaseTtlMs: opt(
    'LEASE_TTL_MS',
    int(500, 600_000),
    15_000,
    'Room lease lifetime without renewal. Every snapshot write renews it.',
  ),
  leaseRenewMs: opt(
    'LEASE_RENEW_MS',
    int(100, 600_000),
    5_000,
    'How often leases of rooms without a recent write are renewed (batched in one script per 500 rooms).',
  ),
  botDelayMs: opt('BOT_DELAY_MS', int(0, 60_000), 900, 'Minimum think time of a bot seat before it acts.'),
  botJitterMs: opt(
    'BOT_JITTER_MS',
    int(0, 60_000),
    700,
    'Extra random think time of a bot seat (uniform 0..this), so bots feel human.',
  ),
  queueMax: opt(
    'ROOM_QUEUE_MAX',
    int(1, 10_000),
    64,
    'Items (commands, joins, timers) waiting per room; beyond it commands are refused as busy.',
  ),
  batchMax: opt(
    'ROOM_BATCH_MAX',
    int(1, 1_000),
    16,
    'Queued items applied together and persisted in one snapshot write (group commit).',
  ),
  snapshotBaseSteps: opt(
    'SNAPSHOT_BASE_STEPS',
    int(0, 10_000),
    16,
    'Record steps a snapshot write may carry without the whole room: the whole snapshot is written again once this many steps followed it (and on any seat or viewer change), so a restore replays at most this many. 0 = every write whole, in the layout workers from before this option read.',
  ),
  finishedLingerMs: opt(
    'FINISHED_LINGER_MS',
    int(0, 86_400_000),
    60_000,
    'How long a finished room stays for late viewers before it is dropped.',
  ),
  awayAfterTimeouts: opt(
    'AWAY_AFTER_TIMEOUTS',
    int(1, 100),
    3,
    'Consecutive timeouts after which a seat is shown as away ("자리 비움", one-card §8.5).',
  ),
  gatewayDeadAfterMs: opt(
    'GATEWAY_DEAD_AFTER_MS',
    int(100, 600_000),
    10_000,
    'A gateway silent for this long is gone: its viewers are removed from every room.',
  ),
  maxSpectators: opt(
    'ROOM_MAX_SPECTATORS',
    int(1, 100_000),
    500,
    'Spectator entries per room; at the cap departed ones are forgotten first, then joins are refused (spectatorsFull).',
  ),
  viewerGraceMs: opt(
    'VIEWER_GRACE_MS',
    int(0, 86_400_000),
    30_000,
    'How long a viewer whose socket is gone stays in the room (and its snapshot) before it is forgotten.',
  ),
  ...chatBudgetOptions,
  maxRooms: opt(
    'MAX_ROOMS',
    int(1, 10_000_000),
    20_000,
    'Rooms this worker accepts; further opens are refused so the matchmaker places them elsewhere.',
  ),
  admitMaxLagMs: opt(
    'ADMIT_MAX_LAG_MS',
    int(0, 600_000),
    1_000,
    'Event-loop delay (p99 over a heartbeat) above which this worker opens no new room (refused with code capacity; restores still go). 0 = no limit.',
  ),
  admitMaxQueued: opt(
    'ADMIT_MAX_QUEUED',
    int(0, 100_000_000),
    5_000,
    'Items (commands, joins, timers) waiting across all its rooms above which this worker opens no new room. 0 = no limit.',
  ),
  admitMaxCpu: opt(
    'ADMIT_MAX_CPU',
    z.coerce.number().min(0).max(64),
    0,
    'CPU budget of this process (1 = one core): past it over a heartbeat it opens no new room, and under it it takes only the rooms the budget left still holds at the CPU a live table costs (its CPU over its rooms with a connected player: tables playing out on substitutes cost far less and are not averaged in). Set it to the share of a core the worker may use (e.g. 0.8 of its CPU limit). 0 = no limit (the default: in one process with the gateway, as in embedded mode, it counts their CPU too).',
  ),
  admitMaxOpensPerS: opt(
    'ADMIT_MAX_OPENS_PER_S',
    int(0, 1_000_000),
    0,
    'New rooms this worker opens a second at most (its headroom per heartbeat is this share of it, at least 1): when many tables end at once and a long quick-match line waits, the freed room is filled over seconds, not in one burst that the tables still playing feel as late views. Restores are not counted. 0 = no limit.',
  ),
  intakeDeferQueued: opt(
    'INTAKE_DEFER_QUEUED',
    int(0, 100_000_000),
    1_000,
    'Items (commands, timers, joins) waiting across all its rooms above which new rooms (opens) and viewers entering a room (joins) wait behind the commands of the tables already playing (refused with code capacity after INTAKE_DEFER_WAIT_MS). 0 = never by queue depth.',
  ),
  intakeDeferLagMs: opt(
    'INTAKE_DEFER_LAG_MS',
    int(0, 600_000),
    1_000,
    'Event-loop delay (as admission reads it, ADMIT_MAX_LAG_MS) above which opens and joins wait behind the commands of the tables already playing. 0 = never by loop delay.',
  ),
  intakeDeferMax: opt(
    'INTAKE_DEFER_MAX',
    int(0, 1_000_000),
    256,
    'Opens and joins that may wait at once while the worker is behind; one more is refused at once with code capacity.',
  ),
  intakeDeferWaitMs: opt(
    'INTAKE_DEFER_WAIT_MS',
    int(0, 600_000),
    2_000,
    "How long a deferred open or join waits for the worker to catch up before it is refused with code capacity (an open's own deadline, if sooner, counts).",
  ),
  drainTimeoutMs: opt(
    'DRAIN_TIMEOUT_MS',
    int(0, 600_000),
    30_000,
    'On SIGTERM, how long to keep trying to hand rooms over before releasing their leases and exiting.',
  ),
  opsHost: opt('OPS_HOST', z.string(), '127.0.0.1', 'Bind address of the ops HTTP server (/healthz /readyz /metrics).'),
  opsPort: opt('OPS_PORT', int(0, 65535), 9101, 'Port of the ops HTTP server; 0 picks a free one.'),
  ...livenessOptions(),
});

export type WorkerConfig = ConfigOf<typeof workerConfig.spec>;

/** Every option table the room worker reads (the chart's every-option test and README walk these). */
export const workerOptionTables = [workerConfig];
