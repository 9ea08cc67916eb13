/**
 * The lean WebSocket client (src/lean-ws.ts) against real servers: the
 * gateway's uWebSockets.js (length forms both ways, fragments, ping/pong,
 * both close handshakes, no compression even when the server offers it), the
 * ws package's server (strict about client masking and the close handshake),
 * and a raw TCP server for what neither would send (a bad handshake, frames
 * right behind the 101 response, one byte per write).
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import uws from 'uWebSockets.js';
import { WebSocketServer } from 'ws';
import { LeanSocket, ReadyState } from '../src/lean-ws.ts';

/** A lean socket whose events are recorded and can be awaited. */
function client(url: string) {
  const messages: string[] = [];
  const errors: string[] = [];
  const waiters: (() => void)[] = [];
  let closed: number | null = null;
  let opened = false;
  const wake = () => waiters.splice(0).forEach((w) => w());
  const s = new LeanSocket(url, undefined, {
    open: () => ((opened = true), wake()),
    message: (d) => (messages.push(d.toString()), wake()),
    error: (e) => (errors.push(e.message), wake()),
    close: (code) => ((closed = code), wake()),
  });
  const until = async (ok: () => boolean) => {
    while (!ok()) await new Promise<void>((r) => waiters.push(r));
  };
  return {
    s,
    messages,
    errors,
    closed: () => closed,
    opened: () => opened,
    until,
    /** The next `n` messages after those seen so far. */
    next: async (n = 1) => {
      const from = messages.length;
      await until(() => messages.length >= from + n || closed !== null);
      return messages.slice(from, from + n);
    },
  };
}

describe('lean client against uWebSockets.js', () => {
  let listen: uws.us_listen_socket;
  let url = '';
  const serverCloses: number[] = [];
  const text = (n: number) => 'ä'.repeat(n >> 1) + (n & 1 ? 'x' : '');

  beforeAll(async () => {
    const app = uws.App();
    app.ws<object>('/ws', {
      // Offered by the server, so only our not asking keeps frames uncompressed.
      compression: uws.SHARED_COMPRESSOR,
      maxPayloadLength: 1 << 20,
      message: (ws, data) => {
        const m = Buffer.from(data).toString();
        if (m === 'sizes') for (const n of [0, 125, 126, 65535, 65536, 100001]) ws.send(text(n), false);
        else if (m === 'fragments') {
          ws.sendFirstFragment('원', false);
          ws.sendFragment('카');
          ws.sendLastFragment('드');
        } else if (m === 'ping') ws.ping('are you there');
        else if (m.startsWith('close')) ws.end(4000, 'bye');
        else ws.send(`len ${Buffer.byteLength(m)} ${m.slice(0, 8)}`, false);
      },
      pong: (ws, data) => ws.send(`pong ${Buffer.from(data).toString()}`, false),
      close: (_ws, code) => serverCloses.push(code),
    });
    await new Promise<void>((resolve, reject) =>
      app.listen('127.0.0.1', 0, (s) => {
        if (!s) return reject(new Error('uWS did not listen'));
        listen = s;
        url = `ws://127.0.0.1:${uws.us_socket_local_port(s)}/ws`;
        resolve();
      }),
    );
  });
  afterAll(() => uws.us_listen_socket_close(listen));

  it('receives 7-, 16- and 64-bit lengths, sends them, answers pings and fragments', async () => {
    const c = client(url);
    await c.until(c.opened);
    c.s.send('sizes');
    const sizes = await c.next(6);
    expect(sizes.map((m) => Buffer.byteLength(m))).toEqual([0, 125, 126, 65535, 65536, 100001]);
    expect(sizes).toEqual([0, 125, 126, 65535, 65536, 100001].map(text));
    for (const n of [1, 125, 126, 65535, 65536, 70001]) {
      c.s.send(text(n));
      expect(await c.next()).toEqual([`len ${n} ${text(n).slice(0, 8)}`]);
    }
    c.s.send('fragments');
    expect(await c.next()).toEqual(['원카드']);
    c.s.send('ping');
    expect(await c.next()).toEqual(['pong are you there']);
    expect(c.errors).toEqual([]);
    c.s.close();
    await c.until(() => c.closed() !== null);
    expect(serverCloses.at(-1)).toBe(1000);
    expect(c.errors).toEqual([]);
  });

  it("answers the server's close and reports its code", async () => {
    const c = client(url);
    await c.until(c.opened);
    c.s.send('close please');
    await c.until(() => c.closed() !== null);
    expect(c.closed()).toBe(4000);
    expect(c.errors).toEqual([]);
    expect(c.s.readyState).toBe(ReadyState.Closed);
  });

  it('terminate drops the socket without a handshake (1006)', async () => {
    const c = client(url);
    await c.until(c.opened);
    c.s.terminate();
    await c.until(() => c.closed() !== null);
    expect(c.closed()).toBe(1006);
    expect(c.errors).toEqual([]);
  });
});

