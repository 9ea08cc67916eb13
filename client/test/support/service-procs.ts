/**
 * The services as separate processes, the way load-tests/scripts/measure-stack.sh starts them: each
 * `services/<svc>/src/main.ts` under tsx with its own environment, on the real NATS, Redis and PostgreSQL,
 * in a namespace of the caller's. Ready when its ops server answers /readyz 200.
 *
 * State: every process started here is the caller's to stop (`stop`, by pid: SIGKILL, as a node dies).
 * Failure modes: a process that exits or is not ready in time rejects with its last output.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface ServiceProcess {
  name: string;
  /** Its output so far (stdout and stderr). */
  output(): string;
  stop(): Promise<void>;
}

const readyz = (port: number): Promise<number> =>
  fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
    (r) => r.status,
    () => 0,
  );

/** Starts `services/<service>/src/main.ts`; resolves once its /readyz (on OPS_PORT) answers 200. */
export async function startService(
  service: string,
  env: Record<string, string>,
  readyMs = 120_000,
): Promise<ServiceProcess> {
  const opsPort = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', `services/${service}/src/main.ts`], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env, OPS_PORT: String(opsPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const out: string[] = [];
  const keep = (b: Buffer) => {
    out.push(String(b));
    if (out.length > 200) out.shift();
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const proc: ServiceProcess = {
    name: service,
    output: () => out.join(''),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(child.pid!, 'SIGKILL');
      await exited;
    },
  };
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`${service} exited (${child.exitCode ?? child.signalCode}):\n${proc.output()}`);
    if ((await readyz(opsPort)) === 200) return proc;
    if (Date.now() - t0 > readyMs) {
      await proc.stop();
      throw new Error(`${service} not ready after ${readyMs} ms:\n${proc.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
