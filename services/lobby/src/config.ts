/**
 * Environment of the standalone lobby (`npm start -w services/lobby`): one
 * variable per option with its default and meaning; `--help-config` prints
 * the table (also in docs/configuration.md). Defaults run with no server at
 * all: PGlite in memory and an in-process bus.
 */
import { z } from 'zod';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';
import {
  ConfigError,
  bool,
  connectionOptions,
  defineConfig,
  int,
  livenessOptions,
  opt,
  type ConfigOf,
} from '@joke/ops';
import { lobbyLimitOptions } from './limits/options.ts';
import { presenceOptions } from './rooms/presence.ts';

const { natsUrl, redisUrl, namespace, logLevel, jetstreamCreateStreams } = connectionOptions({
  natsUrl: '',
  redisUrl: '',
});

export const lobbyEnv = defineConfig({
  host: opt('HOST', z.string(), '0.0.0.0', 'Interface to listen on.'),
  port: opt('PORT', int(0, 65535), 8082, 'Public port: /trpc (the API), the client when served, /healthz and /readyz.'),
  opsHost: opt('OPS_HOST', z.string(), '127.0.0.1', 'Bind address of the ops HTTP server (/healthz /readyz /metrics).'),
  opsPort: opt(
    'OPS_PORT',
    int(0, 65535),
    9104,
    'Port of the ops HTTP server, apart from the public one so no Ingress routes /metrics; 0 picks a free one.',
  ),
  ...livenessOptions(),
  databaseUrl: opt(
    'DATABASE_URL',
    z.string().regex(/^postgres(ql)?:\/\//, 'postgresql://… URL'),
    '',
    'PostgreSQL URL; `?schema=name` picks the schema (created if missing). Empty = embedded PGlite.',
  ),
  dataDir: opt(
    'LOBBY_DATA_DIR',
    z.string(),
    '',
    'PGlite data directory when DATABASE_URL is empty. Empty = in memory (everything is lost on exit).',
  ),
  dbPoolSize: opt(
    'LOBBY_DB_POOL',
    int(1, 500),
    20,
    'PostgreSQL connections per lobby process. Keep replicas × this under the server max_connections.',
  ),
  jwtSecret: opt(
    'JWT_SECRET',
    z.string().min(16),
    DEV_JWT_SECRET,
    'HS256 secret shared with the gateway. Required unless NODE_ENV=development (which alone falls back to the published development secret); the development secret is refused when NODE_ENV=production.',
  ),
  operatorToken: opt(
    'OPERATOR_TOKEN',
    z.string().refine((s) => s === '' || s.length >= 16, 'at least 16 characters'),
    '',
    'Credential of the operator fair-play view (/operator and operator.fairplay, sent as a Bearer token); at least 16 characters. Empty = that view refuses everyone.',
  ),
  tokenTtlSeconds: opt('LOBBY_TOKEN_TTL_SECONDS', int(60), 7 * 24 * 3600, 'Lifetime of issued player tokens.'),
  startTimeoutMs: opt(
    'LOBBY_START_TIMEOUT_MS',
    int(100, 60_000),
    5000,
    'How long rooms.start waits for the matchmaker before answering 게임 서버가 응답하지 않아요.',
  ),
  corsOrigin: opt(
    'CORS_ORIGIN',
    z.string(),
    '*',
    'Access-Control-Allow-Origin for browsers on another origin (tokens travel in a header, not cookies). Empty = no CORS headers.',
  ),
  serveClient: opt(
    'SERVE_CLIENT',
    bool(),
    false,
    'Also serve the built client and /config.json at / (the cluster layout, where no platform process runs).',
  ),
  clientDir: opt('CLIENT_DIR', z.string(), '', 'Built client to serve when SERVE_CLIENT is on. Empty = client/dist.'),
  publicGatewayUrl: opt(
    'PUBLIC_GATEWAY_URL',
    z.string().regex(/^(wss?:\/\/.+)?$/, 'ws:// or wss:// URL'),
    '',
    "Gateway WebSocket URL that /config.json gives browsers (e.g. wss://play.example.com/ws). Empty = ws://<the page's host>:8081/ws when that host names this machine, else ws://127.0.0.1:8081/ws (the Host header is never echoed).",
  ),
  natsUrl: {
    ...natsUrl,
    doc: 'NATS server URL(s), comma-separated. Empty = in-process bus: the lobby runs, but no matchmaker answers rooms.start.',
  },
  redisUrl: {
    ...redisUrl,
    doc: 'Redis URL for the rate-limit counters, shared by every lobby replica. Empty = counters in this process only.',
  },
  namespace,
  jetstreamCreateStreams,
  logLevel,
  ...lobbyLimitOptions,
  ...presenceOptions,
});

export type LobbyEnv = ConfigOf<typeof lobbyEnv.spec>;

/**
 * The standalone lobby's configuration. Without JWT_SECRET it starts only when NODE_ENV=development says so
 * (then with the published development secret): run from source with NODE_ENV unset, it used to accept
 * tokens anyone can sign.
 */
export function lobbyConfigFromEnv(env: NodeJS.ProcessEnv = process.env): LobbyEnv {
  const config = lobbyEnv.fromEnv(env);
  if (!env.JWT_SECRET && env.NODE_ENV !== 'development')
    throw new ConfigError(
      'JWT_SECRET must be set (the published development secret is used only when NODE_ENV=development)',
    );
  if (env.NODE_ENV === 'production' && config.jwtSecret === DEV_JWT_SECRET)
    throw new ConfigError('JWT_SECRET must be set in production (the development secret is public)');
  return config;
}

/** Every option table the lobby reads (the chart's every-option test and README walk these). */
export const lobbyOptionTables = [lobbyEnv];
