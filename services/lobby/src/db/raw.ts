/**
 * Raw SQL for the lobby's hot paths (issue 15, item 7). Prisma cost the lobby
 * most of its CPU per call (query building, result mapping, one socket write
 * per query, relation reads issued one by one): the procedures most calls go
 * through run one hand-written statement each instead, straight on the pg pool
 * Prisma itself uses, as a named (prepared) statement, or on PGlite, whose
 * `query` waits for any transaction in progress, like a pool would. Inside a
 * Prisma transaction the same text runs through `$queryRawUnsafe`, so one SQL
 * text serves every driver.
 *
 * Conventions that keep the three drivers' results identical: times come back
 * as epoch milliseconds (`ms()`, float8), JSON as text parsed here (`json()`),
 * counts as int4. Timestamps are written as `now() AT TIME ZONE 'UTC'`, the
 * UTC wall time Prisma stores in these `timestamp(3)` columns.
 */
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Prisma } from '../generated/prisma/client.ts';

/** A statement; `name` prepares it once per PostgreSQL connection (same name, same text). */
export interface Stmt {
  name: string;
  text: string;
}

export interface Raw {
  rows<T>(stmt: Stmt, params: unknown[]): Promise<T[]>;
}

export function pgRaw(pool: pg.Pool): Raw {
  return {
    async rows<T>(stmt: Stmt, params: unknown[]) {
      return (await pool.query({ name: stmt.name, text: stmt.text, values: params })).rows as T[];
    },
  };
}

export function pgliteRaw(db: PGlite): Raw {
  return {
    async rows<T>(stmt: Stmt, params: unknown[]) {
      return (await db.query<T>(stmt.text, params)).rows;
    },
  };
}

/** The same statements inside a Prisma interactive transaction (its connection, its locks). */
export function txRaw(tx: Prisma.TransactionClient): Raw {
  return {
    rows<T>(stmt: Stmt, params: unknown[]) {
      return tx.$queryRawUnsafe<T[]>(stmt.text, ...params);
    },
  };
}

/** Epoch milliseconds of a `timestamp(3)` column holding UTC wall time. */
export const ms = (column: string): string => `(extract(epoch from ${column}) * 1000)::float8`;

/** The write-side twin of `ms`: now, as the UTC wall time these columns hold. */
export const NOW = `(now() AT TIME ZONE 'UTC')`;

/** JSON selected as text (`…::text`): parsed here whatever the driver would have made of it. */
export function json<T>(text: unknown): T {
  return (typeof text === 'string' ? JSON.parse(text) : text) as T;
}

/** A unique or primary-key violation (SQLSTATE 23505) from pg or PGlite. */
export function isRawUniqueViolation(e: unknown): boolean {
  return (e as { code?: unknown } | null)?.code === '23505';
}
