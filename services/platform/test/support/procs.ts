/**
 * Processes a test owns: a nats-server or redis-server on a port of its own
 * (so the test may stop it by pid without touching the shared ones), and a
 * service started from its source with tsx. Everything is stopped by pid.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './helm.ts';

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `cond` every 50 ms until it holds; fails naming `what` after `ms`. */
export async function until(cond: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** GET status of a URL, or 0 when nothing answers. */
export const statusOf = (url: string): Promise<number> =>
  fetch(url, { signal: AbortSignal.timeout(5000) }).then(
    (r) => r.status,
    () => 0,
  );

export interface OwnedServer {
  readonly port: number;
  readonly url: string;
  pid(): number | undefined;
  /** SIGKILL by pid, resolves once it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

function owned(
  port: number,
  url: string,
  command: string,
  args: string[],
  readyLine: RegExp,
  cleanup = () => {},
): OwnedServer {
  let child: ChildProcess | null = null;
  const stop = async () => {
    const c = child;
    child = null;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    process.kill(c.pid!, 'SIGKILL');
    await exited;
  };
  return {
    port,
    url,
    pid: () => child?.pid,
    stop,
    async start() {
      const c = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child = c;
      let out = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${command} did not start: ${out}`)), 30_000);
        const on = (b: Buffer) => {
          out += String(b);
          if (readyLine.test(out)) {
            clearTimeout(timer);
            resolve();
          }
        };
        c.stdout!.on('data', on);
        c.stderr!.on('data', on);
        c.once('exit', (code) => reject(new Error(`${command} exited ${code}: ${out}`)));
      });
    },
    async close() {
      await stop();
      cleanup();
    },
  };
}

/** A nats-server of this test only; `config` (nats.conf text) adds e.g. the chart's authorization block. */
export async function ownNats(opts: { config?: string; env?: Record<string, string> } = {}): Promise<OwnedServer> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'own-nats-'));
  const conf = join(dir, 'nats.conf');
  // JetStream on, as every deployment runs it: game results travel on a durable stream.
  writeFileSync(
    conf,
    `listen: 127.0.0.1:${port}\njetstream { store_dir: "${join(dir, 'js')}" }\n${opts.config ?? ''}\n`,
  );
  const env = Object.entries(opts.env ?? {});
  // nats-server reads `$NAME` references from its environment: pass them through `env`.
  const args = ['-c', conf];
  const command = env.length ? '/usr/bin/env' : '/usr/sbin/nats-server';
  const s = owned(
    port,
    `nats://127.0.0.1:${port}`,
    command,
    env.length ? [...env.map(([k, v]) => `${k}=${v}`), '/usr/sbin/nats-server', ...args] : args,
    /Server is ready/,
    () => rmSync(dir, { recursive: true, force: true }),
  );
  await s.start();
  return s;
}

/** A redis-server of this test only, in the foreground (its pid is ours), nothing persisted. */
export async function ownRedis(): Promise<OwnedServer> {
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const s = owned(port, `redis://127.0.0.1:${port}`, 'redis-server', args, /Ready to accept connections/);
  await s.start();
  return s;
}

export interface ServiceProc {
  name: string;
  child: ChildProcess;
  out: string[];
  stop(): Promise<void>;
}

/** Starts `services/<service>/src/main.ts` with tsx and only the given environment (plus PATH). */
export function startService(service: string, env: Record<string, string>): ServiceProc {
  const child = spawn(process.execPath, ['--import', 'tsx', `services/${service}/src/main.ts`], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  child.stdout!.on('data', (b) => out.push(String(b)));
  child.stderr!.on('data', (b) => out.push(String(b)));
  return {
    name: service,
    child,
    out,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      process.kill(child.pid!, 'SIGKILL');
      await exited;
    },
  };
}
