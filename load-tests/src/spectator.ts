/**
 * A spectator: one socket that signs in and watches the room its table slot
 * is playing in (`join` with `spectate: true`), following the slot to its next
 * room when a game ends. It only counts the frames it receives: spectators are
 * fan-out load on the gateway, not actors.
 */
import { PROTOCOL_REVISION, PROTOCOL_VERSION } from '@joke/protocol';
import { openBotSocket, type BotSocket } from './bot-socket.ts';
import type { WsClient } from './options.ts';

const v = PROTOCOL_VERSION;

export interface SpectatorSink {
  connected(ms: number): void;
  reconnected(ms: number): void;
  socket(delta: 1 | -1): void;
  view(): void;
  error(kind: string, detail?: string): void;
  stopping(): boolean;
}

export class Spectator {
  private ws: BotSocket | null = null;
  private roomId: string | null = null;
  private welcomed = false;
  private closedByUs = false;
  private connectingSince = 0;
  private stormDropAt: number | null = null;
  private reconnects = 0;
  private readonly opened = new WeakSet<BotSocket>();
  /** Whether a frame of the followed room brought its fixed view members (protocol client.ts `fixed`). */
  private hasFixed = false;
  private resyncAt = -Infinity;

  constructor(
    private readonly cfg: { url: string; token: string; localAddress?: string; wsClient?: WsClient },
    private readonly sink: SpectatorSink,
  ) {}

  start(): void {
    this.welcomed = false;
    this.connectingSince = performance.now();
    const ws: BotSocket = openBotSocket(this.cfg.wsClient ?? 'lean', this.cfg.url, this.cfg.localAddress, {
      open: () => {
        this.opened.add(ws);
        this.sink.socket(1);
        this.send({ v, t: 'hello', token: this.cfg.token, revision: PROTOCOL_REVISION });
      },
      message: (data) => this.onMessage(String(data)),
      error: (err) => this.sink.error('socket', String(err)),
      close: () => {
        if (this.opened.has(ws)) this.sink.socket(-1);
        if (ws !== this.ws || this.closedByUs || this.sink.stopping()) return;
        if (this.stormDropAt === null) {
          this.sink.error('disconnected');
          if (this.reconnects++ >= 5) return;
        }
        setTimeout(() => !this.sink.stopping() && !this.closedByUs && this.start(), Math.random() * 1000);
      },
    });
    this.ws = ws;
  }

  /** Watch this room from now on (the slot's players were matched into it). */
  follow(roomId: string): void {
    if (roomId === this.roomId) return;
    if (this.roomId && this.welcomed) this.send({ v, t: 'leave', roomId: this.roomId });
    this.roomId = roomId;
    this.hasFixed = false;
    if (this.welcomed) this.send({ v, t: 'join', roomId, spectate: true });
  }

  drop(): boolean {
    if (!this.ws?.isOpen || this.closedByUs) return false;
    this.stormDropAt = performance.now();
    this.ws.terminate();
    return true;
  }

  stop(): void {
    this.closedByUs = true;
    this.ws?.close();
  }

  private send(msg: object): void {
    if (this.ws?.isOpen) this.ws.send(JSON.stringify(msg));
  }

  private onMessage(text: string): void {
    if (this.closedByUs) return;
    let m: { t?: string; code?: string; message?: string; roomId?: string; fixed?: unknown };
    try {
      m = JSON.parse(text);
    } catch {
      return this.sink.error('badFrame');
    }
    if (m.t === 'welcome') {
      const now = performance.now();
      if (this.stormDropAt !== null) this.sink.reconnected(now - this.stormDropAt);
      else this.sink.connected(now - this.connectingSince);
      this.stormDropAt = null;
      this.welcomed = true;
      if (this.roomId) this.send({ v, t: 'join', roomId: this.roomId, spectate: true });
    } else if (m.t === 'view' && m.roomId === this.roomId) {
      // It only counts views, so it keeps no fixed members, only whether it got them: a view without
      // them before any did is ignored and the room joined again, as the client does.
      if (m.fixed !== undefined) this.hasFixed = true;
      else if (!this.hasFixed) {
        this.sink.error('spectator.fixedMissing', m.roomId);
        const now = performance.now();
        if (now - this.resyncAt >= 3000) {
          this.resyncAt = now;
          this.send({ v, t: 'join', roomId: m.roomId, spectate: true });
        }
        return;
      }
      this.sink.view();
    } else if (m.t === 'error') this.sink.error(`spectator.${m.code ?? 'error'}`, m.message);
  }
}
