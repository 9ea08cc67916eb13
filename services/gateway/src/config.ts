/**
 * Gateway configuration, defined once: GatewayConfig (one zod schema) gives every option its range and
 * default, and `gatewayEnv` only names the environment variable of each (`fromConfig`), with the few
 * defaults a standalone process has of its own (its id, the lobby access check). startGateway parses it
 * once and passes the parsed object to every part. A bad value stops a standalone gateway with the
 * variable's name (ConfigError); a bad programmatic value throws from startGateway.
 */
import { hostname } from 'node:os';
import { z } from 'zod';
import { LIMITS } from '@joke/protocol';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';
import {
  bool,
  ConfigError,
  connectionOptions,
  defineConfig,
  int,
  livenessOptions,
  opt,
  type EnvOption,
} from '@joke/ops';
import { games, socketIdleTimeoutSec } from '@joke/engine';
import { tracingOptions } from '@joke/bus/tracing';
import { shutdownEnv } from './shutdown-config.ts';

/** A silently dead client is noticed within the shortest disconnection rule of any game (hula §8.5: 30 s). */
export const GAME_IDLE_TIMEOUT_SEC = socketIdleTimeoutSec(Object.values(games));

export const GatewayConfig = z.object({
  /** Unique per gateway process: the subject `joke.v1.gw.<id>.*` carries its deliveries. */
  gatewayId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .default(() => `gw-${hostname().replace(/[^A-Za-z0-9_-]/g, '')}-${process.pid}`.slice(0, 64)),
  host: z.string().default('127.0.0.1'),
  /** 0 picks a free port (tests, embedded mode); the bound port is returned by startGateway. */
  port: z.number().int().min(0).max(65535).default(8081),
  /** HS256 secret shared with the lobby that signs player tokens. */
  jwtSecret: z.string().min(16),
  /** Largest client frame answered with a normal reply; bigger ones get `error tooLarge`. */
  maxFrameBytes: z.number().int().min(256).default(LIMITS.maxClientFrameBytes),
  /**
   * Frames above this are cut off by uWS itself (socket closed with 1009) before
   * they reach JS, so an attacker cannot make the gateway buffer megabytes.
   */
  hardMaxFrameBytes: z
    .number()
    .int()
    .min(1024)
    .default(LIMITS.maxClientFrameBytes * 16),
  ratePerSecond: z.number().positive().default(LIMITS.ratePerSecond),
  rateBurst: z.number().int().positive().default(LIMITS.rateBurst),
  /** One attempt's wait for a room worker; a timed-out attempt is retried with the same actionId. */
  commandTimeoutMs: z.number().int().positive().default(LIMITS.commandTimeoutMs),
  /**
   * Total time an action or join keeps being retried (covers a worker crash and
   * the room's restore elsewhere) before the client gets `error unavailable`
   * (an action) or `error capacity` (a join whose worker was too slow).
   */
  retryBudgetMs: z.number().int().positive().default(10_000),
  /** Retries this gateway may make per first try, per priority (@joke/bus RetryBudget; requests.ts). */
  retryRatio: z.number().min(0).max(10).default(0.1),
  /** Retries a quiet gateway may always make (its budget's floor), for the odd failure. */
  retryFloor: z.number().int().min(0).default(50),
  /**
   * Ask room workers for this gateway's frames of an accepted action in the command's reply
   * (RoomCommand.framesInReply): one bus message and one socket write to the actor less per action.
   * Off: plain replies and a separate delivery (what an older gateway gets).
   */
  framesInReply: z.boolean().default(true),
  heartbeatMs: z.number().int().min(100).default(2_000),
  /**
   * A room's worker silent for this long (no heartbeat; workers beat every 500 ms by default)
   * is presumed dead: requests in flight to it are retried at once instead of waiting out
   * commandTimeoutMs, which shortens the pause after a crash.
   */
  ownerSilentMs: z.number().int().min(100).default(1_000),
  /**
   * Per-socket send buffer bound. A viewer whose unsent bytes pass this is a slow
   * consumer and is disconnected (it resumes by reconnecting) instead of making the
   * gateway hold an unbounded backlog. 256 KiB ≈ 100 full 2.5 KB views.
   */
  maxBackpressureBytes: z
    .number()
    .int()
    .min(16 * 1024)
    .default(256 * 1024),
  /** Event-loop delay (ms, p99 over a heartbeat) past which spectator frames and presence notices are shed (shed.ts); 0 = never. */
  shedLoopLagMs: z.number().int().min(0).max(600_000).default(500),
  /** p95 command round trip (ms, over half a second) past which quick match is refused (late-commands.ts); 0 = never. */
  admitMaxCommandMs: z.number().int().min(0).max(600_000).default(0),
  /** Unsent bytes of one socket past which its presence notices wait and its spectating pauses (shed.ts); 0 = never. */
  shedBufferedBytes: z
    .number()
    .int()
    .min(0)
    .default(64 * 1024),
  /**
   * Seconds without traffic before uWS closes a socket; it pings automatically in between.
   * Default: from the games' disconnection rules (hula: 30 s → 28 s, @joke/engine socketIdleTimeoutSec).
   */
  idleTimeoutSec: z.number().int().min(8).default(GAME_IDLE_TIMEOUT_SEC),
  /** A socket that has not said a valid `hello` by then is closed. */
  helloTimeoutMs: z.number().int().positive().default(10_000),
  /**
   * Rooms one socket may be in (joined or joining). Bounds what one client can make the gateway
   * hold and retry: a join to a room nobody serves is retried for retryBudgetMs.
   */
  maxRoomsPerSocket: z.number().int().positive().default(8),
  /** Messages held while a `hello` token is being verified (clients may pipeline hello+join). */
  maxPendingBeforeAuth: z.number().int().positive().default(16),
  /** Sockets one user may hold on this gateway (0 = no limit); limits.ts. */
  maxSocketsPerUser: z.number().int().min(0).default(8),
  /** Sockets one client address may hold on this gateway (0 = no limit); refused at the upgrade with 429. */
  maxSocketsPerIp: z.number().int().min(0).default(256),
  /**
   * Sockets this gateway holds at most; more are refused at the upgrade (503, body `capacity`). 0 = from the
   * process's open-file limit less a reserve (socket-capacity.ts), no limit where that cannot be read.
   */
  maxSockets: z.number().int().min(0).default(0),
  /** Requests (join, action, chat, quick-match) of one socket still waiting for an answer (0 = no limit). */
  maxPendingPerSocket: z.number().int().min(0).default(16),
  /**
   * 'lobby' = ask the lobby before every join whether the user may watch or play that game (private rooms:
   * members only; access.ts); 'open' = no check (stacks without a lobby: load tests, the bare platform).
   */
  roomAccess: z.enum(['lobby', 'open']).default('open'),
  /** 0 = count sockets against the TCP peer; n = the n-th X-Forwarded-For entry from the end (n trusted proxies). */
  trustProxyHops: z.number().int().min(0).max(10).default(0),
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;
export type GatewayConfigInput = z.input<typeof GatewayConfig>;

type Shape = typeof GatewayConfig.shape;
/** The options GatewayConfig gives a default (all but the secret). */
type Defaulted = { [K in keyof Shape]: Shape[K] extends z.ZodDefault ? K : never }[keyof Shape];

/**
 * The variable of GatewayConfig's option `key`, read with that option's own range and default: an option
 * is defined once, in GatewayConfig, and the environment only names it (numbers and booleans come as text).
 * `standalone`: the default of a process started on its own, where it differs from an embedded gateway's.
 */
function fromConfig<K extends Defaulted>(
  key: K,
  env: string,
  doc: string,
  standalone?: GatewayConfig[K],
): EnvOption<GatewayConfig[K]> {
  const field: z.ZodDefault<z.ZodType> = GatewayConfig.shape[key];
  const inner = field.unwrap();
  const fromText =
    inner instanceof z.ZodNumber ? z.coerce.number().pipe(inner) : inner instanceof z.ZodBoolean ? bool() : inner;
  const def = standalone ?? field.def.defaultValue;
  return opt(env, fromText as z.ZodType<GatewayConfig[K]>, def as GatewayConfig[K], doc);
}

/**
 * Environment of the standalone gateway (`npm start -w services/gateway`), one
 * variable per option with its default and meaning (`describe()` prints the table
 * that docs/configuration.md shows). Unset variables keep GatewayConfig's defaults.
 */
// The gateway keeps no store: the Redis options (URL, cluster seeds, snapshot replicas) are not its own.
const {
  redisUrl: _url,
  redisClusterUrls: _cluster,
  snapshotReplicas: _replicas,
  snapshotReplicaTimeoutMs: _replicaTimeout,
  snapshotWriteGapMs: _writeGap,
  ...connection
} = connectionOptions({ natsUrl: 'nats://127.0.0.1:4222', redisUrl: '' });
export const gatewayEnv = defineConfig({
  ...connection,
  gatewayId: opt('GATEWAY_ID', z.string(), '', 'Unique gateway id (default gw-<host>-<pid>); names its NATS subjects.'),
  host: fromConfig('host', 'HOST', 'Interface to listen on (0.0.0.0 behind a load balancer).'),
  port: fromConfig('port', 'PORT', 'Public port: WebSocket /ws (and GET /healthz /readyz, never /metrics).'),
  opsHost: opt('OPS_HOST', z.string(), '127.0.0.1', 'Bind address of the ops HTTP server (/healthz /readyz /metrics).'),
  opsPort: opt(
    'OPS_PORT',
    int(0, 65535),
    9103,
    'Port of the ops HTTP server, apart from the public one so no Ingress routes /metrics; 0 picks a free one.',
  ),
  ...livenessOptions(),
  ...tracingOptions('joke-gateway'),
  jwtSecret: opt(
    'JWT_SECRET',
    z.string().min(16),
    '',
    'HS256 secret shared with the lobby. Required unless NODE_ENV=development (which alone falls back to the published development secret).',
  ),
  maxFrameBytes: fromConfig('maxFrameBytes', 'GATEWAY_MAX_FRAME_BYTES', 'Larger client frames get error tooLarge.'),
  hardMaxFrameBytes: fromConfig(
    'hardMaxFrameBytes',
    'GATEWAY_HARD_MAX_FRAME_BYTES',
    'Larger frames close the socket (1009) inside uWS.',
  ),
  ratePerSecond: fromConfig('ratePerSecond', 'GATEWAY_RATE_PER_SECOND', 'Token bucket refill, messages/s per socket.'),
  rateBurst: fromConfig('rateBurst', 'GATEWAY_RATE_BURST', 'Token bucket size per socket.'),
  commandTimeoutMs: fromConfig('commandTimeoutMs', 'GATEWAY_COMMAND_TIMEOUT_MS', 'Wait for a room worker per attempt.'),
  retryBudgetMs: fromConfig(
    'retryBudgetMs',
    'GATEWAY_RETRY_BUDGET_MS',
    'Total retry time of an action/join (same actionId) before it gives up: an action with error unavailable (the client sends it again), a join whose room worker was too slow with error capacity (the client joins again).',
  ),
  retryRatio: fromConfig(
    'retryRatio',
    'GATEWAY_RETRY_RATIO',
    "Retries per first try over the whole gateway, in two budgets: the commands of playing tables, and admission (clients' joins, quick-match requests), so a storm of joins never spends the commands' retries; past it a timed-out attempt gives up at once (an action: unavailable; a join or quick match: capacity).",
  ),
  retryFloor: fromConfig(
    'retryFloor',
    'GATEWAY_RETRY_FLOOR',
    'Retries a quiet gateway may always make (the retry budget floor).',
  ),
  framesInReply: fromConfig(
    'framesInReply',
    'GATEWAY_FRAMES_IN_REPLY',
    "An accepted action's frames for this gateway come in the command's reply (off: as a separate delivery).",
  ),
  heartbeatMs: fromConfig('heartbeatMs', 'GATEWAY_HEARTBEAT_MS', 'Gateway heartbeat period.'),
  ownerSilentMs: fromConfig(
    'ownerSilentMs',
    'GATEWAY_OWNER_SILENT_MS',
    'Worker heartbeat silence after which in-flight requests to its rooms are retried at once.',
  ),
  maxBackpressureBytes: fromConfig(
    'maxBackpressureBytes',
    'GATEWAY_MAX_BACKPRESSURE_BYTES',
    'Unsent bytes per socket before it is dropped as a slow consumer.',
  ),
  shedLoopLagMs: fromConfig(
    'shedLoopLagMs',
    'GATEWAY_SHED_LOOP_LAG_MS',
    "Event-loop delay (p99 over a heartbeat) past which the gateway sheds first: spectator frames are dropped (spectators join again once it passed) and players' presence notices wait for their next view; players' views still go. 0 = never.",
  ),
  admitMaxCommandMs: fromConfig(
    'admitMaxCommandMs',
    'GATEWAY_ADMIT_MAX_COMMAND_MS',
    "Round trip of players' moves (p95 over half a second, gateway to room worker and back) past which this gateway refuses quick match at once (queueRejected, refusal capacity: the client's 'try later'), so new tables do not slow the tables already playing. Needs 20 moves in the half second to judge. 0 = never (the default: admission is then the workers' headroom).",
  ),
  shedBufferedBytes: fromConfig(
    'shedBufferedBytes',
    'GATEWAY_SHED_BUFFERED_BYTES',
    "Unsent bytes of one socket past which its presence notices wait for its next view and, if it spectates, it leaves the room's frames until it drained (then joins again). Below GATEWAY_MAX_BACKPRESSURE_BYTES, so shedding comes before dropping the socket. 0 = never.",
  ),
  idleTimeoutSec: fromConfig(
    'idleTimeoutSec',
    'GATEWAY_IDLE_TIMEOUT_SEC',
    "Idle seconds before uWS closes a socket (it pings in between); default from the games' disconnection rules.",
  ),
  maxRoomsPerSocket: fromConfig(
    'maxRoomsPerSocket',
    'GATEWAY_MAX_ROOMS_PER_SOCKET',
    'Rooms one socket may be in at once.',
  ),
  helloTimeoutMs: fromConfig(
    'helloTimeoutMs',
    'GATEWAY_HELLO_TIMEOUT_MS',
    'Time a new socket has to send a valid hello.',
  ),
  maxSocketsPerUser: fromConfig(
    'maxSocketsPerUser',
    'GATEWAY_MAX_SOCKETS_PER_USER',
    'Sockets one user may hold on this gateway; more get error tooManySockets and close 4429. 0 = no limit.',
  ),
  maxSocketsPerIp: fromConfig(
    'maxSocketsPerIp',
    'GATEWAY_MAX_SOCKETS_PER_IP',
    'Sockets one client address may hold on this gateway; more are refused at the upgrade (429). 0 = no limit.',
  ),
  maxSockets: fromConfig(
    'maxSockets',
    'GATEWAY_MAX_SOCKETS',
    "Sockets this gateway holds at most; more are refused at the upgrade (503 with body capacity, the client tries later), so that a crowd past what the process can hold never costs it the sockets it has. 0 = the process's open-file limit less 1,024 (a quarter of a limit under 4,096; read from /proc/self/limits, no limit where it cannot be read).",
  ),
  maxPendingPerSocket: fromConfig(
    'maxPendingPerSocket',
    'GATEWAY_MAX_PENDING_PER_SOCKET',
    'Requests of one socket still waiting for an answer; more get error tooManyPending. 0 = no limit.',
  ),
  // A process started on its own runs next to a lobby (private rooms); an embedded or test stack may not.
  roomAccess: fromConfig(
    'roomAccess',
    'GATEWAY_ROOM_ACCESS',
    'lobby = ask the lobby before a join (private rooms: members only); open = no check (stacks without a lobby).',
    'lobby',
  ),
  trustProxyHops: fromConfig(
    'trustProxyHops',
    'GATEWAY_TRUST_PROXY_HOPS',
    'Which address a socket counts against: 0 = the TCP peer; n = the n-th X-Forwarded-For entry from the end.',
  ),
});

export function configFromEnv(env: NodeJS.ProcessEnv = process.env) {
  const {
    natsUrl,
    namespace,
    logLevel,
    gatewayId,
    opsHost,
    opsPort,
    livenessMaxLagMs,
    otlpEndpoint,
    otelServiceName,
    traceSampleRatio,
    ...rest
  } = gatewayEnv.fromEnv(env);
  // The published development secret only where development is said explicitly (as the lobby).
  const jwtSecret = rest.jwtSecret || (env.NODE_ENV === 'development' ? DEV_JWT_SECRET : '');
  if (!jwtSecret)
    throw new ConfigError(
      'JWT_SECRET is required (the lobby signs player tokens with it; only NODE_ENV=development has a default)',
    );
  if (env.NODE_ENV === 'production' && jwtSecret === DEV_JWT_SECRET)
    throw new ConfigError('JWT_SECRET must not be the published development secret in production');
  const config = GatewayConfig.parse({ ...rest, jwtSecret, gatewayId: gatewayId || undefined });
  return {
    config,
    natsUrl,
    namespace,
    logLevel,
    ops: { host: opsHost, port: opsPort, livenessMaxLagMs },
    tracing: { otlpEndpoint, otelServiceName, traceSampleRatio },
  };
}

/**
 * Every option table the gateway reads, for tools that must cover all of them (the chart's every-option
 * test, the chart README): an option in a table not listed here would go unnoticed by them.
 */
export const gatewayOptionTables = [gatewayEnv, shutdownEnv];
