/**
 * The product stack for browser tests, started the way `npm start` starts it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProduct, type Product } from '@joke/platform';

const clientDir = fileURLToPath(new URL('../..', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Builds the client with vite (≈2 s) into its own directory, so the test runs
 * the current code and never races another build over client/dist.
 */
export function buildClient(outDir = mkdtempSync(join(tmpdir(), 'joke-client-'))): string {
  const r = spawnSync(`${repoRoot}node_modules/.bin/vite`, ['build', '--logLevel', 'warn', '--outDir', outDir], {
    cwd: clientDir,
    stdio: 'inherit',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`vite build failed (${r.status ?? r.signal})`);
  return outDir;
}

export interface Stack {
  url: string;
  gatewayUrl: string;
  platform: Product;
  close(): Promise<void>;
}

/**
 * Starts exactly what `npm start` runs (services/platform `startProduct`):
 * runtime, lobby at /trpc and the client at /, on free ports. The lobby uses
 * PGlite unless JOKE_TEST_DATABASE_URL names a PostgreSQL database.
 */
export async function startStack(
  opts: {
    botDelayMs?: number;
    botJitterMs?: number;
    clientDir?: string;
    /** Room lifecycle timings (LOBBY_AWAY_AFTER_MS, LOBBY_HOST_GRACE_MS, LOBBY_EMPTY_CLOSE_MS); unset = defaults. */
    lifecycle?: { awayAfterMs: number; hostGraceMs: number; emptyCloseMs: number };
  } = {},
): Promise<Stack> {
  const platform = await startProduct({
    port: 0,
    gatewayPort: 0,
    natsUrl: '',
    redisUrl: '',
    logLevel: 'warn',
    databaseUrl: process.env.JOKE_TEST_DATABASE_URL ?? '',
    clientDir: opts.clientDir ?? '',
    botDelayMs: opts.botDelayMs ?? 60,
    botJitterMs: opts.botJitterMs ?? 40,
    ...opts.lifecycle,
  });
  return { url: platform.httpUrl, gatewayUrl: platform.gatewayUrl, platform, close: () => platform.close() };
}
