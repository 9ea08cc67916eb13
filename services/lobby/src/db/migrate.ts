/**
 * Applies prisma/migrations/<name>/migration.sql in name order, each in its
 * own transaction, and records it in `_prisma_migrations` exactly as
 * `prisma migrate deploy` would (same table, SHA-256 checksum of the file),
 * so the real CLI can take over a database this runner created and the other
 * way round. Re-running is a no-op; an applied migration whose file changed
 * is refused rather than silently skipped.
 */
import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlConn } from './sql.ts';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));

/** Serialises concurrent start-ups of several lobby replicas on one database. */
const LOCK_KEY = 72_707_301;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateReport {
  applied: string[];
  skipped: string[];
  ms: number;
}

const TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const out: Migration[] = [];
  for (const name of names) {
    const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
    out.push({ name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return out;
}

interface Row {
  migration_name: string;
  checksum: string;
  finished_at: Date | string | null;
  rolled_back_at: Date | string | null;
}

export async function migrate(
  conn: SqlConn,
  migrations: Migration[],
  opts: { lock?: boolean } = {},
): Promise<MigrateReport> {
  const started = performance.now();
  const report: MigrateReport = { applied: [], skipped: [], ms: 0 };
  const lock = opts.lock ?? true;
  if (lock) await conn.query('SELECT pg_advisory_lock($1)', [LOCK_KEY]);
  try {
    await conn.exec(TABLE);
    const rows = await conn.query<Row>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
    );
    const done = new Map<string, Row>();
    for (const r of rows) {
      if (r.rolled_back_at !== null) continue;
      if (r.finished_at === null)
        throw new Error(`migration ${r.migration_name} started but never finished: resolve it by hand first`);
      done.set(r.migration_name, r);
    }
    for (const m of migrations) {
      const prior = done.get(m.name);
      if (prior) {
        if (prior.checksum !== m.checksum)
          throw new Error(`migration ${m.name} was modified after it was applied (checksum differs)`);
        report.skipped.push(m.name);
        continue;
      }
      await conn.exec('BEGIN');
      try {
        await conn.exec(m.sql);
        await conn.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
           VALUES ($1, $2, $3, now(), clock_timestamp(), 1)`,
          [randomUUID(), m.checksum, m.name],
        );
        await conn.exec('COMMIT');
      } catch (e) {
        await conn.exec('ROLLBACK').catch(() => {});
        throw new Error(`migration ${m.name} failed: ${(e as Error).message}`, { cause: e });
      }
      report.applied.push(m.name);
    }
  } finally {
    if (lock) await conn.query('SELECT pg_advisory_unlock($1)', [LOCK_KEY]);
  }
  report.ms = Math.round(performance.now() - started);
  return report;
}
