/**
 * What the k6 tests need around a real k6: the binary (K6_BIN, else `k6` on PATH, else
 * ../shared/bin/k6 beside the repository, where CI puts it), the bundled scripts (build.mjs), the
 * product as `npm start` runs it (services/platform/src/main.ts, in memory, ports from the OS) in a
 * child process, and one bounded k6 run whose handleSummary JSON is read back.
 *
 * Failure modes: a platform that prints no URLs in 300 s, or a k6 run past its time limit, is
 * killed (SIGKILL) and the test fails with its output; every child is killed in `stop()`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { K6Report } from '../k6/src/summary.ts';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const k6Dir = join(repoRoot, 'load-tests', 'k6');

/** The k6 binary to use, or null: K6_BIN, then `k6` on PATH, then ../shared/bin/k6 beside the repository. */
export function findK6(): string | null {
  const candidates = [process.env.K6_BIN, 'k6', join(repoRoot, '..', 'shared', 'bin', 'k6')];
  for (const c of candidates) {
    if (!c) continue;
    if (c.includes('/') && !existsSync(c)) continue;
    const r = spawnSync(c, ['version'], { encoding: 'utf8', timeout: 20_000 });
    if (r.status === 0 && /^k6 v1\./.test(r.stdout)) return c;
  }
  return null;
}

export interface Platform {
  lobby: string;
  ws: string;
  child: ChildProcess;
  output: string[];
}

/** `npm start`'s product in memory on OS-chosen ports; `env` adds settings (e.g. LOBBY_RATE_GUEST_PER_IP). */
export function startPlatform(env: Record<string, string>): Promise<Platform> {
  const clean = { ...process.env };
  for (const k of ['NATS_URL', 'REDIS_URL', 'DATABASE_URL', 'JWT_SECRET', 'DATA_DIR', 'LOBBY_RATE_GUEST_PER_IP'])
    delete clean[k];
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/platform/src/main.ts', '--in-memory'], {
    cwd: repoRoot,
    // Every port from the OS, the ops port too: other test lanes start platforms at the same time.
    env: { ...clean, PORT: '0', GATEWAY_PORT: '0', OPS_PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the platform did not start in 300 s:\n${output.join('')}`));
    }, 300_000);
    let text = '';
    const onData = (d: Buffer) => {
      text += String(d);
      if (output.length < 100) output.push(String(d));
      const lobby = /Lobby API (http:\/\/\S+\/trpc)/.exec(text);
      const ws = /WebSocket (ws:\/\/\S+)/.exec(text);
      if (lobby && ws) {
        clearTimeout(timer);
        resolve({ lobby: lobby[1], ws: ws[1], child, output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d: Buffer) => output.length < 100 && output.push(String(d)));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the platform exited (${code}):\n${output.join('')}`));
    });
  });
}

export async function stopPlatform(p: Platform | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null) return;
  const gone = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  const timer = setTimeout(() => p.child.kill('SIGKILL'), 10_000);
  await gone;
  clearTimeout(timer);
}

export interface K6Run {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
  report: K6Report | null;
}

/** One k6 run of dist/`script`.js with `-e` variables; killed after `limitMs`. */
export function runK6(
  k6: string,
  script: 'tables' | 'ping',
  vars: Record<string, string | number>,
  opts: { limitMs: number; args?: string[] },
): Promise<K6Run> {
  const dir = mkdtempSync(join(tmpdir(), 'joke-k6-'));
  const summary = join(dir, 'summary.json');
  // --address '': no REST API server, whose fixed port (6565) another k6 on the box may hold.
  const args = ['run', '--quiet', '--address', '', ...(opts.args ?? [])];
  for (const [k, v] of Object.entries({ ...vars, SUMMARY_JSON: summary })) args.push('-e', `${k}=${v}`);
  args.push(join(k6Dir, 'dist', `${script}.js`));
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(k6, args, {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, K6_NO_USAGE_REPORT: 'true' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.limitMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      let report: K6Report | null = null;
      if (existsSync(summary)) report = (JSON.parse(readFileSync(summary, 'utf8')) as { report: K6Report }).report;
      resolve({ code, stdout, stderr, wallMs: Date.now() - started, report });
    });
  });
}
