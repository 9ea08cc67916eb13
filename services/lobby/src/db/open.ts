/**
 * Opens the lobby database: PostgreSQL when a URL is given, otherwise the
 * same schema on an in-process PGlite (memory, or a data directory), so the
 * lobby runs with no server at all. Migrations are applied before the Prisma
 * client is handed out.
 */
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.ts';
import { loadMigrations, migrate, type MigrateReport } from './migrate.ts';
import { pgConn, pgliteConn, quoteIdent } from './sql.ts';
import { pgliteRaw, pgRaw, type Raw } from './raw.ts';

export type Db = PrismaClient;

export interface OpenedDatabase {
  prisma: PrismaClient;
  /** Hand-written statements on the same connections (db/raw.ts). */
  raw: Raw;
  kind: 'postgres' | 'pglite';
  /** Schema the tables live in. */
  schema: string;
  migrations: MigrateReport;
  /** Milliseconds from the call to a migrated, connected database. */
  openMs: number;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** postgresql://…; `?schema=name` selects the schema (created if missing). Absent = PGlite. */
  databaseUrl?: string;
  /** PGlite data directory; absent = in memory. Ignored with a databaseUrl. */
  dataDir?: string;
  /** PostgreSQL connections of this process (default DEFAULT_POOL). */
  poolSize?: number;
}

/** A call holds at most one connection; 20 keeps 50 concurrent callers from queueing behind 10. */
export const DEFAULT_POOL = 20;

/**
 * Every interactive transaction of the lobby (join, leave, start, a game's record) is a few short statements.
 * Prisma's defaults give one 2 s to start and 5 s to commit; a lobby starved of CPU (the test suite's own
 * load of ≈ 30 here) ran past 5 s between a join's statements, and the player got an error instead of a seat.
 * A transaction that takes longer than these is stuck, not slow, and is still ended.
 */
export const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 } as const;

/** Splits Prisma's `?schema=` parameter off a URL (pg itself does not understand it). */
export function splitSchema(url: string): { connectionString: string; schema: string } {
  const u = new URL(url);
  const schema = u.searchParams.get('schema') ?? 'public';
  u.searchParams.delete('schema');
  return { connectionString: u.toString(), schema };
}

export async function openDatabase(opts: OpenOptions): Promise<OpenedDatabase> {
  const started = performance.now();
  const migrations = await loadMigrations();
  if (opts.databaseUrl) {
    const { connectionString, schema } = splitSchema(opts.databaseUrl);
    const conn = await pgConn(connectionString, schema);
    let report: MigrateReport;
    try {
      report = await migrate(conn, migrations);
    } finally {
      await conn.close();
    }
    // search_path as well as the adapter's schema option: raw queries must land in the same schema.
    // One pool for Prisma and the raw statements, so the pool size is the process's connection count.
    const pool = new pg.Pool({
      connectionString,
      options: `-c search_path=${quoteIdent(schema)}`,
      max: opts.poolSize ?? DEFAULT_POOL,
      // pg-pool reuses its most recent connection first, so under a steady load the rest sit idle and,
      // after pg's default 10 s, close and reopen: a new backend each time, its prepared statements lost.
      idleTimeoutMillis: 60_000,
    });
    const adapter = new PrismaPg(pool, { schema, disposeExternalPool: true });
    const prisma = new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
    await prisma.$connect();
    return {
      prisma,
      raw: pgRaw(pool),
      kind: 'postgres',
      schema,
      migrations: report,
      openMs: Math.round(performance.now() - started),
      close: () => prisma.$disconnect(),
    };
  }
  const pglite = new PGlite(opts.dataDir ?? 'memory://');
  await pglite.waitReady;
  let report: MigrateReport;
  try {
    report = await migrate(pgliteConn(pglite), migrations, { lock: false });
  } catch (e) {
    await pglite.close();
    throw e;
  }
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite), transactionOptions: TRANSACTION_OPTIONS });
  await prisma.$connect();
  return {
    prisma,
    raw: pgliteRaw(pglite),
    kind: 'pglite',
    schema: 'public',
    migrations: report,
    openMs: Math.round(performance.now() - started),
    async close() {
      await prisma.$disconnect();
      await pglite.close();
    },
  };
}
