/** Options of the single-process platform (`npm start`). */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';
import { ConfigError, connectionOptions, defineConfig, int, opt, type ConfigOf } from '@joke/ops';
import { tracingOptions } from '@joke/bus/tracing';
import { lobbyLimitOptions } from '@joke/lobby/limits';
import { presenceOptions } from '@joke/lobby/presence';
import { queueBudgetOptions } from '@joke/matchmaker';
import { chatBudgetOptions, workerConfig } from '@joke/room-worker';

export const platformConfig = defineConfig({
  ...connectionOptions({ natsUrl: '', redisUrl: '' }),
  ...tracingOptions('joke-platform'),
  host: opt('HOST', z.string(), '127.0.0.1', 'Interface of the HTTP server (ops endpoints, lobby API, client files).'),
  port: opt(
    'PORT',
    int(0, 65535),
    8080,
    'Port of the HTTP server (client, lobby API, /healthz /readyz); 0 picks a free one.',
  ),
  opsHost: opt('OPS_HOST', z.string(), '127.0.0.1', 'Interface of the ops HTTP server (/healthz /readyz /metrics).'),
  opsPort: opt(
    'OPS_PORT',
    int(0, 65535),
    9100,
    'Port of the ops HTTP server: /metrics is served only here, never on the public PORT; 0 picks a free one.',
  ),
  gatewayHost: opt('GATEWAY_HOST', z.string(), '127.0.0.1', 'Interface of the WebSocket gateway.'),
  gatewayPort: opt(
    'GATEWAY_PORT',
    int(0, 65535),
    8081,
    'Port of the WebSocket gateway (ws://host:port/ws); 0 picks a free one.',
  ),
  publicGatewayUrl: opt(
    'PUBLIC_GATEWAY_URL',
    z.string().regex(/^(wss?:\/\/.+)?$/, 'ws:// or wss:// URL'),
    '',
    "Gateway WebSocket URL /config.json gives browsers (behind a proxy or TLS: wss://play.example.com/ws). Empty = ws://<the page's host>:<gateway port>/ws when that host is this machine (loopback, an interface address, its host name or <hostname>.local: LAN play), else ws://GATEWAY_HOST:<port>/ws.",
  ),
  jwtSecret: opt(
    'JWT_SECRET',
    z.string().min(16),
    // A fresh random secret per run: nothing published signs tokens a default install accepts.
    () => randomBytes(32).toString('base64url'),
    'HS256 secret the lobby signs player tokens with and the gateway checks. Unset = the one kept in DATA_DIR, or a random one per run in memory. The published development secret is refused when NODE_ENV=production.',
  ),
  operatorToken: opt(
    'OPERATOR_TOKEN',
    z.string().refine((s) => s === '' || s.length >= 16, 'at least 16 characters'),
    '',
    "Credential of the lobby's operator fair-play view (/operator and operator.fairplay, sent as a Bearer token); at least 16 characters. Empty = that view refuses everyone.",
  ),
  workerId: opt(
    'WORKER_ID',
    z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
    'worker-embedded',
    'Id of the embedded room worker.',
  ),
  databaseUrl: opt(
    'DATABASE_URL',
    z.union([z.literal(''), z.string().regex(/^postgres(ql)?:\/\//, 'postgresql://… URL')]),
    '',
    'PostgreSQL URL of the lobby (`?schema=name` picks the schema). Empty = embedded PGlite, no server needed.',
  ),
  dataDir: opt(
    'DATA_DIR',
    z.string(),
    '',
    'Data folder of a home install: the lobby database (PGlite, unless DATABASE_URL), room snapshots (unless REDIS_URL) and the token secret (unless JWT_SECRET) live here, so a restart keeps accounts, history and live tables. `npm start` uses `.data` when DATA_DIR is unset; `npm start -- --in-memory` or DATA_DIR= (empty) runs in memory and forgets everything on exit.',
  ),
  lobbyDataDir: opt(
    'LOBBY_DATA_DIR',
    z.string(),
    '',
    'PGlite data directory when DATABASE_URL is empty. Empty = DATA_DIR/lobby, or in memory without a DATA_DIR (rooms and history are lost on exit).',
  ),
  clientDir: opt('CLIENT_DIR', z.string(), '', 'Built client to serve at /. Empty = client/dist of this checkout.'),
  botDelayMs: opt('BOT_DELAY_MS', int(0, 60_000), 900, 'Minimum think time of bot seats.'),
  botJitterMs: opt('BOT_JITTER_MS', int(0, 60_000), 700, 'Extra random think time of bot seats.'),
  ...lobbyLimitOptions,
  ...presenceOptions,
  // Quick-match budgets and the per-room chat budget: the same variables as the standalone services.
  ...queueBudgetOptions,
  ...chatBudgetOptions,
  // The embedded worker's capacity, the same variable as a standalone worker's: a tiny value shows the
  // full-fleet path (quick match keeps players queued, rooms.start refuses `capacity`) on one machine.
  maxRooms: workerConfig.spec.maxRooms,
});

export type PlatformConfig = ConfigOf<typeof platformConfig.spec>;

/** `npm start`'s configuration: the environment, refusing the public development secret in production. */
export function platformConfigFromEnv(env: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const config = platformConfig.fromEnv(env);
  if (env.NODE_ENV === 'production' && config.jwtSecret === DEV_JWT_SECRET)
    throw new ConfigError('JWT_SECRET must not be the published development secret in production');
  return config;
}
