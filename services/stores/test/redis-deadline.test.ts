/**
 * The shared-signal bound on store scripts (src/store/redis-deadline.ts): a
 * command that could not be sent (the connection is down) is still dropped and
 * rejected within the bound, as node-redis's own timeout did, and answered
 * commands are unaffected. Against a tiny RESP server that can go away (no
 * outage of the shared Redis).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import { CommandDeadlines } from '../src/redis-deadline.ts';

/** Answers `+OK` to every command (handshake included). */
function respServer() {
  const state = { sockets: new Set<Socket>() };
  const server: Server = createServer((socket) => {
    state.sockets.add(socket);
    let buf = '';
    socket.on('data', (d) => {
      buf += d.toString('latin1');
      // Each command is an array: *N\r\n then N bulk strings $len\r\n<bytes>\r\n.
      for (;;) {
        const end = commandEnd(buf);
        if (end < 0) break;
        buf = buf.slice(end);
        socket.write('+OK\r\n');
      }
    });
  });
  return { server, state };
}
function commandEnd(buf: string): number {
  let at = buf.indexOf('\r\n');
  if (buf[0] !== '*' || at < 0) return -1;
  const n = Number(buf.slice(1, at));
  at += 2;
  for (let i = 0; i < n; i++) {
    const eol = buf.indexOf('\r\n', at);
    if (eol < 0) return -1;
    at = eol + 2 + Number(buf.slice(at + 1, eol)) + 2;
    if (at > buf.length) return -1;
  }
  return at;
}

describe('CommandDeadlines', () => {
  const { server, state } = respServer();
  let client: ReturnType<typeof createClient>;
  beforeAll(async () => {
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const { port } = server.address() as { port: number };
    // Keeps trying to reconnect once the server is gone: commands wait in its offline queue meanwhile.
    client = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: () => 20 } });
    client.on('error', () => {});
    await client.connect();
  });
  afterAll(async () => {
    client.destroy();
  });

  it('answers as before, from one proxy per 100 ms slot', async () => {
    let made = 0;
    // The slot's clock is the test's: under two busy loops one awaited SET took longer than a real 100 ms slot.
    let now = 0;
    const d = new CommandDeadlines(
      (o) => (made++, client.withCommandOptions(o)),
      5000,
      () => now,
    );
    expect(await d.current().set('k', 'v')).toBe('OK');
    now = 99;
    expect(await d.current().set('k', 'v')).toBe('OK');
    expect(made).toBe(1);
    now = 100;
    expect(await d.current().set('k', 'v')).toBe('OK');
    expect(made).toBe(2);
  });

  it('drops every command it could not send once the bound has passed, never before bound - 100 ms', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    const d = new CommandDeadlines((o) => client.withCommandOptions(o), 300);
    server.close();
    for (const s of state.sockets) s.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    // More than the default listener limit (10) in one slot: no leak warning.
    const settled = await Promise.allSettled(Array.from({ length: 20 }, () => d.current().set('k', 'v')));
    const waited = performance.now() - t0;
    process.off('warning', onWarning);
    expect(settled.every((s) => s.status === 'rejected' && (s.reason as Error).constructor.name === 'AbortError')).toBe(
      true,
    );
    expect(waited).toBeGreaterThanOrEqual(195);
    expect(waited).toBeLessThan(2000);
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
