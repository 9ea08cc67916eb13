#!/usr/bin/env node
/**
 * `npm run build:services`: compiles every service's entry point to plain
 * JavaScript in dist/services/<service>/ with esbuild, so production runs
 * `node dist/services/<service>/main.js` with no TypeScript loader. The @joke/* workspaces are
 * bundled in (their package.json exports point at TypeScript source); every
 * other package stays an import resolved from node_modules at run time, so
 * native modules (uWebSockets.js) and Prisma's runtime load as installed.
 * The release (image and its test) builds through scripts/build-release.mjs,
 * which calls `buildServices` with the release folder's dist/.
 *
 * Every output file sits exactly two folders below dist/ (entry points and
 * shared chunks alike), so the lobby's `new URL('../../prisma/migrations',
 * import.meta.url)` finds dist/prisma/migrations, copied here.
 * Fails (throws, exit 1 from the command line) on any compile error, e.g. a
 * Prisma client not generated yet (`npm run generate -w services/lobby`).
 */
import { build } from 'esbuild';
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
export const ENTRY_POINTS = {
  'services/gateway/main': 'services/gateway/src/main.ts',
  'services/lobby/main': 'services/lobby/src/main.ts',
  'services/lobby/streams-cli': 'services/lobby/src/streams-cli.ts',
  'services/matchmaker/main': 'services/matchmaker/src/main.ts',
  'services/matchmaker/rebalance-cli': 'services/matchmaker/src/rebalance-cli.ts',
  'services/room-worker/main': 'services/room-worker/src/main.ts',
  'services/platform/main': 'services/platform/src/main.ts',
};

/** Workspace packages are compiled in; third-party packages are loaded from node_modules. */
const externalThirdParty = {
  name: 'external-third-party',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@joke/') || args.path.startsWith('node:') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * Compiles into `outdir` (emptied first) and returns the third-party packages the bundles import, also
 * written to <outdir>/externals.json: scripts/prune-production.mjs ships exactly these (and what they need).
 */
export async function buildServices(outdir = join(root, 'dist')) {
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(ENTRY_POINTS).map(([k, v]) => [k, join(root, v)])),
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    splitting: true,
    chunkNames: 'services/chunks/[name]-[hash]',
    sourcemap: 'linked',
    legalComments: 'none',
    plugins: [externalThirdParty],
    logLevel: 'warning',
    metafile: true,
  });
  cpSync(join(root, 'services/lobby/prisma/migrations'), join(outdir, 'prisma/migrations'), { recursive: true });
  const packageOf = (spec) =>
    spec
      .split('/')
      .slice(0, spec.startsWith('@') ? 2 : 1)
      .join('/');
  // uWebSockets.js is loaded with createRequire (services/gateway/src/uws.ts), which esbuild does not see.
  const externals = new Set(['uWebSockets.js']);
  for (const out of Object.values(result.metafile.outputs))
    for (const imp of out.imports)
      if (imp.external && !imp.path.startsWith('node:')) externals.add(packageOf(imp.path));
  const sorted = [...externals].sort();
  writeFileSync(join(outdir, 'externals.json'), `${JSON.stringify(sorted, null, 2)}\n`);
  // The compiled files are ES modules wherever dist/ is copied (the image has no root package.json).
  writeFileSync(join(outdir, 'package.json'), `${JSON.stringify({ type: 'module', private: true })}\n`);
  const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  console.log(`${outdir}: ${Object.keys(ENTRY_POINTS).length} entry points, ${(bytes / 1024).toFixed(0)} KiB`);
  return sorted;
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServices();
