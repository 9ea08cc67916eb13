/**
 * The few raw-SQL operations the migration runner needs, over either a real
 * PostgreSQL connection (pg) or an in-process PGlite. Everything else goes
 * through the Prisma client.
 */
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

export interface SqlConn {
  /** Runs a script that may hold several statements (simple query protocol, no parameters). */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

const SCHEMA_LOCK = 72_707_300;

/** One dedicated connection whose search_path is `schema`. */
export async function pgConn(connectionString: string, schema: string): Promise<SqlConn> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    // Two replicas creating the same schema at once would collide on pg_namespace without the lock.
    await client.query(
      `BEGIN; SELECT pg_advisory_xact_lock(${SCHEMA_LOCK}); CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}; COMMIT`,
    );
    await client.query(`SET search_path TO ${quoteIdent(schema)}`);
  } catch (e) {
    await client.end();
    throw e;
  }
  return {
    async exec(sql) {
      await client.query(sql);
    },
    async query<T>(sql: string, params: unknown[] = []) {
      return (await client.query(sql, params)).rows as T[];
    },
    async close() {
      await client.end();
    },
  };
}

/** Borrows an open PGlite (its owner closes it). */
export function pgliteConn(db: PGlite): SqlConn {
  return {
    async exec(sql) {
      await db.exec(sql);
    },
    async query<T>(sql: string, params: unknown[] = []) {
      return (await db.query<T>(sql, params)).rows;
    },
    async close() {},
  };
}
