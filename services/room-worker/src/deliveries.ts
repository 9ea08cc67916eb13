/**
 * What a room sends to gateways after a write: each connected viewer's frame,
 * encoded once, and ONE `Delivery` per gateway carrying only the frames of the
 * viewers that gateway hosts. Spectators share one frame per transition, and
 * every frame of a transition shares one encode of the view's common members
 * (`StateViews`, frames.ts).
 */
import type { AnyGame } from '@joke/engine';
import { contract, emit, type bus as wire } from '@joke/protocol';
import { presenceFrame, StateViews, viewFrame, viewFrameBytes, type FrameContext } from './frames.ts';
import type { RoomHost, Transition, ViewerMeta } from './room-types.ts';

type PerGateway = Map<string, wire.DeliveryFrame[]>;

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
  joinReply(
    state: unknown,
    seq: number,
    userId: string,
    role: 'player' | 'spectator',
    presenceJson: string,
  ): wire.JoinReply {
    const viewer = role === 'player' ? userId : null;
    const result = this.game.result(state);
    const frame = viewFrame(
      this.idJson,
      seq,
      role,
      new StateViews(this.game, state).json(viewer),
      '[]',
      presenceJson,
      result === null ? null : JSON.stringify(result),
    );
    return { ok: true, role, seq, owner: this.host.owner, frame };
  }

  /**
   * Each connected viewer's frame, encoded once, one publish per gateway — except the gateway `held`
   * names: its delivery is returned unsent (null if it has no frames), to travel as the reply to the
   * command it answers (Reply.withFrames).
   */
  views(
    viewers: ReadonlyMap<string, ViewerMeta>,
    t: Transition,
    presenceJson: string,
    held?: string,
  ): wire.Delivery | null {
    if (viewers.size === 0) return null;
    const result = this.game.result(t.state);
    const resultJson = result === null ? null : JSON.stringify(result);
    const perGateway: PerGateway = new Map();
    const playerFrames = new Map<string, Uint8Array>();
    let spectatorFrame: Uint8Array | null = null;
    const spectatorSent = new Set<string>();
    const c: FrameContext = {
      roomIdJson: this.idJson,
      seq: t.seq,
      events: t.events,
      views: new StateViews(this.game, t.state),
      presenceJson,
      resultJson,
    };
    for (const v of viewers.values()) {
      if (!v.connected) continue;
      let list = perGateway.get(v.gatewayId);
      if (!list) perGateway.set(v.gatewayId, (list = []));
      if (v.role === 'player') {
        let frame = playerFrames.get(v.userId);
        if (frame === undefined) {
          frame = viewFrameBytes(this.game, c, v.userId);
          playerFrames.set(v.userId, frame);
        }
        list.push({ kind: 'view', viewer: v.userId, bytes: frame });
      } else if (!spectatorSent.has(v.gatewayId)) {
        spectatorFrame ??= viewFrameBytes(this.game, c, null);
        spectatorSent.add(v.gatewayId);
        list.push({ kind: 'view', viewer: null, bytes: spectatorFrame });
      }
    }
    let kept: wire.Delivery | null = null;
    if (held !== undefined) {
      const frames = perGateway.get(held);
      if (frames !== undefined && frames.length > 0) kept = this.delivery(t.seq, frames);
      perGateway.delete(held);
    }
    this.deliver(perGateway, t.seq);
    return kept;
  }

  /** A presence-only frame (nothing in the game moved) to every connected viewer. */
  presence(viewers: ReadonlyMap<string, ViewerMeta>, seq: number, presenceJson: string): void {
    this.notice(viewers, seq, presenceFrame(this.idJson, presenceJson));
  }

  /**
   * Any frame that does not move the view (a presence update, or an `error` notice such as
   * `tableLost`) to every connected viewer. It travels as a `presence`-kind frame at the current
   * seq, which gateways pass on to every socket that has not seen a newer view.
   */
  notice(viewers: ReadonlyMap<string, ViewerMeta>, seq: number, text: string): void {
    const bytes = Buffer.from(text);
    const perGateway: PerGateway = new Map();
    const spectatorSent = new Set<string>();
    for (const v of viewers.values()) {
      if (!v.connected) continue;
      let list = perGateway.get(v.gatewayId);
      if (!list) perGateway.set(v.gatewayId, (list = []));
      if (v.role === 'player') list.push({ kind: 'presence', viewer: v.userId, bytes });
      else if (!spectatorSent.has(v.gatewayId)) {
        spectatorSent.add(v.gatewayId);
        list.push({ kind: 'presence', viewer: null, bytes });
      }
    }
    this.deliver(perGateway, seq);
  }

  private delivery(seq: number, frames: wire.DeliveryFrame[]): wire.Delivery {
    return { roomId: this.roomId, seq, owner: this.host.owner, frames };
  }

  private deliver(perGateway: PerGateway, seq: number): void {
    for (const [gatewayId, frames] of perGateway) {
      if (frames.length === 0) continue;
      try {
        emit(this.host.bus, contract.gatewayDeliver.at(gatewayId), this.delivery(seq, frames));
      } catch (err) {
        this.host.metrics.errors.inc({ kind: 'bus' });
        this.host.log.warn({ err, roomId: this.roomId }, 'delivery publish failed');
      }
    }
  }
}
