/**
 * `npm start` (services/platform/src/main.ts) and the standalone lobby run as
 * their own processes, as an operator runs them, for tests that must see a
 * process die: each resolves once it prints its URLs, records every line it
 * writes, and fails at once if it exits first. A tiny built client (an
 * index.html, one hashed script, harness.html) stands in for client/dist, so
 * no vite build is needed. `JOKE_LAST_RESORT_LINE` makes a caught stray error
 * visible as a `LAST_RESORT` line even though the process survives it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const PG_BASE = process.env.LOBBY_TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';

export interface LiveProcess {
  child: ChildProcess;
  /** Public HTTP base (client, /trpc, probes). */
  httpUrl: string;
  /** ws://…/ws of the gateway (platform only). */
  gatewayUrl: string;
  /** Ops base (/metrics). */
  opsUrl: string;
  out: string[];
  alive(): boolean;
  /** Lines the last resort printed: each is a stray error the process survived (a bug). */
  lastResortLines(): string[];
  stop(): Promise<void>;
}

/** A stand-in for client/dist: what the static handler needs to serve pages, assets and the harness. */
export function fakeClientDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'joke-fake-client-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(
    join(dir, 'index.html'),
    '<!doctype html><title>joke</title><script type="module" src="./assets/index-a1.js"></script>',
  );
  writeFileSync(join(dir, 'harness.html'), '<!doctype html><title>harness</title>');
  writeFileSync(join(dir, 'assets/index-a1.js'), `export const x = ${JSON.stringify('카드'.repeat(800))};\n`);
  return dir;
}

/** A fresh PostgreSQL schema URL and the function that drops it. */
export function freshSchema(prefix: string): { url: string; drop(): Promise<void> } {
  const schema = `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  return {
    url: `${PG_BASE}?schema=${schema}`,
    async drop() {
      const c = new pg.Client({ connectionString: PG_BASE });
      await c.connect();
      try {
        await c.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await c.end();
      }
    },
  };
}

function launch(
  entry: string,
  env: Record<string, string>,
  ready: (text: string) => { httpUrl: string; gatewayUrl: string; opsUrl: string } | null,
  startMs: number,
): Promise<LiveProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', entry], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', JOKE_LAST_RESORT_LINE: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  child.stdout!.on('data', (b) => out.push(String(b)));
  child.stderr!.on('data', (b) => out.push(String(b)));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not start within ${startMs} ms:\n${out.join('')}`));
    }, startMs);
    const onExit = () => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited before it was ready (${child.exitCode}):\n${out.join('')}`));
    };
    child.once('exit', onExit);
    const check = () => {
      const urls = ready(out.join(''));
      if (!urls) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout!.off('data', check);
      resolve({
        child,
        ...urls,
        out,
        alive: () => child.exitCode === null && child.signalCode === null,
        lastResortLines: () =>
          out
            .join('')
            .split('\n')
            .filter((l) => l.startsWith('LAST_RESORT')),
        async stop() {
          if (child.exitCode !== null || child.signalCode !== null) return;
          child.kill('SIGKILL');
          await exited;
        },
      });
    };
    child.stdout!.on('data', check);
  });
}

/** `npm start` on free ports, its lobby on `databaseUrl`, serving `clientDir`. */
export function startProductProcess(env: Record<string, string>, startMs = 150_000): Promise<LiveProcess> {
  return launch(
    'services/platform/src/main.ts',
    { HOST: '127.0.0.1', PORT: '0', GATEWAY_PORT: '0', OPS_PORT: '0', LOG_LEVEL: 'warn', ...env },
    (text) => {
      const http = /Client {4}(http:\/\/\S+?)\/ /.exec(text);
      const ws = /WebSocket (ws:\/\/\S+)/.exec(text);
      const ops = /Ops {7}(http:\/\/\S+?)\/metrics/.exec(text);
      return http && ws && ops ? { httpUrl: http[1], gatewayUrl: ws[1], opsUrl: ops[1] } : null;
    },
    startMs,
  );
}

/** The standalone lobby (services/lobby/src/main.ts) on free ports. */
export function startLobbyProcess(env: Record<string, string>, startMs = 150_000): Promise<LiveProcess> {
  return launch(
    'services/lobby/src/main.ts',
    { HOST: '127.0.0.1', PORT: '0', OPS_PORT: '0', LOG_LEVEL: 'info', ...env },
    (text) => {
      const m = /"url":"(http:\/\/[^"]+)","ops":"(http:\/\/[^"]+)"[^\n]*"msg":"lobby listening"/.exec(text);
      return m ? { httpUrl: m[1], gatewayUrl: '', opsUrl: m[2] } : null;
    },
    startMs,
  );
}

/**
 * One raw HTTP/1.1 exchange over TCP, bytes exactly as given (no client library normalises the path or
 * refuses a header). Resolves with the status, or null when the server closed without one.
 */
export async function rawRequest(
  base: string,
  head: string,
  body: Buffer = Buffer.alloc(0),
  timeoutMs = 15_000,
): Promise<number | null> {
  const { connect } = await import('node:net');
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms to ${JSON.stringify(head.slice(0, 200))}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(Buffer.concat(chunks).toString('latin1'));
      resolve(m ? Number(m[1]) : null);
    };
    socket.on('data', (c) => {
      chunks.push(c);
      // The status line is all a test needs: stop reading once it is here.
      if (/^HTTP\/1\.[01] \d{3}/.test(Buffer.concat(chunks).toString('latin1'))) {
        socket.destroy();
        done();
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => done());
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]));
  });
}
