#!/usr/bin/env node
/**
 * `node scripts/build-release.mjs <out>` (`npm run build:release -- <out>`): the one build of what
 * ships. The image's build stage (infra/docker/Dockerfile) runs it, and so does the test that plays
 * a swarm on the result (services/platform/test/compiled-start.test.ts), the same way, so the two
 * cannot drift. It writes the release folder the runtime stage copies to /app:
 *
 *   <out>/dist/          the services compiled by esbuild (build-services.mjs), with the migrations
 *   <out>/client/dist/   the browser client (`vite build`), served by the lobby (SERVE_CLIENT)
 *   <out>/node_modules/  only the packages the compiled services import (prune-production.mjs)
 *
 * node_modules/ holds copies (≈ 136 MiB, ≈ 5 s here), with only this platform's uWebSockets.js
 * binary, so the folder runs on its own: nothing resolves back into this checkout. Needs the full install and the generated Prisma client
 * (`npm run generate -w services/lobby`) in this checkout; nothing outside <out> is written but
 * vite's cache. Those three folders of <out> are replaced; anything else in <out> is left alone.
 * Fails (exit 1) on a compile error, a missing package, or an <out> that holds this checkout.
 */
import { join, relative, resolve, sep } from 'node:path';
import { buildServices } from './build-services.mjs';
import { prune } from './prune-production.mjs';

const root = resolve(new URL('..', import.meta.url).pathname);

/** The release's folders, relative to <out>: the Dockerfile's runtime stage copies exactly these. */
export const RELEASE_PARTS = ['dist', 'client/dist', 'node_modules'];

export async function buildRelease(outArg) {
  const out = resolve(outArg);
  // <out>/node_modules is emptied first: an <out> of the checkout itself (or above it) would lose its install.
  const up = relative(out, root);
  if (up === '' || (!up.startsWith('..') && !up.startsWith(sep)))
    throw new Error(`build-release: ${out} holds this checkout (${root}); give a folder of its own`);
  const t0 = Date.now();
  const externals = await buildServices(join(out, 'dist'));
  const { build } = await import('vite');
  const client = join(root, 'client');
  await build({
    root: client,
    configFile: join(client, 'vite.config.ts'),
    logLevel: 'warn',
    // Outside the client's folder vite would not empty it on its own.
    build: { outDir: join(out, 'client/dist'), emptyOutDir: true },
  });
  const { packages, bytes } = prune(join(root, 'node_modules'), join(out, 'node_modules'), { externals });
  const mib = (bytes / 2 ** 20).toFixed(1);
  console.log(`${out}: services, client, ${packages.length} packages (${mib} MiB) in ${Date.now() - t0} ms`);
  return { out, externals, packages };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0].startsWith('-')) {
    console.error('usage: node scripts/build-release.mjs <out>');
    process.exit(2);
  }
  await buildRelease(args[0]);
}
