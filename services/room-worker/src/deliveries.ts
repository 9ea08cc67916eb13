/**
 * What a room sends to gateways after a write: each connected viewer's frame,
 * encoded once, and ONE `Delivery` per gateway carrying only the frames of the
 * viewers that gateway hosts. Spectators share one frame per transition.
 */
import type { AnyGame, GameEvent } from '@joke/engine';
import { subjects } from '@joke/protocol';
import { presenceFrame, viewFrame } from './frames.ts';
import type { RoomHost, Transition, ViewerMeta } from './room-types.ts';

type PerGateway = Map<string, { viewer: string | null; frame: string }[]>;

export class Deliveries {
  private readonly idJson: string;

  constructor(
    private readonly host: RoomHost,
    private readonly game: AnyGame,
    private readonly roomId: string,
  ) {
    this.idJson = JSON.stringify(roomId);
  }

  /** The complete frame a joining viewer gets, at the room's current seq. */
  joinReply(state: unknown, seq: number, userId: string, role: 'player' | 'spectator', presenceJson: string): string {
    const viewer = role === 'player' ? userId : null;
    const result = this.game.result(state);
    const frame = viewFrame(
      this.idJson,
      seq,
      role,
      this.game.view(state, viewer),
      [],
      presenceJson,
      result === null ? null : JSON.stringify(result),
    );
    return JSON.stringify({ ok: true, role, frame });
  }

  /** Each connected viewer's frame, encoded once, one publish per gateway. */
  views(viewers: ReadonlyMap<string, ViewerMeta>, t: Transition, presenceJson: string): void {
    if (viewers.size === 0) return;
    const result = this.game.result(t.state);
    const resultJson = result === null ? null : JSON.stringify(result);
    const perGateway: PerGateway = new Map();
    const playerFrames = new Map<string, string>();
    let spectatorFrame: string | null = null;
    const spectatorSent = new Set<string>();
    for (const v of viewers.values()) {
      if (!v.connected) continue;
      let list = perGateway.get(v.gatewayId);
      if (!list) perGateway.set(v.gatewayId, (list = []));
      if (v.role === 'player') {
        let frame = playerFrames.get(v.userId);
        if (frame === undefined) {
          frame = this.encodeView(t, v.userId, presenceJson, resultJson);
          playerFrames.set(v.userId, frame);
        }
        list.push({ viewer: v.userId, frame });
      } else if (!spectatorSent.has(v.gatewayId)) {
        spectatorFrame ??= this.encodeView(t, null, presenceJson, resultJson);
        spectatorSent.add(v.gatewayId);
        list.push({ viewer: null, frame: spectatorFrame });
      }
    }
    this.deliver(perGateway, t.seq);
  }

  /** A presence-only frame (nothing in the game moved) to every connected viewer. */
  presence(viewers: ReadonlyMap<string, ViewerMeta>, seq: number, presenceJson: string): void {
    const frame = presenceFrame(this.idJson, presenceJson);
    const perGateway: PerGateway = new Map();
    const spectatorSent = new Set<string>();
    for (const v of viewers.values()) {
      if (!v.connected) continue;
      let list = perGateway.get(v.gatewayId);
      if (!list) perGateway.set(v.gatewayId, (list = []));
      if (v.role === 'player') list.push({ viewer: v.userId, frame });
      else if (!spectatorSent.has(v.gatewayId)) {
        spectatorSent.add(v.gatewayId);
        list.push({ viewer: null, frame });
      }
    }
    this.deliver(perGateway, seq);
  }

  private encodeView(t: Transition, viewer: string | null, presenceJson: string, resultJson: string | null): string {
    const events: GameEvent[] = [];
    for (const e of t.events) {
      const seen = this.game.eventView(e, viewer);
      if (seen) events.push(seen);
    }
    const role = viewer === null ? 'spectator' : 'player';
    return viewFrame(this.idJson, t.seq, role, this.game.view(t.state, viewer), events, presenceJson, resultJson);
  }

  private deliver(perGateway: PerGateway, seq: number): void {
    for (const [gatewayId, frames] of perGateway) {
      if (frames.length === 0) continue;
      try {
        this.host.bus.publish(
          subjects.gatewayDeliver(gatewayId),
          `{"roomId":${this.idJson},"seq":${seq},"frames":${JSON.stringify(frames)}}`,
        );
      } catch (err) {
        this.host.metrics.errors.inc({ kind: 'bus' });
        this.host.log.warn({ err, roomId: this.roomId }, 'delivery publish failed');
      }
    }
  }
}
