/**
 * One vitest configuration for every workspace: the JSON reporter writes each
 * workspace's results under test-results/ so `npm test` can print one
 * "N passed, N failed" line for the whole repository.
 */
import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('.', import.meta.url));

export function workspaceConfig(name: string, extra: { testTimeout?: number; include?: string[] } = {}) {
  return defineConfig({
    test: {
      include: extra.include ?? ['test/**/*.test.ts', 'src/**/*.test.ts'],
      testTimeout: extra.testTimeout ?? 30_000,
      hookTimeout: 120_000,
      reporters: ['default', ['json', { outputFile: join(root, 'test-results', `${name}.json`) }]],
      pool: 'forks',
      passWithNoTests: true,
    },
  });
}
