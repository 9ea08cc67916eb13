#!/usr/bin/env node
/**
 * Bundles the k6 scripts (tables.ts, ping.ts) with everything they import — the engine's games and
 * bot policy, services/protocol's schemas, the swarm's mix parser — into dist/*.js, which k6 runs
 * (`npm run k6:build -w load-tests`; the k6 tests build first). k6 modules (`k6`, `k6/…`) stay
 * imports. The output targets ES2020, which k6's runtime (Sobek) runs; dist/ is not committed.
 * Failure modes: a source that does not compile fails the build with esbuild's message (exit 1).
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
export const ENTRIES = ['tables', 'ping'];

/**
 * zod's namespace re-exports every locale's messages (≈ 360 KiB of the bundle, parsed by every VU);
 * only English is ever configured, so the locale index is replaced by English alone.
 */
const englishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${'zod'}/v4/`) ? { path: args.importer, namespace: 'zod-locales' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(new URL('../locales/en.js', `file://${args.path}`).pathname)};`,
      loader: 'js',
      resolveDir: new URL('.', `file://${args.path}`).pathname,
    }));
  },
};

export async function buildK6({ outdir = `${here}dist`, quiet = false } = {}) {
  const result = await build({
    absWorkingDir: here,
    entryPoints: ENTRIES.map((e) => `${here}${e}.ts`),
    outdir,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2020',
    mainFields: ['module', 'main'],
    conditions: ['import', 'default'],
    external: ['k6', 'k6/*'],
    minify: true,
    plugins: [englishOnly],
    legalComments: 'none',
    metafile: true,
    logLevel: quiet ? 'error' : 'warning',
  });
  return Object.fromEntries(Object.entries(result.metafile.outputs).map(([f, o]) => [f, o.bytes]));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = await buildK6();
  for (const [file, bytes] of Object.entries(sizes)) console.log(`${file} ${(bytes / 1024).toFixed(0)} KiB`);
}
