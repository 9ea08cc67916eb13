/**
 * A minimal RFC 6455 client for the swarm's bots, on a bare `net.Socket`:
 * the HTTP upgrade (its Sec-WebSocket-Accept checked, no extension or
 * subprotocol offered or accepted — the gateway runs uWS with compression
 * DISABLED), text frames out, the server's frames in (ws-frames.ts), ping →
 * pong and the close handshake. The `ws` package does all this through an
 * EventEmitter, a stream Writable and a fresh Buffer per message, which was a
 * sizeable share of the swarm's CPU per action; here each message is one
 * synchronous call with a slice of the socket's read buffer.
 */
import { createHash, randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { FrameReader, type FrameSink } from './ws-frames.ts';

export interface LeanEvents {
  open(): void;
  /** Valid only during the call (a slice of the process's read buffer when the message came in one read). */
  message(data: Buffer): void;
  error(err: Error): void;
  /** Once, when the TCP connection is gone: the server's close code, or 1006 without a close handshake. */
  close(code: number): void;
}

export const ReadyState = { Connecting: 0, Open: 1, Closing: 2, Closed: 3 } as const;
type ReadyState = (typeof ReadyState)[keyof typeof ReadyState];

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';
/** An upgrade response longer than this is not one we asked for. */
const MAX_HEAD = 16 * 1024;
/** After our close frame, the server has this long to close the TCP connection before we drop it. */
const CLOSE_WAIT_MS = 5000;
const HEAD_END = Buffer.from('\r\n\r\n');
/**
 * Every lean socket of the process reads into this one buffer (net's `onread`):
 * frames are handled before the callback returns, and only a frame cut by the
 * end of a read is copied out (ws-frames.ts).
 */
const readBuffer = Buffer.allocUnsafe(64 * 1024);

export class LeanSocket {
  readyState: ReadyState = ReadyState.Connecting;
  private readonly socket: Socket;
  private readonly reader: FrameReader;
  private readonly key = randomBytes(16).toString('base64');
  /** Bytes of the upgrade response so far, when it did not come in one read. */
  private head: Buffer | null = null;
  private closeSent = false;
  private closeCode = 1006;
  private closeTimer: NodeJS.Timeout | null = null;
  private errored = false;

  constructor(
    url: string,
    localAddress: string | undefined,
    private readonly on: LeanEvents,
  ) {
    const u = new URL(url);
    if (u.protocol !== 'ws:') throw new Error(`the lean client speaks ws:// only, not ${u.protocol}`);
    this.reader = new FrameReader(new ServerFrames(this));
    const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
    const socket = connect({
      host,
      port: Number(u.port || 80),
      localAddress,
      onread: { buffer: readBuffer, callback: (n) => this.onRead(readBuffer.subarray(0, n)) },
    });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('connect', () =>
      socket.write(
        `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${this.key}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        'latin1',
      ),
    );
    socket.on('error', (err) => this.error(err));
    socket.on('close', () => this.onSocketClose());
  }

  /** Sends one text message (dropped unless open, as the bots check first). */
  send(text: string): void {
    if (this.readyState !== ReadyState.Open) return;
    this.socket.write(encodeFrame(0x1, text));
  }

  /** Starts the close handshake (or abandons a connection not yet open). */
  close(code = 1000): void {
    if (this.readyState === ReadyState.Closed) return;
    if (this.readyState === ReadyState.Connecting) return this.terminate();
    this.sendClose(code);
  }

  /** Drops the connection at once, no close handshake (as a lost network would). */
  terminate(): void {
    if (this.readyState === ReadyState.Closed) return;
    this.readyState = ReadyState.Closing;
    this.reader.stop();
    this.socket.destroy();
  }

  // ---- the server's close and protocol errors ------------------------------------------------

  /** @internal ServerFrames: the server's close frame. */
  onServerClose(code: number): void {
    this.closeCode = code;
    // Echo the code (none if it sent none), then the TCP connection may end: both closes are exchanged.
    this.sendClose(code === 1005 ? null : code);
    this.socket.end();
  }

  /** @internal ServerFrames: the stream broke the protocol. */
  onProtocolError(code: number, why: string): void {
    this.error(new Error(`WebSocket protocol: ${why}`));
    this.sendClose(code);
  }

  /** @internal ServerFrames: a whole message from the server. */
  onMessage(data: Buffer): void {
    if (this.readyState === ReadyState.Open) this.on.message(data);
  }

  /** @internal ServerFrames: a ping, answered with its payload. */
  onPing(payload: Buffer): void {
    if (this.readyState === ReadyState.Open) this.socket.write(encodeFrame(0xa, payload));
  }

  // ---- the socket ---------------------------------------------------------------------------

  private onRead(chunk: Buffer): boolean {
    if (this.readyState === ReadyState.Connecting) this.onHead(chunk);
    else this.reader.push(chunk);
    // Keep reading: every frame is handled synchronously, nothing ever needs us to pause.
    return true;
  }

  private onHead(chunk: Buffer): void {
    const data = this.head ? Buffer.concat([this.head, chunk]) : chunk;
    const end = data.indexOf(HEAD_END);
    if (end < 0) {
      if (data.length > MAX_HEAD) return this.abort('upgrade response too long');
      this.head = Buffer.from(data);
      return;
    }
    this.head = null;
    const why = this.checkUpgrade(data.toString('latin1', 0, end));
    if (why) return this.abort(why);
    this.readyState = ReadyState.Open;
    this.on.open();
    // Frames the server sent right behind its response.
    if (end + 4 < data.length && this.readyState === ReadyState.Open) this.reader.push(data.subarray(end + 4));
  }

  /** What is wrong with the upgrade response, or null. */
  private checkUpgrade(text: string): string | null {
    const [status, ...lines] = text.split('\r\n');
    const m = /^HTTP\/1\.1 (\d{3})/.exec(status);
    // Same wording as ws, so the swarm's error kinds read the same with either client.
    if (!m || m[1] !== '101') return `Unexpected server response: ${m ? m[1] : status.slice(0, 40)}`;
    const h = new Map<string, string>();
    for (const line of lines) {
      const colon = line.indexOf(':');
      if (colon > 0) h.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    if (h.get('upgrade')?.toLowerCase() !== 'websocket') return 'Invalid Upgrade header';
    if (!/(^|,)\s*upgrade\s*(,|$)/i.test(h.get('connection') ?? '')) return 'Invalid Connection header';
    const accept = createHash('sha1')
      .update(this.key + GUID)
      .digest('base64');
    if (h.get('sec-websocket-accept') !== accept) return 'Invalid Sec-WebSocket-Accept header';
    if (h.has('sec-websocket-extensions'))
      return 'Server sent a Sec-WebSocket-Extensions header but none was requested';
    if (h.has('sec-websocket-protocol')) return 'Server sent a subprotocol but none was requested';
    return null;
  }

  private abort(why: string): void {
    this.error(new Error(why));
    this.terminate();
  }

  /** Our close frame, once; `null` = a close frame without a code. */
  private sendClose(code: number | null): void {
    if (this.closeSent || this.readyState === ReadyState.Closed) return;
    this.closeSent = true;
    this.readyState = ReadyState.Closing;
    const body = Buffer.allocUnsafe(code === null ? 0 : 2);
    if (code !== null) body.writeUInt16BE(code, 0);
    this.socket.write(encodeFrame(0x8, body));
    this.closeTimer = setTimeout(() => this.socket.destroy(), CLOSE_WAIT_MS);
    this.closeTimer.unref();
  }

  private error(err: Error): void {
    // One error per socket, and none once we dropped it ourselves.
    if (this.errored || this.readyState === ReadyState.Closed) return;
    this.errored = true;
    this.on.error(err);
  }

  private onSocketClose(): void {
    if (this.readyState === ReadyState.Closed) return;
    this.readyState = ReadyState.Closed;
    this.reader.stop();
    if (this.closeTimer) clearTimeout(this.closeTimer);
    this.on.close(this.closeCode);
  }
}

/**
 * The frame reader's calls into its socket, as methods of one small object per socket rather than five
 * closures and the object holding them: a swarm process holds 20,000 sockets, and its heap is marked whole
 * by every major GC, while every bot of the process waits (docs/measurements/boxes.md, "A fifth box: the load
 * generator's own pauses").
 */
class ServerFrames implements FrameSink {
  constructor(private readonly s: LeanSocket) {}
  message(data: Buffer): void {
    this.s.onMessage(data);
  }
  ping(payload: Buffer): void {
    this.s.onPing(payload);
  }
  pong(): void {}
  close(code: number): void {
    this.s.onServerClose(code);
  }
  fail(code: number, why: string): void {
    this.s.onProtocolError(code, why);
  }
}

/**
 * One client frame, header and payload in one buffer (one write, no writev).
 * Client frames must be masked, but the key only protects browsers' proxies
 * from cache poisoning: an all-zero key leaves the payload as it is.
 */
export function encodeFrame(opcode: number, data: string | Buffer): Buffer {
  const len = typeof data === 'string' ? Buffer.byteLength(data) : data.length;
  const head = len < 126 ? 6 : len < 0x10000 ? 8 : 14;
  const f = Buffer.allocUnsafe(head + len);
  f[0] = 0x80 | opcode;
  if (len < 126) f[1] = 0x80 | len;
  else if (len < 0x10000) {
    f[1] = 0x80 | 126;
    f.writeUInt16BE(len, 2);
  } else {
    f[1] = 0x80 | 127;
    f.writeUInt32BE(Math.floor(len / 0x1_0000_0000), 2);
    f.writeUInt32BE(len >>> 0, 6);
  }
  f.writeUInt32BE(0, head - 4);
  if (typeof data === 'string') f.write(data, head);
  else data.copy(f, head);
  return f;
}
