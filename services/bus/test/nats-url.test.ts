/**
 * Credentials in NATS_URL: parsed out of the server list, and accepted by a
 * real nats-server with authorization (a wrong password is refused).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NatsBus } from '../src/index.ts';
import { natsServers } from '../src/nats-url.ts';

describe('NATS_URL with credentials', () => {
  it('takes user and password out of the server URLs', () => {
    expect(natsServers('nats://127.0.0.1:4222')).toEqual({ servers: ['nats://127.0.0.1:4222'] });
    expect(natsServers('nats://gateway:s%40cret@nats-0:4222, nats://gateway:s%40cret@nats-1:4222')).toEqual({
      servers: ['nats://nats-0:4222', 'nats://nats-1:4222'],
      user: 'gateway',
      pass: 's@cret',
    });
    expect(natsServers('127.0.0.1:4222')).toEqual({ servers: ['127.0.0.1:4222'] });
  });

  let server: ChildProcess;
  let port = 0;
  let dir: string;
  beforeAll(async () => {
    port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    dir = mkdtempSync(join(tmpdir(), 'joke-nats-'));
    writeFileSync(
      join(dir, 'nats.conf'),
      `listen: 127.0.0.1:${port}\nauthorization { users = [ { user: gateway, password: "pw-1234" } ] }\n`,
    );
    server = spawn('nats-server', ['-c', join(dir, 'nats.conf')], { stdio: ['ignore', 'pipe', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('nats-server did not start')), 20_000);
      server.stderr!.on('data', (b) => {
        if (String(b).includes('Server is ready')) {
          clearTimeout(t);
          resolve();
        }
      });
    });
  }, 30_000);
  afterAll(() => {
    server?.kill('SIGKILL');
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('connects to a server that requires them, and is refused with a wrong password', async () => {
    const bus = await NatsBus.connect(`nats://gateway:pw-1234@127.0.0.1:${port}`, { name: 'auth-test' });
    const got = new Promise<string>((r) =>
      bus.subscribe('t.x', (m) => r(typeof m.data === 'string' ? m.data : new TextDecoder().decode(m.data))),
    );
    bus.publish('t.x', 'hello');
    expect(await got).toBe('hello');
    await bus.close();
    await expect(NatsBus.connect(`nats://gateway:wrong@127.0.0.1:${port}`, { name: 'auth-test' })).rejects.toThrow(
      /Authorization/i,
    );
  });
});
