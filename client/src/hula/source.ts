/**
 * The 훌라 table's frames from the gateway and its actions back: the same
 * connection the 원카드 table uses (net/gateway.ts), with 훌라 view types.
 */
import type { PresenceEntry } from '@joke/protocol';
import type { GameEvent, GameResult } from '../../../engine/src/core/types.ts';
import type { ActResult, ConnStatus, GatewayClient } from '../net/gateway.ts';
import type { HulaAction, HulaView } from './model.ts';

export interface HulaFrame {
  seq: number;
  role: 'player' | 'spectator';
  view: HulaView;
  events: GameEvent[];
  result: GameResult | null;
}

export interface HulaHandlers {
  frame: (f: HulaFrame) => void;
  presence: (p: PresenceEntry[]) => void;
  connection: (s: ConnStatus) => void;
  error: (message: string, fatal: boolean) => void;
}

export class HulaSource {
  private offs: (() => void)[] = [];
  private readonly received: string[] = [];

  constructor(
    private readonly gw: GatewayClient,
    readonly roomId: string,
    readonly spectate: boolean,
  ) {}

  start(h: HulaHandlers): void {
    this.offs.push(
      this.gw.on('view', (f, raw) => {
        if (f.roomId !== this.roomId) return;
        this.received.push(raw);
        h.frame({
          seq: f.seq,
          role: f.role,
          view: f.view as HulaView,
          events: f.events as GameEvent[],
          result: (f.result as GameResult | undefined) ?? null,
        });
      }),
      this.gw.on('presence', (roomId, p) => {
        if (roomId === this.roomId) h.presence(p);
      }),
      this.gw.on('status', (s) => h.connection(s)),
      this.gw.on('error', (message, _code, fatal, roomId) => {
        if (!roomId || roomId === this.roomId) h.error(message, fatal);
      }),
    );
    h.connection(this.gw.status);
    this.gw.connect();
    this.gw.join(this.roomId, this.spectate);
  }

  act(action: HulaAction): Promise<ActResult> {
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
    return this.received;
  }
}
