/**
 * The game connection: one WebSocket to the gateway speaking
 * services/protocol/src/client.ts. It survives network trouble on its own:
 * reconnects with backoff, says hello again, re-joins every room it was in
 * (the gateway answers with the latest view, so the seat resumes) and
 * re-sends unanswered actions under their original actionId, which the room
 * applies at most once.
 *
 * View frames leave out the members fixed for the whole game unless this
 * socket may lack them (the frame's `fixed`: in every join reply, after a room
 * changed hands, when they change): the client keeps the last ones per room
 * and hands on `{ ...fixed, ...view }` as the view. A view without them while
 * none is held (a lost join reply) is ignored and the room joined again. The
 * presence list likewise: a view without one means the last one this socket got
 * for the room, which the client fills in before it hands the frame on.
 */
import {
  PROTOCOL_REVISION,
  PROTOCOL_VERSION,
  ServerMessage,
  type ChatBody,
  type ChatMessage,
  type ClientMessage,
  type PresenceEntry,
} from '@joke/protocol';

/** A view frame as handed on: its presence list always filled in (the wire may leave it out). */
export type ViewFrame = Extract<ServerMessage, { t: 'view' }> & { presence: PresenceEntry[] };
export type ConnStatus = 'idle' | 'connecting' | 'online' | 'reconnecting' | 'closed';
/**
 * `code`: the refusal's machine code when the server gave one. `race`: the move was chosen on a view the
 * room had already left (`stale`): someone else moved first, the newer view is on its way — not a wrong move.
 */
export type ActResult = { ok: true; seq: number } | { ok: false; reason: string; code?: string; race?: boolean };

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

interface Pending {
  roomId: string;
  actionId: string;
  action: unknown;
  /** The seq of the room's view the move was chosen on (sent with every try), or undefined before any view. */
  viewSeq: number | undefined;
  firstSentAt: number;
  lastSentAt: number;
  resolve: (r: ActResult) => void;
}

const FATAL_CODES = new Set(['badToken', 'unauthenticated', 'versionMismatch']);
/** At most one resync join per room this often while its fixed view members are missing. */
const RESYNC_EVERY_MS = 3_000;
/**
 * A join the gateway could not get answered (`unavailable` for the room: its worker too slow for the
 * gateway's whole retry budget, or the lobby's access check down) goes again this long after, at the
 * next tick. The room is still there — the gateway says `noRoom` when nobody holds it — and without a
 * join the table would sit silent under its "곧 다시 연결할게요".
 */
const JOIN_AGAIN_MS = 1_500;

/**
 * A view that names its game is whole: a room worker from before the fixed members were cut out
 * (a rolling upgrade) writes every member into every view and never sends `fixed`.
 */
const hasGame = (view: unknown): boolean => typeof view === 'object' && view !== null && 'game' in view;

interface RoomState {
  spectate: boolean;
  lastSeq: number;
  /** The game's fixed view members from the last frame of this room that had them (ViewFrame `fixed`). */
  fixed: Record<string, unknown> | null;
  /** The last presence list this socket got for the room (a view, a `presence` message), or null. */
  presence: PresenceEntry[] | null;
  /** When a join was last sent to get them back (Date.now()), or 0. */
  resyncAt: number;
  /** When to join again after the gateway could not get a join answered (Date.now()), or 0. */
  joinAgainAt: number;
}

let counter = 0;
export function newActionId(): string {
  const rnd =
    typeof crypto !== 'undefined' && 'randomUUID' in crypto
      ? crypto.randomUUID().replace(/-/g, '').slice(0, 16)
      : Math.random().toString(36).slice(2, 12);
  counter = (counter + 1) % 1e6;
  return `a${Date.now().toString(36)}${counter.toString(36)}${rnd}`.slice(0, 64);
}

export class GatewayClient {
  status: ConnStatus = 'idle';
  userId: string | null = null;
  /** serverTime − local time, from welcome/pong (half the round trip is assumed each way). */
  clockOffsetMs = 0;
  rttMs: number | null = null;

