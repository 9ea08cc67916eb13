/**
 * The game connection: the browser's adapter of the client session library (`@joke/session`), which
 * holds the protocol's state and recovery — hello, re-joining every room after a reconnect, resending
 * unanswered actions under their actionId, the fixed view members and presence kept per room (a view
 * missing them while none is held is dropped and the room joined again), join retries after
 * `unavailable` on a bounded jittered back-off. This file adds what only the browser has: a WebSocket
 * transport, the window's clock, listener sets for the UI, the quick-match request (sent again after
 * a reconnect, since the gateway drops it with the socket) (frames are captured, in test builds only, by the table sources: frame-log.ts).
 * Failure modes are the session's: a fatal error (bad token, protocol version) closes it for good.
 */
import {
  PROTOCOL_VERSION,
  type ChatBody,
  type ChatMessage,
  type PresenceEntry,
  type ServerMessage,
} from '@joke/protocol';
import {
  Session,
  globalClock,
  newActionId as sessionActionId,
  type ActResult,
  type ConnStatus,
  type OtherMessage,
  type Transport,
  type TransportEvents,
} from '@joke/session';

export type { ActResult, ConnStatus } from '@joke/session';

/** A view frame as handed on: its presence list always filled in (the wire may leave it out). */
export type ViewFrame = Extract<ServerMessage, { t: 'view' }> & { presence: PresenceEntry[] };

export interface GatewayEvents {
  status: (s: ConnStatus) => void;
  /** `raw` is the frame's text exactly as received. */
  view: (frame: ViewFrame, raw: string) => void;
  presence: (roomId: string, presence: PresenceEntry[]) => void;
  /** Korean, ready to show. `fatal` errors stop reconnection (bad token, protocol version). */
  error: (message: string, code: string, fatal: boolean, roomId?: string) => void;
  welcome: (userId: string, name: string) => void;
  /** A table chat line relayed by the room (protocol chat.ts). */
  chat: (msg: ChatMessage) => void;
  /** Quick match: the matchmaker took the request, or the queue changed size. */
  queue: (status: QueueStatus) => void;
  /** Quick match found a table: `roomId` is the game room to join. */
  matched: (m: { roomId: string; game: string; mode: string }) => void;
}

export interface QueueRequest {
  game: string;
  mode: string;
  players: number;
  /** Accept bots in the seats nobody came for after the server's wait. */
  bots: boolean;
}

/** What the waiting screen shows; `waiting`/`botsAt` stay null until the matchmaker first tells. */
export interface QueueStatus {
  game: string;
  mode: string;
  players: number;
  waiting: number | null;
  /** Server time at which bots fill the table, or null when they will not. */
  botsAt: number | null;
  /** True while every game server is full: the table formed but waits for room (the server retries it). */
  full?: boolean;
}

export interface GatewayOptions {
  url: string;
  token: () => string | null;
  /** Injected by tests that run outside a browser. */
  WebSocketImpl?: typeof WebSocket;
  /** Resend an unanswered action after this long (the gateway itself retries for ~10 s). */
  actionResendMs?: number;
  /** Give up on an action after this long and report it as failed. */
  actionGiveUpMs?: number;
  pingEveryMs?: number;
  /** Close and reconnect when nothing at all arrived for this long. */
  silenceMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
}

export const newActionId = (): string => sessionActionId(Date.now());

/** One browser WebSocket as a session transport. */
function webSocketTransport(url: string, WS: typeof WebSocket, events: TransportEvents) {
  const ws = new WS(url);
  ws.onopen = () => events.open();
  ws.onmessage = (ev: MessageEvent) => {
    const text = typeof ev.data === 'string' ? ev.data : String(ev.data);
    events.message(text);
  };
  ws.onclose = (ev: CloseEvent) => events.close(ev?.code ?? 1006);
  // onclose follows and handles it.
  ws.onerror = () => {};
  const t: Transport = {
    send: (text) => {
      if (ws.readyState === 1) ws.send(text);
    },
    close: (code, reason) => ws.close(code, reason),
  };
  return t;
}

export class GatewayClient {
  private readonly session: Session;
  private readonly listeners: { [K in keyof GatewayEvents]: Set<GatewayEvents[K]> } = {
    status: new Set(),
    view: new Set(),
    presence: new Set(),
    error: new Set(),
    welcome: new Set(),
    chat: new Set(),
    queue: new Set(),
    matched: new Set(),
  };
  /** The quick match this tab waits for; sent again after a reconnect, since the gateway drops it with the socket. */
  private queued: QueueRequest | null = null;
  /** The last size the matchmaker gave for that queue: a late `queued` must not wipe it (see onOther). */
  private queueStatus: QueueStatus | null = null;

