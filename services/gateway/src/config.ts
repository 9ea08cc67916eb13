/**
 * Gateway configuration: one zod schema gives every option its default, and
 * `configFromEnv` maps the documented environment variables onto it.
 */
import { hostname } from 'node:os';
import { z } from 'zod';
import { LIMITS } from '@joke/protocol';

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
   * the room's restore elsewhere) before the client gets `error unavailable`.
   */
  retryBudgetMs: z.number().int().positive().default(10_000),
  heartbeatMs: z.number().int().positive().default(2_000),
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
  /** Seconds without traffic before uWS closes a socket; it pings automatically in between. */
  idleTimeoutSec: z.number().int().min(8).default(60),
  /** A socket that has not said a valid `hello` by then is closed. */
  helloTimeoutMs: z.number().int().positive().default(10_000),
  /** Messages held while a `hello` token is being verified (clients may pipeline hello+join). */
  maxPendingBeforeAuth: z.number().int().positive().default(16),
});
export type GatewayConfig = z.infer<typeof GatewayConfig>;
export type GatewayConfigInput = z.input<typeof GatewayConfig>;

/** Environment of the standalone gateway (`npm start -w services/gateway`). */
export const GatewayEnv = z.object({
  GATEWAY_ID: z.string().optional(),
  HOST: z.string().optional(),
  PORT: z.coerce.number().int().optional(),
  NATS_URL: z.string().default('nats://127.0.0.1:4222'),
  JWT_SECRET: z.string().min(16),
  GATEWAY_MAX_FRAME_BYTES: z.coerce.number().int().optional(),
  GATEWAY_HARD_MAX_FRAME_BYTES: z.coerce.number().int().optional(),
  GATEWAY_RATE_PER_SECOND: z.coerce.number().optional(),
  GATEWAY_RATE_BURST: z.coerce.number().int().optional(),
  GATEWAY_COMMAND_TIMEOUT_MS: z.coerce.number().int().optional(),
  GATEWAY_RETRY_BUDGET_MS: z.coerce.number().int().optional(),
  GATEWAY_HEARTBEAT_MS: z.coerce.number().int().optional(),
  GATEWAY_MAX_BACKPRESSURE_BYTES: z.coerce.number().int().optional(),
  GATEWAY_IDLE_TIMEOUT_SEC: z.coerce.number().int().optional(),
  GATEWAY_HELLO_TIMEOUT_MS: z.coerce.number().int().optional(),
  LOG_LEVEL: z.string().default('info'),
});

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): {
  config: GatewayConfig;
  natsUrl: string;
  logLevel: string;
} {
  const e = GatewayEnv.parse(env);
  const config = GatewayConfig.parse({
    gatewayId: e.GATEWAY_ID,
    host: e.HOST,
    port: e.PORT,
    jwtSecret: e.JWT_SECRET,
    maxFrameBytes: e.GATEWAY_MAX_FRAME_BYTES,
    hardMaxFrameBytes: e.GATEWAY_HARD_MAX_FRAME_BYTES,
    ratePerSecond: e.GATEWAY_RATE_PER_SECOND,
    rateBurst: e.GATEWAY_RATE_BURST,
    commandTimeoutMs: e.GATEWAY_COMMAND_TIMEOUT_MS,
    retryBudgetMs: e.GATEWAY_RETRY_BUDGET_MS,
    heartbeatMs: e.GATEWAY_HEARTBEAT_MS,
    maxBackpressureBytes: e.GATEWAY_MAX_BACKPRESSURE_BYTES,
    idleTimeoutSec: e.GATEWAY_IDLE_TIMEOUT_SEC,
    helloTimeoutMs: e.GATEWAY_HELLO_TIMEOUT_MS,
  });
  return { config, natsUrl: e.NATS_URL, logLevel: e.LOG_LEVEL };
}
