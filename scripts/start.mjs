#!/usr/bin/env node
/**
 * `npm start`: builds the client when client/dist is missing, older than
 * its sources (a fresh clone has no build) or a test build (the browser
 * tests build client/dist with the test hook: client/vite.config.ts), then
 * runs the whole product in one process (services/platform/src/main.ts). Environment variables pass
 * through: with NATS_URL / REDIS_URL / DATABASE_URL set, the real servers are used.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const client = join(root, 'client');
const built = join(client, 'dist', 'index.html');
/** Written only by `vite build --mode test` (client/vite.config.ts TEST_BUILD_MARKER). */
const testBuild = join(client, 'dist', 'test-build.txt');

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

const sources = Math.max(newest(join(client, 'src')), statSync(join(client, 'index.html')).mtimeMs);
if (!process.env.CLIENT_DIR && (!existsSync(built) || statSync(built).mtimeMs < sources || existsSync(testBuild))) {
  console.log('building the client (vite)…');
  const r = spawnSync(join(root, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], {
    cwd: client,
    stdio: 'inherit',
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const child = spawn(
  process.execPath,
  ['--import', 'tsx', join(root, 'services/platform/src/main.ts'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
