/**
 * Every abuse limit of the lobby, with its environment variable, default and
 * meaning in one place: the standalone lobby (config.ts) and the embedded
 * platform (`npm start`) both spread `lobbyLimitOptions` into their
 * configuration, so the same variables work for either, and docs/security.md
 * lists the same table. Rates are per minute; 0 turns a rate limit off (load
 * tests that sign in thousands of bots from one address).
 */
import { defineConfig, int, opt, type ConfigOf } from '@joke/ops';

const perMinute = int(0, 1_000_000);

export const lobbyLimitOptions = {
  maxBodyBytes: opt(
    'LOBBY_MAX_BODY_BYTES',
    int(1024, 16 * 1024 * 1024),
    64 * 1024,
    'Largest lobby API request body; a bigger one gets 413 before it is read (Content-Length) or as soon as the streamed bytes pass it.',
  ),
  maxBatchSize: opt('LOBBY_MAX_BATCH', int(1, 1000), 16, 'Calls in one tRPC batch request; more get 400.'),
  guestPerIp: opt('LOBBY_RATE_GUEST_PER_IP', perMinute, 60, 'Guest sign-ins per client address per minute.'),
  guestPerUser: opt(
    'LOBBY_RATE_GUEST_PER_USER',
    perMinute,
    20,
    'Sign-ins that resume one user id (renames) per minute.',
  ),
  createPerIp: opt('LOBBY_RATE_CREATE_PER_IP', perMinute, 60, 'rooms.create calls per client address per minute.'),
  createPerUser: opt('LOBBY_RATE_CREATE_PER_USER', perMinute, 10, 'rooms.create calls per user per minute.'),
  joinPerIp: opt(
    'LOBBY_RATE_JOIN_PER_IP',
    perMinute,
    600,
    'rooms.join and rooms.spectate calls per client address per minute.',
  ),
  joinPerUser: opt(
    'LOBBY_RATE_JOIN_PER_USER',
    perMinute,
    60,
    'rooms.join and rooms.spectate calls per user per minute.',
  ),
  startPerIp: opt(
    'LOBBY_RATE_START_PER_IP',
    perMinute,
    60,
    'rooms.start calls (tables started from the lobby) per client address per minute.',
  ),
  startPerUser: opt('LOBBY_RATE_START_PER_USER', perMinute, 10, 'rooms.start calls per user per minute.'),
  maxRoomsPerUser: opt(
    'LOBBY_MAX_ROOMS_PER_USER',
    int(1, 1000),
    3,
    'Open rooms one user may host at once; rooms.create past it is refused.',
  ),
  trustProxyHops: opt(
    'LOBBY_TRUST_PROXY_HOPS',
    int(0, 10),
    0,
    'Reverse proxies in front of the lobby that append to X-Forwarded-For; the client address is taken that many entries from the end. 0 = the TCP peer (header ignored).',
  ),
};

export type LobbyLimits = ConfigOf<typeof lobbyLimitOptions>;

export const lobbyLimitsConfig = defineConfig(lobbyLimitOptions);

/** The documented defaults (what `createLobby` uses for anything not given). */
export const DEFAULT_LIMITS: LobbyLimits = lobbyLimitsConfig.resolve({});

/** The limit options out of a larger parsed configuration (the lobby's or the platform's). */
export function pickLimits(config: LobbyLimits): LobbyLimits {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(lobbyLimitOptions)) out[key] = config[key as keyof LobbyLimits];
  return out as LobbyLimits;
}