  private ws: WebSocket | null = null;
  private readonly opts: Required<Omit<GatewayOptions, 'WebSocketImpl'>> & { WebSocketImpl?: typeof WebSocket };
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
  private readonly rooms = new Map<string, RoomState>();
  private readonly pending = new Map<string, Pending>();
  private attempt = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  private tick: ReturnType<typeof setInterval> | null = null;
  private lastHeard = 0;
  private lastPing = 0;
  private stopped = false;

  constructor(opts: GatewayOptions) {
    this.opts = {
      actionResendMs: 12_000,
      actionGiveUpMs: 40_000,
      pingEveryMs: 10_000,
      silenceMs: 30_000,
      backoffBaseMs: 400,
      backoffMaxMs: 8_000,
      ...opts,
    };
  }

  on<K extends keyof GatewayEvents>(event: K, fn: GatewayEvents[K]): () => void {
    this.listeners[event].add(fn);
    return () => this.listeners[event].delete(fn);
  }

  private emit<K extends keyof GatewayEvents>(event: K, ...args: Parameters<GatewayEvents[K]>): void {
    for (const fn of this.listeners[event]) (fn as (...a: Parameters<GatewayEvents[K]>) => void)(...args);
  }

  serverNow(): number {
    return Date.now() + this.clockOffsetMs;
  }

  connect(): void {
    this.stopped = false;
    if (this.ws) return;
    this.open();
    this.tick ??= setInterval(() => this.onTick(), 1000);
  }

