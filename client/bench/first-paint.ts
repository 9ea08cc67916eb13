/**
 * First contentful paint of the page a player gets (issue 41 §4: within 1 s on loopback), beside an
 * anchor measured in the same run: a one-line static page served by the same server to the same
 * Chromium. A loaded box stretches both, so the ratio says what the page itself costs; the
 * milliseconds say what this box gave it. `npm run bench:first-paint -w @joke/client [-- --visits 5]`
 * (docs/measurements/client.md keeps the figures).
 *
 * What it runs: the production build (`vite build`, what `npm start` serves) in a temporary folder,
 * served by the product's own client handler (@joke/web, as the platform mounts it at /; no lobby
 * behind it: first paint and the lobby's form need none), headless Chromium at 390×844 DPR 3. Each visit
 * is a new browser context (empty cache, a first visit) after one warm-up visit of each page (Chromium's
 * processes started, every asset compressed once by the server). Visits take turns — anchor, default
 * renderer, Canvas renderer — so a change of load falls on all three alike.
 * Failure modes: a page that never paints ends the run with its error; the build folder is removed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { clientHandler } from '@joke/web';
import { buildClient } from '../test/support/build.ts';
import { launchBrowser } from '../test/support/browser.ts';
import { paintTimings, recordPaintTimings } from '../test/support/paint-timing.ts';

const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const VISITS = arg('visits', 5);
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, locale: 'ko-KR' };
/** The anchor: one line of text, the least a page can paint, with the lobby's charset and language. */
const ANCHOR = '<!doctype html><html lang="ko"><meta charset="utf-8"><title>기준</title><p>기준 페이지</p></html>';

const PAGES = {
  anchor: '/fcp-anchor.html',
  default: '/',
  canvas: '/?renderer=canvas',
} as const;
type PageName = keyof typeof PAGES;

/** One first visit: FCP from navigation start, and (the lobby only) when the nickname field appeared. */
async function visit(browser: Browser, url: string, lobby: boolean): Promise<{ fcp: number; usable: number | null }> {
  const ctx = await browser.newContext(PHONE);
  try {
    const page = await ctx.newPage();
    await recordPaintTimings(page);
    await page.goto(url);
    if (lobby) await page.getByTestId('nickname').waitFor();
    await page.waitForFunction(() => window.__fcp !== undefined);
    const t = await paintTimings(page);
    return { fcp: t.fcp!, usable: t.usable };
  } finally {
    await ctx.close();
  }
}

const dir = buildClient(undefined, 'production');
writeFileSync(join(dir, PAGES.anchor.slice(1)), ANCHOR);
const server = createServer(clientHandler({ dir, gatewayUrl: 'ws://127.0.0.1:9/ws' }));
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const { browser, close } = await launchBrowser();
try {
  const names = Object.keys(PAGES) as PageName[];
  for (const name of names) await visit(browser, base + PAGES[name], name !== 'anchor'); // warm-up
  const fcps: Record<PageName, number[]> = { anchor: [], default: [], canvas: [] };
  const loads: number[] = [];
  for (let i = 0; i < VISITS; i++)
    for (const name of names) {
      loads.push(loadavg()[0] / cpus().length);
      const v = await visit(browser, base + PAGES[name], name !== 'anchor');
      fcps[name].push(v.fcp);
      const usable = v.usable === null ? '' : `, lobby usable ${v.usable.toFixed(0)} ms`;
      console.log(`visit ${i + 1} ${name}: FCP ${v.fcp.toFixed(0)} ms${usable}`);
    }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const a = median(fcps.anchor);
  console.log(
    `\nload per core ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; ${VISITS} visits each, 390×844 DPR 3`,
  );
  for (const name of names) {
    const m = median(fcps[name]);
    const ratio = name === 'anchor' ? '' : `, ${(m / a).toFixed(2)}× the anchor`;
    console.log(
      `${name.padEnd(7)} FCP median ${m.toFixed(0)} ms, best ${Math.min(...fcps[name]).toFixed(0)} ms${ratio}`,
    );
  }
} finally {
  await close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
}
