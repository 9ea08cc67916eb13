/** One vite build of the client into its own folder, so a test never races another build over client/dist. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const clientDir = fileURLToPath(new URL('../..', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

export function buildClient(outDir = mkdtempSync(join(tmpdir(), 'joke-client-'))): string {
  const r = spawnSync(`${repoRoot}node_modules/.bin/vite`, ['build', '--logLevel', 'warn', '--outDir', outDir], {
    cwd: clientDir,
    stdio: 'inherit',
    timeout: 180_000,
  });
  if (r.status !== 0) throw new Error(`vite build failed (${r.status ?? r.signal})`);
  return outDir;
}
