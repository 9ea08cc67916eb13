/**
 * The product stack for browser tests, started the way `npm start` starts it.
 */
import pg from 'pg';
import { inject } from 'vitest';
import { startProduct, type Product } from '@joke/platform';

export { buildClient } from './build.ts';

/** The client built once for this run by the globalSetup (build-once.ts); never removed by a test. */
export const builtClient = (): string => inject('clientDir');

export interface Stack {
  /**
   * The page a player opens, drawn with Phaser's Canvas renderer (`?renderer=canvas`). Headless
   * Chromium has no GPU: its software WebGL cost 3.2× the CPU for the same whole games (browser,
   * poker-modes and hula-browser tests: 568 CPU-seconds and 291 s of wall on WebGL, 175 and 99 on
   * Canvas, same box, 2026-12-03), and on a loaded box that starved pages into timeouts. These tests
   * are about the flows through the real platform; what WebGL draws is checked over the harness
   * (harness, table-shots, table-fit, display, render-pace and poker-story tests stay on WebGL).
   */
  url: string;
  /** The platform's HTTP base (tRPC at /trpc, the client at /). */
  httpUrl: string;
  gatewayUrl: string;
  platform: Product;
  close(): Promise<void>;
}

const TEST_DB = process.env.JOKE_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

/**
 * Starts exactly what `npm start` runs (services/platform `startProduct`):
 * runtime, lobby at /trpc and the client at /, on free ports. The lobby keeps
 * its tables in a fresh schema of the real PostgreSQL (dropped at close), so
 * files never see each other's rooms; `pglite: true` keeps the embedded
 * default's in-process PGlite instead (its start-up costs 8–30 s, so only the
 * test of `npm start` itself pays it).
 */
export async function startStack(
  opts: {
    botDelayMs?: number;
    botJitterMs?: number;
    clientDir?: string;
    /** The embedded default's PGlite instead of a PostgreSQL schema. */
    pglite?: boolean;
    /** Room lifecycle timings (LOBBY_AWAY_AFTER_MS, LOBBY_HOST_GRACE_MS, LOBBY_EMPTY_CLOSE_MS); unset = defaults. */
    lifecycle?: { awayAfterMs: number; hostGraceMs: number; emptyCloseMs: number };
    /** Rooms the embedded worker accepts (MAX_ROOMS); unset = the default. */
    maxRooms?: number;
  } = {},
): Promise<Stack> {
  const schema = `client_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const platform = await startProduct({
    port: 0,
    gatewayPort: 0,
    opsPort: 0,
    natsUrl: '',
    redisUrl: '',
    logLevel: 'warn',
    databaseUrl: opts.pglite ? '' : `${TEST_DB}?schema=${schema}`,
    clientDir: opts.clientDir ?? '',
    botDelayMs: opts.botDelayMs ?? 60,
    botJitterMs: opts.botJitterMs ?? 40,
    ...opts.lifecycle,
    ...(opts.maxRooms === undefined ? {} : { maxRooms: opts.maxRooms }),
  });
  const close = async () => {
    await platform.close();
    if (opts.pglite) return;
    const c = new pg.Client({ connectionString: TEST_DB });
    await c.connect();
    await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await c.end();
  };
  return {
    url: `${platform.httpUrl}/?renderer=canvas`,
    httpUrl: platform.httpUrl,
    gatewayUrl: platform.gatewayUrl,
    platform,
    close,
  };
}
