/**
 * CPU of headless Chromium for a still table page, drawn only on change (the product) and drawn
 * every frame (`?pace=off`, Phaser's default), measured in the same run, plus the frames each drew.
 * `npx tsx client/bench/render-pace.ts [--seconds 15]`. Run it on a quiet box: the figure is CPU
 * time of every Chromium process on the machine while the page sits still.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, readdirSync } from 'node:fs';
import { clientHandler } from '@joke/web';
import { buildClient } from '../test/support/build.ts';
import { launchBrowser } from '../test/support/browser.ts';

const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const SECONDS = arg('seconds', 15);
const TICK = 100; // USER_HZ: /proc/<pid>/stat counts CPU time in 1/100 s

/** CPU seconds used so far by every Chromium process (from /proc, live and exact to 10 ms). */
function chromiumCpu(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!/chrom/i.test(name)) continue;
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]); // utime, stime
    } catch {
      // the process ended while we read it
    }
  }
  return ticks / TICK;
}

const dir = buildClient();
const server = createServer(clientHandler({ dir, gatewayUrl: 'ws://127.0.0.1:9/ws' }));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const { browser, close } = await launchBrowser();

async function still(label: string, extra: string): Promise<number> {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
  await page.goto(`${base}/harness.html?mode=classic&players=4&bots=0&seed=bench&scenario=attack${extra}`);
  await page.waitForFunction(() => (window.__joke?.layout() as { scene?: string }).scene === 'table');
  const counts = () => page.evaluate(() => window.__joke!.renderCounts());
  const c0 = chromiumCpu();
  const f0 = await counts();
  const t0 = performance.now();
  for (let s = 0; s < SECONDS; s++) {
    await new Promise((r) => setTimeout(r, 1000));
    process.stdout.write(`\r${label}: ${s + 1}/${SECONDS} s`);
  }
  const secs = (performance.now() - t0) / 1000;
  const cores = (chromiumCpu() - c0) / secs;
  const f1 = await counts();
  process.stdout.write(
    `\r${label}: ${cores.toFixed(2)} CPU cores, ${f1.drawn - f0.drawn} frames drawn and ${f1.skipped - f0.skipped} skipped in ${secs.toFixed(1)} s\n`,
  );
  await page.close();
  return cores;
}

const paced = await still('paced (product)', '');
const every = await still('every frame (?pace=off)', '&pace=off');
console.log(`still table page: every frame / paced = ${(every / paced).toFixed(1)}×`);
await close();
server.close();
