/**
 * The client is a static bundle: index.html (the game) and harness.html (a
 * dev page that renders tables from engine views computed in the browser).
 * Phaser gets its own chunk so a game update does not re-download the engine.
 * In `vite` dev mode, /trpc and /config.json go to the embedded platform.
 */
import { defineConfig, type Plugin } from 'vite';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const platform = process.env.JOKE_PLATFORM_URL ?? 'http://127.0.0.1:8080';

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

export default defineConfig({
  base: './',
  plugins: [fontLicence()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1600,
    rolldownOptions: {
      input: { index: here('./index.html'), harness: here('./harness.html') },
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
});