  /** Ends the session for good: no reconnects, pending actions fail. */
  close(): void {
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.tick) clearInterval(this.tick);
    this.tick = null;
    this.reconnectTimer = null;
    const ws = this.ws;
    this.ws = null;
    ws?.close(1000, 'bye');
    for (const p of this.pending.values()) p.resolve({ ok: false, reason: '연결을 닫았어요' });
    this.pending.clear();
    this.setStatus('closed');
  }

  /** Test hook: drop the socket as a flaky network would; the client must recover by itself. */
  dropConnection(): void {
    this.ws?.close(4000, 'dropped');
  }

  join(roomId: string, spectate = false): void {
    const known = this.rooms.get(roomId);
    this.rooms.set(roomId, {
      spectate,
      lastSeq: known?.lastSeq ?? -1,
      fixed: known?.fixed ?? null,
      presence: known?.presence ?? null,
      resyncAt: 0,
      joinAgainAt: 0,
    });
    if (this.status === 'online') this.send({ v: PROTOCOL_VERSION, t: 'join', roomId, spectate });
  }

  leave(roomId: string): void {
    this.rooms.delete(roomId);
    if (this.status === 'online') this.send({ v: PROTOCOL_VERSION, t: 'leave', roomId });
  }

  act(roomId: string, action: unknown, actionId = newActionId()): Promise<ActResult> {
    return new Promise((resolve) => {
      const now = Date.now();
      const seen = this.rooms.get(roomId)?.lastSeq ?? -1;
      const viewSeq = seen >= 0 ? seen : undefined;
      const p: Pending = { roomId, actionId, action, viewSeq, firstSentAt: now, lastSentAt: 0, resolve };
      this.pending.set(actionId, p);
      this.sendPending(p);
    });
  }

  /** Table chat: fire and forget; a refusal comes back as an `error` with a chat code and this room. */
  chat(roomId: string, body: ChatBody): void {
    if (this.status === 'online') this.send({ v: PROTOCOL_VERSION, t: 'chat', roomId, body });
  }

  /** Waits for a quick-match table (one queue at a time: a new request replaces the old one). */
  queue(q: QueueRequest): void {
    this.queued = q;
    if (this.status === 'online') this.sendQueue(q);
  }

  unqueue(): void {
    this.queued = null;
    if (this.status === 'online') this.send({ v: PROTOCOL_VERSION, t: 'unqueue' });
  }

  get queuedFor(): QueueRequest | null {
    return this.queued;
  }

  private sendQueue(q: QueueRequest): void {
    this.send({ v: PROTOCOL_VERSION, t: 'queue', game: q.game, mode: q.mode, players: q.players, bots: q.bots });
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  private sendPending(p: Pending): void {
    if (this.status !== 'online') return;
    p.lastSentAt = Date.now();
    this.send({
      v: PROTOCOL_VERSION,
      t: 'action',
      roomId: p.roomId,
      actionId: p.actionId,
      action: p.action,
      seq: p.viewSeq,
    });
  }

  private send(msg: ClientMessage): void {
    if (this.ws && this.ws.readyState === 1) this.ws.send(JSON.stringify(msg));
  }

  private setStatus(s: ConnStatus): void {
    if (this.status === s) return;
    this.status = s;
    this.emit('status', s);
  }

  private open(): void {
    const WS = this.opts.WebSocketImpl ?? WebSocket;
    const token = this.opts.token();
    if (!token) {
      this.emit('error', '먼저 로그인해 주세요', 'unauthenticated', true);
      this.setStatus('closed');
      return;
    }
    this.setStatus(this.attempt === 0 ? 'connecting' : 'reconnecting');
    let ws: WebSocket;
    try {
      ws = new WS(this.opts.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    this.lastHeard = Date.now();
    ws.onopen = () => {
      // Pipelined: the gateway holds messages sent before hello is verified.
      ws.send(
        JSON.stringify({ v: PROTOCOL_VERSION, t: 'hello', token, revision: PROTOCOL_REVISION } satisfies ClientMessage),
      );
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (this.ws !== ws) return;
      this.lastHeard = Date.now();
      const text = typeof ev.data === 'string' ? ev.data : String(ev.data);
      this.onMessage(text);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      this.scheduleReconnect();
    };
    ws.onerror = () => {
      // onclose follows and handles it.
    };
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    this.setStatus('reconnecting');
    const base = Math.min(this.opts.backoffMaxMs, this.opts.backoffBaseMs * 2 ** this.attempt);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempt++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.stopped) this.open();
    }, delay);
  }

  private onMessage(text: string): void {
    let parsed: ServerMessage;
    try {
      const r = ServerMessage.safeParse(JSON.parse(text));
      if (!r.success) return;
      parsed = r.data;
    } catch {
      return;
    }
    const msg = parsed;
    switch (msg.t) {
      case 'welcome': {
        this.userId = msg.userId;
        this.clockOffsetMs = msg.serverTime - Date.now();
        this.attempt = 0;
        this.setStatus('online');
        this.emit('welcome', msg.userId, msg.name);
        for (const [roomId, r] of this.rooms) {
          r.joinAgainAt = 0;
          this.send({ v: PROTOCOL_VERSION, t: 'join', roomId, spectate: r.spectate });
        }
        for (const p of this.pending.values()) this.sendPending(p);
        if (this.queued) this.sendQueue(this.queued);
        return;
      }
      case 'queued':
        if (this.queued) this.emit('queue', { ...msg, waiting: null, botsAt: null });
        return;
      case 'queueStatus':
        if (this.queued) this.emit('queue', msg);
        return;
      case 'matched':
        this.queued = null;
        this.emit('matched', { roomId: msg.roomId, game: msg.game, mode: msg.mode });
        return;
      case 'view': {
        const room = this.rooms.get(msg.roomId);
        if (!room) return;
        // A re-join can replay a frame we already have; views are whole, so older ones are useless.
        if (msg.seq < room.lastSeq) return;
        if (msg.fixed) {
          room.fixed = msg.fixed;
          room.resyncAt = 0;
        }
        if (msg.presence) room.presence = msg.presence;
        if ((!msg.fixed && !room.fixed && !hasGame(msg.view)) || !room.presence) {
          // Half a view: join again (the reply carries the fixed members and the presence list) and wait for it.
          const now = Date.now();
          if (now - room.resyncAt >= RESYNC_EVERY_MS) {
            room.resyncAt = now;
            this.send({ v: PROTOCOL_VERSION, t: 'join', roomId: msg.roomId, spectate: room.spectate });
          }
          return;
        }
        room.lastSeq = msg.seq;
        room.joinAgainAt = 0;
        // Into the parsed view, not spread into a new object: a ~30-member spread builds a
        // dictionary-mode object that every draw would then read slowly.
        if (room.fixed && typeof msg.view === 'object' && msg.view !== null) Object.assign(msg.view, room.fixed);
        this.emit('view', { ...msg, presence: room.presence }, text);
        return;
      }
      case 'ack':
      case 'rejected': {
        const p = this.pending.get(msg.actionId);
        if (!p) return;
        this.pending.delete(msg.actionId);
        if (msg.t === 'ack') p.resolve({ ok: true, seq: msg.seq });
        else p.resolve({ ok: false, reason: msg.reason, code: msg.code, ...(msg.code === 'stale' && { race: true }) });
        return;
      }
      case 'presence': {
        const room = this.rooms.get(msg.roomId);
        if (room) room.presence = msg.presence;
        this.emit('presence', msg.roomId, msg.presence);
        return;
      }
      case 'chat':
        if (this.rooms.has(msg.roomId)) this.emit('chat', msg);
        return;
      case 'pong': {
        const now = Date.now();
        this.rttMs = now - msg.at;
        this.clockOffsetMs = msg.serverTime - (msg.at + now) / 2;
        return;
      }
      case 'error': {
        const fatal = FATAL_CODES.has(msg.code);
        if (msg.actionId && this.pending.has(msg.actionId)) {
          // `unavailable` for one action: keep it and retry shortly under the same id.
          const p = this.pending.get(msg.actionId)!;
          setTimeout(() => {
            if (this.pending.has(p.actionId)) this.sendPending(p);
          }, 600);
          return;
        }
        if (msg.code === 'noRoom' && msg.roomId) this.rooms.delete(msg.roomId);
        const room = msg.roomId ? this.rooms.get(msg.roomId) : undefined;
        // `capacity` for a room: its worker deferred the join while behind on its playing tables.
        if ((msg.code === 'unavailable' || msg.code === 'capacity') && room)
          room.joinAgainAt = Date.now() + JOIN_AGAIN_MS;
        // A refused quick match is over: do not send it again after a reconnect.
        if (msg.code === 'queueRejected') this.queued = null;
        this.emit('error', msg.message, msg.code, fatal, msg.roomId);
        if (fatal) this.close();
        return;
      }
      default:
        return;
    }
  }

  private onTick(): void {
    const now = Date.now();
    if (this.status === 'online' && this.ws) {
      if (now - this.lastHeard > this.opts.silenceMs) {
        this.ws.close(4001, 'silent');
        return;
      }
      if (now - this.lastPing >= this.opts.pingEveryMs) {
        this.lastPing = now;
        this.send({ v: PROTOCOL_VERSION, t: 'ping', at: now });
      }
    }
    if (this.status === 'online')
      for (const [roomId, r] of this.rooms)
        if (r.joinAgainAt > 0 && now >= r.joinAgainAt) {
          r.joinAgainAt = 0;
          this.send({ v: PROTOCOL_VERSION, t: 'join', roomId, spectate: r.spectate });
        }
    for (const p of [...this.pending.values()]) {
      if (now - p.firstSentAt > this.opts.actionGiveUpMs) {
        this.pending.delete(p.actionId);
        p.resolve({ ok: false, reason: '서버가 응답하지 않아요. 다시 시도해 주세요' });
      } else if (p.lastSentAt > 0 && now - p.lastSentAt > this.opts.actionResendMs) {
        this.sendPending(p);
      }
    }
  }
}
