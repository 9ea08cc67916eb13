import { createHash } from 'node:crypto';
import { cp, mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadMigrations, migrate, MIGRATIONS_DIR } from '../src/db/migrate.ts';
import { openDatabase } from '../src/db/open.ts';
import { pgConn } from '../src/db/sql.ts';
import { PG_BASE, sql, uniqueSchema } from './helpers/harness.ts';

const schemas: ReturnType<typeof uniqueSchema>[] = [];
const fresh = (): ReturnType<typeof uniqueSchema> => {
  const s = uniqueSchema('lobby_mig');
  schemas.push(s);
  return s;
};
afterAll(async () => {
  for (const s of schemas) await s.drop();
});

describe('migration runner on PostgreSQL', () => {
  it('applies every migration once, records Prisma-compatible rows, and re-applies as a no-op', async () => {
    const s = fresh();
    const first = await openDatabase({ databaseUrl: s.url });
    const all = (await loadMigrations()).map((m) => m.name);
    expect(all.length).toBeGreaterThan(0);
    expect(first.migrations.applied).toEqual(all);
    await first.close();

    const rows = await sql<any>(
      s.schema,
      'SELECT id, checksum, migration_name, finished_at, rolled_back_at, applied_steps_count, logs FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(all);
    for (const r of rows) {
      const file = await readFile(join(MIGRATIONS_DIR, r.migration_name, 'migration.sql'));
      expect(r.checksum).toBe(createHash('sha256').update(file).digest('hex'));
      expect(r.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(r.finished_at).toBeInstanceOf(Date);
      expect(r.rolled_back_at).toBeNull();
      expect(r.applied_steps_count).toBe(1);
    }
    const tables = await sql<{ table_name: string }>(
      s.schema,
      'SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1',
      [s.schema],
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      [
        '_prisma_migrations',
        'again_votes',
        'fairplay_accounts',
        'fairplay_evidence',
        'fairplay_flags',
        'fairplay_pairs',
        'game_players',
        'games',
        'rooms',
        'seats',
        'spectators',
        'users',
      ].sort(),
    );

    const again = await openDatabase({ databaseUrl: s.url });
    expect(again.migrations.applied).toEqual([]);
    expect(again.migrations.skipped).toEqual(all);
    await again.close();
    expect(await sql(s.schema, 'SELECT 1 FROM "_prisma_migrations"')).toHaveLength(all.length);
  });

  it('two replicas starting together apply each migration exactly once', async () => {
    const s = fresh();
    const [a, b] = await Promise.all([openDatabase({ databaseUrl: s.url }), openDatabase({ databaseUrl: s.url })]);
    const applied = [...a.migrations.applied, ...b.migrations.applied];
    expect(applied.sort()).toEqual((await loadMigrations()).map((m) => m.name).sort());
    await Promise.all([a.close(), b.close()]);
    expect(await sql(s.schema, 'SELECT 1 FROM "_prisma_migrations"')).toHaveLength(applied.length);
  });

  it('a failing migration rolls back whole and is not recorded; earlier ones stay', async () => {
    const s = fresh();
    const dir = await mkdtemp(join(tmpdir(), 'lobby-mig-'));
    try {
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      await mkdir(join(dir, '29990101000000_broken'));
      await writeFile(
        join(dir, '29990101000000_broken', 'migration.sql'),
        'CREATE TABLE "half_done" ("id" TEXT);\nALTER TABLE "no_such_table" ADD COLUMN "x" INT;\n',
      );
      const conn = await pgConn(PG_BASE, s.schema);
      try {
        await expect(migrate(conn, await loadMigrations(dir))).rejects.toThrow(/29990101000000_broken failed/);
      } finally {
        await conn.close();
      }
      const names = await sql<{ migration_name: string }>(s.schema, 'SELECT migration_name FROM "_prisma_migrations"');
      expect(names.map((n) => n.migration_name)).not.toContain('29990101000000_broken');
      expect(names.length).toBe((await loadMigrations()).length);
      const half = await sql(s.schema, "SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'");
      expect(half).toHaveLength(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses to run when an applied migration file was edited afterwards', async () => {
    const s = fresh();
    await (await openDatabase({ databaseUrl: s.url })).close();
    const edited = (await loadMigrations()).map((m, i) =>
      i === 0 ? { ...m, sql: `${m.sql}\n-- edited`, checksum: 'f'.repeat(64) } : m,
    );
    const conn = await pgConn(PG_BASE, s.schema);
    try {
      await expect(migrate(conn, edited)).rejects.toThrow(/modified after it was applied/);
    } finally {
      await conn.close();
    }
  });
});

describe('the opened database', () => {
  it('lets an interactive transaction outlast Prisma’s 5 s default: a starved lobby still seats the player', async () => {
    const s = fresh();
    const db = await openDatabase({ databaseUrl: s.url });
    try {
      // The server holds the transaction 5.5 s (as a lobby starved between two statements would).
      const rows = await db.prisma.$transaction(async (tx) => {
        await tx.$executeRawUnsafe('SELECT pg_sleep(5.5)');
        return tx.$queryRawUnsafe<{ one: number }[]>('SELECT 1 AS one');
      });
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await db.close();
    }
  }, 60_000);
});
