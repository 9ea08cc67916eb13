/**
 * `@joke/session/test-client`, meant for tests only (so it lives in test/, where frames may be read as
 * `any`): a raw client of the gateway protocol on the library's `ws` transport (Node), for the services'
 * tests that drive a real gateway. It records every server message and waits for the ones a test
 * expects. It sends what a test tells it, raw (the gateway tests also send what no real client would),
 * and says hello with the library's hello. As a real client does, it keeps each room's fixed view
 * members (a view frame's `fixed`) and puts them back into every later view of that room by the
 * library's rule (`completeView`); `fixedMissing` lists the views (room#seq) that came without them
 * while none were held.
 *
 * State: every message received, the rooms' fixed members, the waiters. Failure modes: a socket that
 * closes before it opened fails `open()`; a wait that nothing matches rejects after its timeout with
 * the last messages in its error; `closed` holds the close code and reason once the socket closed.
 */
import type WebSocket from 'ws';
import { helloMessage } from '../src/connection.ts';
import { completeView, type Room } from '../src/rooms.ts';
import { WsTransport } from '../src/ws-transport.ts';

export class TestClient {
  readonly messages: any[] = [];
  /** Every frame's text exactly as it arrived (a frame that is not JSON shows up as `{ t: 'unparsable' }`). */
  readonly texts: string[] = [];
  readonly fixedMissing: string[] = [];
  private readonly rooms = new Map<string, Pick<Room, 'fixed' | 'resyncAt'>>();
  private waiters: { pred: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  closed: { code: number; reason: string } | null = null;
  private readonly transport: WsTransport;
  private readonly ws: WebSocket;
  private readonly opened: Promise<void>;

  constructor(url: string) {
    let opened!: () => void;
    let failed!: (err: Error) => void;
    this.opened = new Promise((resolve, reject) => ((opened = resolve), (failed = reject)));
    this.transport = new WsTransport(url, {
      open: () => opened(),
      message: (text) => this.record(text),
      close: (code) => {
        // A socket that closes before it opened never will: the test's open() fails, as ws's 'error' did.
        failed(new Error(`socket closed (${code}) before it opened`));
      },
    });
    this.ws = this.transport.ws;
    this.ws.on('close', (code, reason) => (this.closed = { code, reason: String(reason) }));
  }

  private record(text: string): void {
    this.texts.push(text);
    let m: any;
    try {
      m = JSON.parse(text);
    } catch {
      m = { t: 'unparsable', text };
    }
    if (m.t === 'view' && typeof m.roomId === 'string') {
      let room = this.rooms.get(m.roomId);
      if (!room) this.rooms.set(m.roomId, (room = { fixed: null, resyncAt: -Infinity }));
      if (!completeView(room, m)) this.fixedMissing.push(`${m.roomId}#${m.seq}`);
    }
    this.messages.push(m);
    this.waiters = this.waiters.filter((w) => {
      if (!w.pred(m)) return true;
      w.resolve(m);
      return false;
    });
  }

  static async open(url: string): Promise<TestClient> {
    const c = new TestClient(url);
    await c.opened;
    return c;
  }

  get raw(): WebSocket {
    return this.ws;
  }

  send(msg: unknown): void {
    this.ws.send(typeof msg === 'string' ? msg : JSON.stringify(msg));
  }

  /** The first message (already received or still to come) matching `pred`, after index `from`. */
  next(pred: (m: any) => boolean, timeoutMs = 5000, from = 0): Promise<any> {
    const seen = this.messages.slice(from).find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const w = { pred, resolve };
      this.waiters.push(w);
      setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error(`timed out waiting; got ${JSON.stringify(this.messages.slice(-5))}`));
      }, timeoutMs);
    });
  }

  /** Waits for the next message of type `t` arriving after now. */
  nextNew(t: string, timeoutMs = 5000): Promise<any> {
    return this.next((m) => m.t === t, timeoutMs, this.messages.length);
  }

  async hello(token: string): Promise<any> {
    const from = this.messages.length;
    this.send(helloMessage(token));
    return this.next((m) => m.t === 'welcome' || m.t === 'error', 5000, from);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      this.ws.once('close', () => resolve());
      this.ws.close();
    });
  }
}
