/**
 * The CLI end to end on a small in-process stack: two worker processes
 * (sockets from 127.0.0.2 and 127.0.0.3) play a few seconds of tables; a
 * threshold that cannot hold makes the run exit 99; the merged histogram in
 * the JSON equals the histogram of both processes' raw samples; the HTML
 * report opens in Chromium with data in every chart.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeFromCompressedBase64, encodeIntoCompressedBase64 } from 'hdr-histogram-js';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_JWT_SECRET } from '@joke/protocol/auth';
import { newHistogram, RunStats, startStack, toMicros, type LoadReport, type Stack } from '../src/index.ts';

const swarm = fileURLToPath(new URL('../src/swarm.ts', import.meta.url));
let stack: Stack;
let dir: string;
let run: { code: number | null; stdout: string; stderr: string };
let report: LoadReport;

beforeAll(async () => {
  stack = await startStack({});
  dir = mkdtempSync(join(tmpdir(), 'joke-load-'));
  const args = [
    '--import',
    'tsx',
    swarm,
    '--url',
    stack.urls[0],
    '--auth',
    'jwt-secret',
    '--jwt-secret',
    DEV_JWT_SECRET,
    '--stages',
    // 15 s, not 5: in a clean-clone run at load 40 the four tables had connected but not yet made a move
    // when a 5 s hold ended, and every figure below was 0. The tables start within a second on a quiet box.
    'ramp:4:1s,hold:15s',
    '--think-ms',
    '40',
    '--spectators',
    '1',
    '--storm',
    '3s:50%',
    '--workers',
    '2',
    '--raw-samples',
    '--interval',
    '1',
    '--threshold',
    'p99<0.001',
    '--threshold',
    'errors<1000',
    '--report',
    join(dir, 'r.html'),
    '--json',
    join(dir, 'r.json'),
    '--live-ms',
    '0',
  ];
  run = await new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: fileURLToPath(new URL('..', import.meta.url)) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
  report = JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'));
}, 120_000);

afterAll(async () => {
  await stack?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('npm run load, two worker processes', () => {
  it('exits 99 when a threshold fails, and says which', () => {
    expect(run.code, run.stderr).toBe(99);
    expect(report.thresholds.map((t) => [t.threshold, t.ok])).toEqual([
      ['p99<0.001', false],
      ['errors<1000', true],
      // The two every run must meet unless it relaxes them (thresholds.ts).
      ['seated>=95%', true],
      ['actions>0', true],
    ]);
    expect(run.stderr).toMatch(/threshold ✘ p99<0\.001/);
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).toMatchObject({ ok: false });
    expect(report.totals.actions).toBeGreaterThan(0);
    expect(report.sourceAddresses).toEqual([['127.0.0.2'], ['127.0.0.3']]);
  });

  it('spectators watch the tables and a reconnect storm drops and resumes sockets without errors', () => {
    expect(report.totals.spectatorViews).toBeGreaterThan(0);
    expect(report.totals.reconnect.count).toBeGreaterThan(0);
    expect(report.totals.errors).toBe(0);
    // 4 tables × (4 players + 1 spectator) sockets at the peak.
    expect(report.totals.peakSockets).toBe(20);
    expect(run.stderr).toMatch(/reconnect storm: dropped \d+ of \d+ sockets \(50%\)/);
  });

  it("the merged histogram equals the histogram of both processes' samples", () => {
    expect(report.samples).toHaveLength(2);
    for (const s of report.samples!) expect(s.length).toBeGreaterThan(0);
    const all = newHistogram();
    for (const s of report.samples!) for (const ms of s) all.recordValue(toMicros(ms));
    const merged = RunStats.decode(report.stats).total.hist.action;
    expect(merged.totalCount).toBe(all.totalCount);
    for (let p = 0; p <= 100; p += 0.5)
      expect(merged.getValueAtPercentile(p), `p${p}`).toBe(all.getValueAtPercentile(p));
    // Bucket for bucket: min, max and mean as the interchange format carries them (bucket edges, not raw values).
    const sent = decodeFromCompressedBase64(encodeIntoCompressedBase64(all));
    expect([merged.minNonZeroValue, merged.maxValue, merged.mean]).toEqual([
      sent.minNonZeroValue,
      sent.maxValue,
      sent.mean,
    ]);
    expect(merged.outputPercentileDistribution()).toBe(sent.outputPercentileDistribution());
    // Intervals merge too: their counts add up to the total.
    const intervals = RunStats.decode(report.stats).intervals;
    expect([...intervals.values()].reduce((a, b) => a + b.hist.action.totalCount, 0)).toBe(all.totalCount);
  });

  it('writes an HTML report whose charts have data in Chromium', async () => {
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      // No network: everything the page needs is inside the file.
      await page.route('**/*', (r) => (r.request().url().startsWith('file:') ? r.continue() : r.abort()));
      await page.goto(`file://${join(dir, 'r.html')}`);
      const charts = await page.evaluate(
        // Runs in the page (no DOM types in this workspace's tsconfig).
        () => (globalThis as unknown as { __charts: { title: string; points: number; canvas: boolean }[] }).__charts,
      );
      expect(errors).toEqual([]);
      expect(charts.map((c) => c.title)).toEqual([
        'Action → view latency per interval',
        'Actions per second',
        'Open sockets and tables',
        'Connect and reconnect p95',
        'Errors per second by kind',
      ]);
      for (const c of charts) {
        expect(c.canvas, c.title).toBe(true);
        expect(c.points, c.title).toBeGreaterThan(0);
      }
      expect(await page.locator('#verdict').textContent()).toBe('FAIL');
      expect(await page.locator('#thresholds td.failed').count()).toBe(1);
      expect(await page.locator('#stages tr').count()).toBe(3);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