  constructor(opts: GatewayOptions) {
    this.session = new Session({
      connect: (events) => webSocketTransport(opts.url, opts.WebSocketImpl ?? WebSocket, events),
      token: opts.token,
      clock: globalClock,
      actionResendMs: opts.actionResendMs ?? 12_000,
      actionGiveUpMs: opts.actionGiveUpMs ?? 40_000,
      pingEveryMs: opts.pingEveryMs ?? 10_000,
      silenceMs: opts.silenceMs ?? 30_000,
      reconnect: { baseMs: opts.backoffBaseMs ?? 400, maxMs: opts.backoffMaxMs ?? 8_000 },
      handler: {
        status: (s) => this.emit('status', s),
        welcome: (m) => {
          this.emit('welcome', m.userId, m.name);
          if (this.queued) this.sendQueue(this.queued);
        },
        view: (frame, presence, raw) => this.emit('view', { ...frame, presence }, raw ?? JSON.stringify(frame)),
        presence: (roomId, presence) => this.emit('presence', roomId, presence),
        error: (m, fatal) => {
          // A refused quick match is over: do not send it again after a reconnect.
          if (m.code === 'queueRejected') [this.queued, this.queueStatus] = [null, null];
          this.emit('error', m.message, m.code, fatal, m.roomId);
        },
        joinGaveUp: (roomId) =>
          this.emit('error', '서버가 잠시 바빠요. 잠시 후 다시 들어와 주세요', 'unavailable', false, roomId),
        other: (m) => this.onOther(m),
      },
    });
  }

  get status(): ConnStatus {
    return this.session.status;
  }
  get userId(): string | null {
    return this.session.userId;
  }
  /** serverTime − local time, from welcome/pong (half the round trip is assumed each way). */
  get clockOffsetMs(): number {
    return this.session.clockOffsetMs;
  }
  get rttMs(): number | null {
    return this.session.rttMs;
  }
  get pendingCount(): number {
    return this.session.pendingCount;
  }
  get queuedFor(): QueueRequest | null {
    return this.queued;
  }

  on<K extends keyof GatewayEvents>(event: K, fn: GatewayEvents[K]): () => void {
    this.listeners[event].add(fn);
    return () => this.listeners[event].delete(fn);
  }

  private emit<K extends keyof GatewayEvents>(event: K, ...args: Parameters<GatewayEvents[K]>): void {
    for (const fn of this.listeners[event]) (fn as (...a: Parameters<GatewayEvents[K]>) => void)(...args);
  }

  serverNow(): number {
    return this.session.serverNow();
  }

  connect(): void {
    this.session.connect();
  }

  /** Ends the session for good: no reconnects, pending actions fail. */
  close(): void {
    this.session.close();
  }

  /** Test hook: drop the socket as a flaky network would; the client must recover by itself. */
  dropConnection(): void {
    this.session.dropConnection(4000);
  }

  join(roomId: string, spectate = false): void {
    this.session.join(roomId, spectate);
  }

  leave(roomId: string): void {
    this.session.leave(roomId);
  }

  act(roomId: string, action: unknown, actionId = newActionId()): Promise<ActResult> {
    return new Promise((resolve) => this.session.act(roomId, action, resolve, actionId));
  }

  /** Table chat: fire and forget; a refusal comes back as an `error` with a chat code and this room. */
  chat(roomId: string, body: ChatBody): void {
    if (this.session.online) this.session.send({ v: PROTOCOL_VERSION, t: 'chat', roomId, body });
  }

  /** Waits for a quick-match table (one queue at a time: a new request replaces the old one). */
  queue(q: QueueRequest): void {
    this.queued = q;
    this.queueStatus = null;
    if (this.session.online) this.sendQueue(q);
  }

  unqueue(): void {
    this.queued = null;
    this.queueStatus = null;
    if (this.session.online) this.session.send({ v: PROTOCOL_VERSION, t: 'unqueue' });
  }

  private sendQueue(q: QueueRequest): void {
    const { game, mode, players, bots } = q;
    this.session.send({ v: PROTOCOL_VERSION, t: 'queue', game, mode, players, bots });
  }

  private onOther(m: OtherMessage): void {
    switch (m.t) {
      case 'queued':
        // The acknowledgement may come after the queue's size: on a loaded box the gateway's first try
        // timed out, the matchmaker served it late (and told the size), and the retry's reply — `queued` —
        // came last. The size stands then; nothing else would repeat it until the queue changes.
        if (this.queued) this.emit('queue', this.queueStatus ?? { ...m, waiting: null, botsAt: null });
        return;
      case 'queueStatus':
        if (!this.queued) return;
        this.queueStatus = m;
        this.emit('queue', m);
        return;
      case 'matched':
        this.queued = null;
        this.queueStatus = null;
        this.emit('matched', { roomId: m.roomId, game: m.game, mode: m.mode });
        return;
      case 'chat':
        this.emit('chat', m);
        return;
      case 'pong':
        return;
    }
  }
}
