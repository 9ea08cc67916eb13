/**
 * Where a table's frames come from and where its actions go. The product
 * uses the gateway; the dev harness plugs in the engine running in the page.
 * Every game's table uses it with its own action and view types.
 */
import type { PresenceEntry } from '@joke/protocol';
import type { GameEvent, GameResult, GameTypes } from '@joke/engine/client';
import type { ActResult, ConnStatus, GatewayClient } from '../net/gateway.ts';
import { FrameLog } from '../frame-log.ts';

/** The result type of the game a view belongs to (OneCardResult, PokerResult, HulaResult). */
export type ResultOf<V> = V extends { game: infer G extends keyof GameTypes } ? GameTypes[G]['result'] : GameResult;

export interface TableFrame<V> {
  seq: number;
  role: 'player' | 'spectator';
  view: V;
  events: GameEvent[];
  presence: PresenceEntry[];
  result: ResultOf<V> | null;
}

export interface TableHandlers<V> {
  frame: (f: TableFrame<V>) => void;
  presence: (p: PresenceEntry[]) => void;
  connection: (s: ConnStatus) => void;
  /** `code` is the gateway's error code (`noRoom`, `badToken`, …). */
  error: (message: string, fatal: boolean, code?: string) => void;
}

export interface TableSource<A, V> {
  /** Game room id (the gateway's), shown in the title. */
  readonly roomId: string;
  readonly spectate: boolean;
  start(h: TableHandlers<V>): void;
  act(action: A): Promise<ActResult>;
  stop(): void;
  serverNow(): number;
  /** Raw frames this table received, the last ones in test builds only (frame-log.ts): the test hook checks spectators never see hidden cards. */
  frames(): string[];
}

export class NetworkSource<A, V> implements TableSource<A, V> {
  private offs: (() => void)[] = [];
  private readonly received = new FrameLog();

  constructor(
    private readonly gw: GatewayClient,
    readonly roomId: string,
    readonly spectate: boolean,
  ) {}

  start(h: TableHandlers<V>): void {
    this.offs.push(
      this.gw.on('view', (f, raw) => {
        if (f.roomId !== this.roomId) return;
        this.received.record(raw);
        h.frame({
          seq: f.seq,
          role: f.role,
          view: f.view as V,
          events: f.events as GameEvent[],
          presence: f.presence,
          result: (f.result as ResultOf<V> | undefined) ?? null,
        });
      }),
      this.gw.on('presence', (roomId, p) => {
        if (roomId === this.roomId) h.presence(p);
      }),
      this.gw.on('status', (s) => h.connection(s)),
      this.gw.on('error', (message, code, fatal, roomId) => {
        if (!roomId || roomId === this.roomId) h.error(message, fatal, code);
      }),
    );
    h.connection(this.gw.status);
    this.gw.connect();
    this.gw.join(this.roomId, this.spectate);
  }

  act(action: A): Promise<ActResult> {
    return this.gw.act(this.roomId, action);
  }

  stop(): void {
    for (const off of this.offs) off();
    this.offs = [];
    this.gw.leave(this.roomId);
  }

  serverNow(): number {
    return this.gw.serverNow();
  }

  frames(): string[] {
    return this.received.list();
  }
}