describe('lean client against the ws server', () => {
  it('has its masked frames accepted and completes a close handshake', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(wss, 'listening');
    const gotClose = new Promise<number>((resolve) =>
      wss.on('connection', (ws) => {
        ws.on('message', (d) => ws.send(`echo ${String(d)}`));
        ws.on('close', resolve);
      }),
    );
    const c = client(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}/ws`);
    await c.until(c.opened);
    c.s.send('{"t":"hello"}');
    expect(await c.next()).toEqual(['echo {"t":"hello"}']);
    c.s.close();
    expect(await gotClose).toBe(1000);
    await c.until(() => c.closed() !== null);
    // ws echoes our code in its close frame.
    expect(c.closed()).toBe(1000);
    expect(c.errors).toEqual([]);
    wss.close();
  });
});

describe('lean client against a raw TCP server', () => {
  const accept = (key: string) =>
    createHash('sha1')
      .update(key + '258EAFA5-E914-47DA-95CA-C5AB0DC85B11')
      .digest('base64');
  const keyOf = (req: string) => /sec-websocket-key: (\S+)/i.exec(req)![1];
  const head = (key: string, extra = '') =>
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept(key)}\r\n${extra}\r\n`;

  /** A server that answers each upgrade request with `reply(request, socket)`. */
  async function raw(reply: (req: string, s: Socket) => void): Promise<{ url: string; server: Server }> {
    const server = createServer((s) => {
      let req = '';
      s.on('data', (d) => {
        if (req.includes('\r\n\r\n')) return;
        req += d.toString('latin1');
        if (req.includes('\r\n\r\n')) reply(req, s);
      });
      s.on('error', () => {});
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return { url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`, server };
  }

  it('reads frames sent with the 101 response and one byte per write', async () => {
    const frames = Buffer.concat([
      Buffer.from([0x81, 5]),
      Buffer.from('first'),
      Buffer.from([0x81, 126, 0, 200]),
      Buffer.from('y'.repeat(200)),
      Buffer.from([0x88, 2, 0x03, 0xe8]),
    ]);
    const { url, server } = await raw(async (req, s) => {
      s.setNoDelay(true);
      s.write(Buffer.concat([Buffer.from(head(keyOf(req))), frames.subarray(0, 7)]));
      for (let i = 7; i < frames.length; i++) await new Promise((r) => s.write(frames.subarray(i, i + 1), r));
    });
    const c = client(url);
    await c.until(() => c.closed() !== null);
    expect(c.messages).toEqual(['first', 'y'.repeat(200)]);
    expect(c.closed()).toBe(1000);
    expect(c.errors).toEqual([]);
    server.close();
  });

  it('refuses a wrong accept key, an extension it did not ask for, and a non-101 answer', async () => {
    const replies: [(req: string) => string, RegExp][] = [
      [() => head('not the key'), /Sec-WebSocket-Accept/],
      [(req) => head(keyOf(req), 'Sec-WebSocket-Extensions: permessage-deflate\r\n'), /Extensions/],
      [() => 'HTTP/1.1 503 Service Unavailable\r\ncontent-length: 7\r\n\r\nclosing', /Unexpected server response: 503/],
    ];
    for (const [reply, why] of replies) {
      const { url, server } = await raw((req, s) => s.write(reply(req)));
      const c = client(url);
      await c.until(() => c.closed() !== null);
      expect(c.opened()).toBe(false);
      expect(c.errors).toEqual([expect.stringMatching(why)]);
      expect(c.closed()).toBe(1006);
      server.close();
    }
  });

  it('reports a refused connection as an error and 1006', async () => {
    const { url, server } = await raw(() => {});
    server.close();
    await once(server, 'close');
    const c = client(url);
    await c.until(() => c.closed() !== null);
    expect(c.errors).toEqual([expect.stringMatching(/ECONNREFUSED/)]);
    expect(c.closed()).toBe(1006);
  });
});
