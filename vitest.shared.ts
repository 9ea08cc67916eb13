/**
 * One vitest configuration for every workspace: the JSON reporter writes each
 * workspace's results under test-results/ so `npm test` can print one
 * "N passed, N failed" line for the whole repository.
 */
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('.', import.meta.url));
const part = process.env.JOKE_TEST_PART;

/**
 * `isolate` (default false): whether each test file gets a fresh module graph. Re-importing the graph
 * per file (the services import the engine, the bus, NATS, Redis, Prisma… as TypeScript sources) was
 * about half of a service workspace's CPU: on a quiet box the lobby's tests took 75 s of CPU isolated
 * and 36 s not, the room worker's 43.5 and 19.3, the gateway's 16.3 and 7.3 (2026-12-05). npm test runs
 * every workspace at once on 2 cores, where CPU is what decides its wall time (the lobby's 75 s took
 * 740 s of wall time inside npm test). Every test here builds its own servers, buses, stores and
 * registries and closes them, so files do not lean on a fresh graph; a workspace that does passes true.
 */
export function workspaceConfig(
  name: string,
  extra: { testTimeout?: number; include?: string[]; isolate?: boolean } = {},
) {
  return defineConfig({
    test: {
      include: extra.include ?? ['test/**/*.test.ts', 'src/**/*.test.ts'],
      testTimeout: extra.testTimeout ?? 30_000,
      hookTimeout: 120_000,
      // JOKE_TEST_PART names a part of a workspace's files run in a lane of its own (scripts/test.mjs), so
      // its report does not overwrite the rest's.
      reporters: [
        'default',
        ['json', { outputFile: join(root, 'test-results', `${name}${part ? `-${part}` : ''}.json`) }],
      ],
      pool: 'forks',
      isolate: extra.isolate ?? false,
      passWithNoTests: true,
    },
  });
}
