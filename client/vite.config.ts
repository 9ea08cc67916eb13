/**
 * The client is a static bundle: index.html (the game) and, in test builds only, harness.html (a dev
 * page that renders tables from engine views computed in the browser).
 * Chunks: the entry (the DOM lobby, entry.ts), the game (main.ts: scenes and tables, imported after the
 * lobby painted), Phaser on its own (so a game update does not re-download the engine) and the other
 * packages (vendor).
 * `vite build --mode test` is the browser tests' build (test/support/build.ts): it keeps the test
 * hook and frame capture (src/testhook.ts, src/frame-log.ts), adds the harness and writes
 * TEST_BUILD_MARKER, by which `npm start` (scripts/start.mjs) knows to rebuild client/dist for players.
 * Plain `vite build` is the production build.
 * In `vite` dev mode, /trpc and /config.json go to the embedded platform.
 */
import { defineConfig, type Plugin } from 'vite';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const platform = process.env.JOKE_PLATFORM_URL ?? 'http://127.0.0.1:8080';

/** In the output folder of a test build only (scripts/start.mjs checks for it). */
export const TEST_BUILD_MARKER = 'test-build.txt';

const testBuildMarker = (): Plugin => ({
  name: 'joke-test-build-marker',
  generateBundle() {
    const source = 'A test build (vite build --mode test): window.__joke and frame capture are in. Not for players.\n';
    this.emitFile({ type: 'asset', fileName: TEST_BUILD_MARKER, source });
  },
});

/**
 * The OFL asks every copy of the fonts to carry their licence: the bundle's
 * woff2 assets get it beside them (the subsets' own notice + the full text).
 */
const fontLicence = (): Plugin => ({
  name: 'joke-font-licence',
  generateBundle() {
    const source = readFileSync(here('./src/fonts/LICENSE.txt'), 'utf8');
    this.emitFile({ type: 'asset', fileName: 'assets/Pretendard-LICENSE.txt', source });
  },
});

export default defineConfig(({ mode }) => ({
  base: './',
  plugins: mode === 'test' ? [fontLicence(), testBuildMarker()] : [fontLicence()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1600,
    rolldownOptions: {
      input: {
        index: here('./index.html'),
        ...(mode === 'test' ? { harness: here('./harness.html') } : {}),
      },
      output: {
        codeSplitting: {
          groups: [
            { name: 'phaser', test: /node_modules[\\/]phaser[\\/]/, priority: 20 },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
  server: {
    host: '127.0.0.1',
    proxy: {
      '/trpc': platform,
      '/config.json': platform,
    },
  },
}));
