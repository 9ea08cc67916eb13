/**
 * The items that change who is in a room but not the game: a join (player or
 * spectator), a socket gone or back, a gateway gone, and the mark that the
 * finished record was published. They change the room's metadata only; the
 * room writes it with the batch and, if presence moved, tells the viewers.
 *
 * Failure modes: a spectator join at the cap is refused (`spectatorsFull`);
 * presence for a viewer the room does not know is ignored; a join's reply is
 * built only after the batch is written, at the seq it was persisted under.
 */
import { refuse, type bus as wire } from '@joke/protocol';
import type { Batch } from './room-moves.ts';
import { departuresOf, type DepartureOutbox } from './departures.ts';
import { syncDisconnected } from './presence.ts';
import type { Item, RoomData, RoomHost, ViewerMeta } from './room-types.ts';
import {
  forgetDeparted,
  presenceKeys,
  roomForSpectator,
  setConnected,
  viewerKey,
  type Role,
  type ViewerMap,
} from './viewers.ts';

export class RoomMembership {
  constructor(
    private readonly host: RoomHost,
    private readonly data: () => RoomData,
    private readonly viewers: ViewerMap,
    /** The join frame at the room's current seq (called after the write). */
    private readonly joinReply: (userId: string, gatewayId: string, role: Role) => wire.JoinReply,
    /** A viewer's socket went (or it left): whatever comes back for it is sent the fixed view members again. */
    private readonly viewerGone: (key: string) => void = () => {},
  ) {}

  join(item: Extract<Item, { kind: 'join' }>, out: Batch): void {
    const { viewers, host } = this;
    const seat = this.data().seats.find((s) => s.id === item.userId && !s.bot);
    const role = seat && !item.spectate ? 'player' : 'spectator';
    const key = viewerKey(item.userId, item.gatewayId, role);
    const prev = viewers.get(key);
    if (!prev && role === 'spectator') {
      const before = viewers.size;
      const admitted = roomForSpectator(viewers, host.cfg.maxSpectators);
      if (viewers.size !== before) out.metaChanged = true;
      if (!admitted) {
        host.metrics.rejected.inc();
        out.replies.push({ send: () => item.respond(refuse('spectatorsFull')) });
        return;
      }
    }
    if (!prev || !prev.connected) {
      viewers.set(key, { userId: item.userId, gatewayId: item.gatewayId, role, connected: true });
      out.metaChanged = true;
    }
    host.gatewaySeen(item.gatewayId);
    out.replies.push({ send: () => item.respond(this.joinReply(item.userId, item.gatewayId, role)) });
    (out.joined ??= []).push(key);
  }

  presence(item: Extract<Item, { kind: 'presence' }>, out: Batch): void {
    const now = this.host.clock.now();
    for (const key of presenceKeys(item.userId, item.gatewayId, item.role)) {
      const v = this.viewers.get(key);
      if (!v) continue;
      if (item.left || !item.connected) this.viewerGone(key);
      if (item.left) {
        this.viewers.delete(key);
        if (v.role === 'player') (out.removed ??= new Map()).set(v.userId, 'left');
      } else if (!setConnected(v, item.connected, now)) continue;
      out.metaChanged = true;
    }
  }

  gatewayGone(gatewayId: string, out: Batch): void {
    for (const [k, v] of this.viewers)
      if (v.gatewayId === gatewayId) {
        this.viewers.delete(k);
        out.metaChanged = true;
      }
  }

  markPublished(out: Batch): void {
    const data = this.data();
    if (!data.finishedPublished) {
      data.finishedPublished = true;
      out.metaChanged = true;
    }
  }

  /**
   * End of a batch: viewers away past their grace are forgotten, seats' disconnect marks follow the
   * viewers, and a seated person who left a game still on goes into the departures outbox (leaving a
   * finished game is going back to the waiting room, not a departure: departures.ts).
   */
  settle(out: Batch, finished: boolean, departures: DepartureOutbox): void {
    const now = this.host.clock.now();
    const seats = this.data().seats;
    const forgot = (v: ViewerMeta) => {
      // A leave said in the same batch is the better reason.
      if (v.role === 'player' && !out.removed?.has(v.userId)) (out.removed ??= new Map()).set(v.userId, 'graceLapsed');
    };
    if (forgetDeparted(this.viewers, now, this.host.cfg.viewerGraceMs, forgot)) out.metaChanged = true;
    if (syncDisconnected(seats, this.viewers, now)) out.metaChanged = true;
    if (out.removed && !finished) {
      if (departures.add(departuresOf(out.removed, seats, this.viewers.values(), now))) out.metaChanged = true;
    }
  }
}
