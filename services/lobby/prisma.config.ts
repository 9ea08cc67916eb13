/**
 * Prisma CLI configuration. Only `generate` runs here (see services/lobby/README
 * in docs/architecture.md); the datasource lets `prisma migrate deploy` take
 * over the same migrations where the schema engine can be downloaded.
 */
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
});
