/**
 * Prisma CLI configuration. Here only `generate` runs (the schema engine cannot
 * be downloaded; migrations are applied by src/db/migrate.ts). The datasource
 * lets `prisma migrate deploy` take over the same migrations where it can.
 */
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
});
