/**
 * Where a home install keeps what must survive a restart (issue 15): under
 * DATA_DIR, the lobby's PGlite database in `lobby/`, the room snapshots in
 * `rooms/` and the token secret in `jwt-secret`, each only when no server
 * (DATABASE_URL, REDIS_URL) or explicit value (LOBBY_DATA_DIR, JWT_SECRET)
 * takes its place. The secret is kept because guests are accounts held by a
 * token: a new secret per run would strand every account at the next start.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PlatformConfig } from './config.ts';

/** `npm start`'s data folder when DATA_DIR is not set at all. */
export const DEFAULT_DATA_DIR = '.data';

/** The command-line flag for a throwaway run that keeps nothing. */
export const IN_MEMORY_FLAG = '--in-memory';

/**
 * The environment `npm start` runs with: DATA_DIR defaults to `.data` unless it is set (empty means
 * in memory) or the in-memory flag is given. Library callers (tests) get no default: in memory.
 */
export function homeInstallEnv(env: NodeJS.ProcessEnv, argv: readonly string[]): NodeJS.ProcessEnv {
  if (argv.includes(IN_MEMORY_FLAG)) return { ...env, DATA_DIR: '' };
  if (env.DATA_DIR !== undefined) return env;
  return { ...env, DATA_DIR: DEFAULT_DATA_DIR };
}

export interface DataPaths {
  /** PGlite directory of the lobby, or undefined for PostgreSQL / in memory. */
  lobbyDataDir: string | undefined;
  /** Room snapshot folder, or undefined for Redis / in memory. */
  snapshotDir: string | undefined;
}

export function dataPaths(cfg: PlatformConfig): DataPaths {
  const dir = cfg.dataDir ? resolve(cfg.dataDir) : '';
  return {
    lobbyDataDir: cfg.databaseUrl ? undefined : cfg.lobbyDataDir || (dir ? join(dir, 'lobby') : undefined),
    snapshotDir: cfg.redisUrl || !dir ? undefined : join(dir, 'rooms'),
  };
}

/** The install's token secret, made once (readable by its owner only) and read at every later start. */
export function storedSecret(dataDir: string): string {
  const dir = resolve(dataDir);
  const path = join(dir, 'jwt-secret');
  mkdirSync(dir, { recursive: true });
  try {
    const kept = readFileSync(path, 'utf8').trim();
    if (kept.length >= 16) return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(path, `${secret}\n`, { mode: 0o600 });
  return secret;
}
