/**
 * A session's connection lifecycle: one socket at a time from `SessionOptions.connect`, the hello on
 * each (pipelined: the gateway holds what follows until the token is verified), the keepalive, and a
 * new socket after a lost one on the reconnect back-off. What goes over a socket once it is welcomed
 * (joins, actions) is session.ts's; this module only says a socket opened, carried a frame or closed.
 *
 * State: the current transport and whether it has opened, the reconnect try count (reset by a welcome,
 * so the budget counts reconnects without one in between), the reconnect and keepalive timers, when a
 * frame last arrived. Failure modes: a `connect` that throws or returns null counts as a socket closed
 * 1006; a socket nothing arrived on for `silenceMs` is closed 4001 and replaced; when the back-off's
 * budget runs out (or `reconnectDelay` says null) the owner hears `closed(code, null)` and no socket
 * follows; no token means no socket at all (`noToken`). Events of a socket that is no longer the
 * current one are ignored, so a late close of a replaced socket cannot start a second reconnect.
 */
import { PROTOCOL_REVISION, PROTOCOL_VERSION, type ClientMessage } from '@joke/protocol';
import { backoffDelay, type Backoff } from '@joke/bus/retry-budget';
import type { SessionClock } from './clock.ts';
import type { Transport, TransportEvents } from './transport.ts';
import type { SessionOptions } from './types.ts';

/** The first message on every socket (pipelined: the gateway holds what follows until it is verified). */
export const helloMessage = (token: string): ClientMessage => ({
  v: PROTOCOL_VERSION,
  t: 'hello',
  token,
  revision: PROTOCOL_REVISION,
});

/** What the connection tells the session it belongs to. */
export interface ConnectionOwner {
  /** A first socket is being opened, or a lost one replaced (now or after the back-off's wait). */
  status(s: 'connecting' | 'reconnecting'): void;
  /** One text frame of the current socket. */
  frame(text: string): void;
  /** The current socket closed; `reconnectIn` is the wait before the next, null when none follows. */
  closed(code: number, reconnectIn: number | null): void;
  /** `token()` gave null: there is nothing to say hello with. */
  noToken(): void;
  /** Whether the gateway welcomed this socket (a ping before that would be refused). */
  online(): boolean;
}

type ConnectionOptions = Pick<SessionOptions, 'connect' | 'token' | 'reconnectDelay' | 'pingEveryMs' | 'silenceMs'>;

export class Connection {
  private transport: Transport | null = null;
  /** The socket `transport` is on has opened (hello sent). */
  private opened = false;
  /** Reconnects since the last welcome. */
  private attempt = 0;
  private reconnectTimer: unknown = null;
  private keepaliveTimer: unknown = null;
  private lastHeard = 0;
  private stopped = true;

  constructor(
    private readonly opts: ConnectionOptions,
    private readonly clock: SessionClock,
    private readonly random: () => number,
    private readonly backoff: Backoff,
    private readonly owner: ConnectionOwner,
  ) {}

  /** Opens a socket unless one is open or one is due (a second call is harmless). */
  start(): void {
    this.stopped = false;
    if (this.transport || this.reconnectTimer !== null) return;
    this.open();
  }

  /** Closes the socket (1000) and arms nothing again until `start`. */
  stop(): void {
    this.stopped = true;
    this.clearTimer('reconnectTimer');
    this.clearTimer('keepaliveTimer');
    const t = this.transport;
    // Cleared first: the close event of this socket is then no longer the current one's and is ignored.
    this.transport = null;
    this.opened = false;
    t?.close(1000, 'bye');
  }

  /** Closes the socket as a flaky network would; a new one follows on the back-off. */
  drop(code: number): void {
    this.transport?.close(code, 'dropped');
  }

  /** Sends one frame if a socket is open; false when not sent. */
  send(text: string): boolean {
    if (!this.opened || !this.transport) return false;
    this.transport.send(text);
    return true;
  }

  /** A frame arrived (read only by the keepalive; a bot session has none and spares the clock read). */
  heard(): void {
    if (this.keepaliveTimer !== null) this.lastHeard = this.clock.now();
  }

  /** The gateway welcomed this socket: the reconnect budget starts again. */
  welcomed(): void {
    this.attempt = 0;
  }

  private clearTimer(which: 'reconnectTimer' | 'keepaliveTimer'): void {
    if (this[which] !== null) this.clock.clearTimeout(this[which]);
    this[which] = null;
  }

  private open(): void {
    const token = this.opts.token();
    if (token === null) return this.owner.noToken();
    this.owner.status(this.attempt === 0 ? 'connecting' : 'reconnecting');
    this.lastHeard = this.clock.now();
    let t: Transport | null = null;
    const events: TransportEvents = {
      open: () => {
        if (this.transport !== t) return;
        this.opened = true;
        this.send(JSON.stringify(helloMessage(token)));
        this.armKeepalive();
      },
      message: (text) => {
        if (this.transport === t) this.owner.frame(text);
      },
      close: (code) => {
        // `t` is still null while `connect` runs: a socket closed in it is reported, once, from here.
        if (t !== null && this.transport !== t) return;
        this.onClosed(code);
      },
    };
    try {
      t = this.opts.connect(events);
    } catch {
      t = null;
    }
    if (t === null) return this.onClosed(1006);
    // A transport that closed while being made has already been reported (and a reconnect armed or the session stopped).
    if (!this.stopped && this.reconnectTimer === null) this.transport = t;
  }

  private onClosed(code: number): void {
    this.transport = null;
    this.opened = false;
    this.clearTimer('keepaliveTimer');
    if (this.stopped) return;
    const planned = this.attempt >= this.backoff.budget ? null : backoffDelay(this.backoff, this.attempt, this.random);
    const wait = this.opts.reconnectDelay ? this.opts.reconnectDelay(code, this.attempt, planned ?? -1) : planned;
    this.owner.closed(code, wait);
    // The owner stops the connection when no socket follows; its handler may also have closed it.
    if (wait === null || this.stopped) return;
    this.attempt++;
    this.owner.status('reconnecting');
    this.reconnectTimer = this.clock.setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.stopped) this.open();
    }, wait);
  }

  /** Pings every `pingEveryMs` and closes a socket nothing arrived on for `silenceMs` (then reconnects). */
  private armKeepalive(): void {
    const every = this.opts.pingEveryMs ?? 10_000;
    if (every <= 0) return;
    this.clearTimer('keepaliveTimer');
    this.keepaliveTimer = this.clock.setTimeout(() => {
      this.keepaliveTimer = null;
      if (!this.transport || !this.opened) return;
      const now = this.clock.now();
      if (now - this.lastHeard > (this.opts.silenceMs ?? 30_000)) return this.transport.close(4001, 'silent');
      if (this.owner.online())
        this.send(JSON.stringify({ v: PROTOCOL_VERSION, t: 'ping', at: now } satisfies ClientMessage));
      this.armKeepalive();
    }, every);
  }
}
