#!/usr/bin/env node
/**
 * The release check's long fuzz run: the same guard as `npm test`'s
 * (services/platform/test/fuzz.test.ts) with many more cases per entry point.
 *
 *   npm run fuzz                       # 20,000 runs per entry point, a fresh seed
 *   npm run fuzz -- --runs 5000        # fewer
 *   npm run fuzz -- --seed 123456789   # replay a seed printed by a failed run
 *
 * Exits with vitest's code: non-zero when any case killed the process, reached its last resort,
 * answered 5xx or nothing, or when the heap grew past the bound.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const value = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const runs = value('--runs') ?? '20000';
const seed = value('--seed');
if (!/^\d+$/.test(runs) || (seed !== undefined && !/^\d+$/.test(seed))) {
  console.error('usage: npm run fuzz -- [--runs N] [--seed S]');
  process.exit(2);
}
const cwd = fileURLToPath(new URL('..', import.meta.url));
const r = spawnSync(
  fileURLToPath(new URL('../../../node_modules/.bin/vitest', import.meta.url)),
  ['run', 'test/fuzz.test.ts'],
  {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, JOKE_FUZZ_RUNS: runs, ...(seed ? { JOKE_FUZZ_SEED: seed } : {}) },
  },
);
process.exit(r.status ?? 1);
