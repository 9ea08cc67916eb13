/**
 * One vite build of the client into its own folder, so a test never races another build over client/dist.
 * `test` (the default) is the browser tests' build: the test hook (`window.__joke`), frame capture and the
 * harness page are in (vite.config.ts); `production` is what players get (`npm start`, the release).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const clientDir = fileURLToPath(new URL('../..', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export function buildClient(
  outDir = mkdtempSync(join(tmpdir(), 'joke-client-')),
  mode: 'test' | 'production' = 'test',
): string {
  const args = ['build', '--mode', mode, '--logLevel', 'warn', '--outDir', outDir];
  const r = spawnSync(`${repoRoot}node_modules/.bin/vite`, args, {
    cwd: clientDir,
    // A production-like build in both modes: vitest's NODE_ENV=test would make `import.meta.env.DEV` true.
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: 'inherit',
    timeout: 180_000,
  });
  if (r.status !== 0) throw new Error(`vite build failed (${r.status ?? r.signal})`);
  return outDir;
}
