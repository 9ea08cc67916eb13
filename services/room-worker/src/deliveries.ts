/**
 * What a room sends to gateways after a write: each connected viewer's frame,
 * encoded once, and ONE `Delivery` per gateway carrying only the frames of the
 * viewers that gateway hosts. Spectators share one frame per transition, and
 * every frame of a transition shares one encode of the view's common members
 * (`StateViews`, frames.ts).
 *
 * The game's fixed view members (frames.ts `FixedMembers`) go only to viewers
 * that may not have them: every join reply carries them, and a delivered frame
 * carries them for a viewer entry not yet sent the current fixed text — the
 * first frame to each viewer after this worker took the room (the record is in
 * memory only, never in the snapshot), a viewer whose socket was gone, and every
 * viewer when the fixed text changes. Spectators share one frame: it carries
 * them when any connected spectator needs them. A client that gets a view
 * without them and holds none joins again (docs/architecture.md, room worker,
 * "Frames").
 *
 * The presence list travels the same way (`Held.presence`): in every join reply
 * and presence notice, and in a view frame only for a viewer not yet sent the
 * current list. A view without `presence` means "unchanged since your last
 * frame of this room"; most actions change nobody's presence, and the list was
 * ≈ 12 % of a one-card seat frame.
 */
import type { AnyGame } from '@joke/engine';
import { contract, emit, type bus as wire } from '@joke/protocol';
import { encodePresence } from '@joke/protocol/wire';
import { FixedMembers, StateViews, viewFrame, viewFrameBytes, type FrameContext } from './frames.ts';
import type { RoomHost, Transition, ViewerMeta } from './room-types.ts';
import { viewerKey } from './viewers.ts';

type PerGateway = Map<string, wire.DeliveryFrame[]>;

/** What a viewer was last sent, so holds: the fixed members' text and the presence list's (null = none). */
interface Held {
  fixed: string | null;
  presence: string | null;
}

export class Deliveries {
  private readonly idJson: string;
  private readonly fixed: FixedMembers;
  /**
   * Viewer key (viewers.ts `viewerKey`) → the fixed members' and the presence list's texts last sent to
   * that viewer (a join reply, a presence notice or a frame): what it holds.
   */
  private readonly holds = new Map<string, Held>();

  constructor(
    private readonly host: RoomHost,
    private readonly game: AnyGame,
    private readonly roomId: string,
  ) {
    this.idJson = JSON.stringify(roomId);
    this.fixed = new FixedMembers(game);
  }

  /** The viewer's socket went: it is sent the fixed members again if it comes back without a join. */
  viewerGone(key: string): void {
    this.holds.delete(key);
  }

  /**
   * Nobody is known to hold the presence list (the republished views after a restore, which a gateway
   * drops where its socket has their seq): the next frames carry it, unless a join reply does first.
   */
  presenceUnsure(): void {
    for (const h of this.holds.values()) h.presence = null;
  }

  /**
   * Viewers whose join this batch answers, with `state` and `presenceJson` (the batch's last): their reply
   * carries the fixed members and that presence list, so none of the batch's frames has to — not even
   * those built before the reply, as the frames folded into a command's reply are. Without this a
   * spectator joining in the batch of such a command made the shared spectator frame carry them to every
   * spectator (test/fixed-members.test.ts).
   */
  joinsAnswered(keys: readonly string[], state: unknown, presenceJson: string): void {
    const fixedJson = this.fixed.json(state);
    for (const key of keys) {
      const h = this.heldBy(key);
      if (fixedJson !== null) h.fixed = fixedJson;
      h.presence = presenceJson;
    }
  }

  /** The complete frame a joining viewer gets, at the room's current seq: always with the fixed members. */
  joinReply(
    state: unknown,
    seq: number,
    userId: string,
    gatewayId: string,
    role: 'player' | 'spectator',
    presenceJson: string,
  ): wire.JoinReply {
    const viewer = role === 'player' ? userId : null;
    const result = this.game.result(state);
    const fixedJson = this.fixed.json(state);
    const key = viewerKey(userId, gatewayId, role);
    const h = this.heldBy(key);
    if (fixedJson !== null) h.fixed = fixedJson;
    // Replies are built after their batch settled (Room.sendReplies), so this is the list the batch's
    // frames carry too: a frame at the reply's seq, which the gateway drops, loses nothing.
    h.presence = presenceJson;
    const frame = viewFrame(
      this.idJson,
      seq,
      role,
      new StateViews(this.game, state).json(viewer),
      '[]',
      presenceJson,
      result === null ? null : JSON.stringify(result),
      fixedJson,
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
    const fixedJson = this.fixed.json(t.state);
    const holds = this.holds;
    const c: FrameContext = {
      roomIdJson: this.idJson,
      seq: t.seq,
      events: t.events,
      views: new StateViews(this.game, t.state),
      presenceJson,
      resultJson,
      fixedJson,
    };
    // Spectators share one frame: it carries the fixed members (the presence list) if any connected
    // spectator lacks them (it).
    let spectatorsNeedFixed = false;
    let spectatorsNeedPresence = false;
    for (const [key, v] of viewers)
      if (v.connected && v.role === 'spectator') {
        const h = holds.get(key);
        if (fixedJson !== null && h?.fixed !== fixedJson) spectatorsNeedFixed = true;
        if (h?.presence !== presenceJson) spectatorsNeedPresence = true;
      }
    for (const [key, v] of viewers) {
      if (!v.connected) {
        // Its socket is gone: whatever comes back gets them again.
        holds.delete(key);
        continue;
      }
      let list = perGateway.get(v.gatewayId);
      if (!list) perGateway.set(v.gatewayId, (list = []));
      if (v.role === 'player') {
        const h = this.heldBy(key);
        const withFixed = fixedJson !== null && h.fixed !== fixedJson;
        if (withFixed) h.fixed = fixedJson;
        const withPresence = h.presence !== presenceJson;
        if (withPresence) h.presence = presenceJson;
        const frameKey = v.userId + (withFixed ? '\u0000fixed' : '') + (withPresence ? '\u0000presence' : '');
        let frame = playerFrames.get(frameKey);
        if (frame === undefined) {
          frame = viewFrameBytes(this.game, c, v.userId, withFixed, withPresence);
          playerFrames.set(frameKey, frame);
        }
        list.push({ kind: 'view', viewer: v.userId, bytes: frame });
      } else {
        const h = this.heldBy(key);
        if (spectatorsNeedFixed) h.fixed = fixedJson;
        if (spectatorsNeedPresence) h.presence = presenceJson;
        if (spectatorSent.has(v.gatewayId)) continue;
        spectatorFrame ??= viewFrameBytes(this.game, c, null, spectatorsNeedFixed, spectatorsNeedPresence);
        spectatorSent.add(v.gatewayId);
        list.push({ kind: 'view', viewer: null, bytes: spectatorFrame });
      }
    }
    // Entries of viewers the room forgot (left, gateway gone, grace lapsed).
    if (holds.size > viewers.size) for (const key of holds.keys()) if (!viewers.has(key)) holds.delete(key);
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
    for (const [key, v] of viewers) if (v.connected) this.heldBy(key).presence = presenceJson;
    this.notice(viewers, seq, encodePresence(this.idJson, presenceJson));
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

  private heldBy(key: string): Held {
    let h = this.holds.get(key);
    if (h === undefined) this.holds.set(key, (h = { fixed: null, presence: null }));
    return h;
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
