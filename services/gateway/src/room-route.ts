/**
 * One room as this gateway sees it: the worker that owns it, the sockets that receive its player frames
 * (by seat), its spectator sockets (one uWS topic), the sockets still joining, and the one path by which a
 * Delivery's frames reach them.
 *
 * State: `owner` (`workerId/incarnation` that last answered a join or sent a delivery), the three socket
 * indexes, `refreshing` (a re-join after an owner change is running), and the highest view seq published
 * to the spectator topic (spectators share one encoding). A socket is indexed under exactly one role, so a
 * spectator socket can only ever be handed a `viewer: null` frame.
 * Failure modes: a delivery is read from its binary header alone; the frames' bytes go to `ws.send`
 * unchanged. Under pressure spectator frames are dropped and presence notices wait (shed.ts, via
 * Session.frame); a socket past the backpressure bound is dropped by its Session. Frames that race a join
 * are kept (at most 64 per joining socket, copied: the bus reuses its buffer) and replayed once the join
 * is answered (membership.ts).
 */
import type { bus as wire } from '@joke/protocol';
import type { GatewayMetrics } from './metrics.ts';
import type { Shedder } from './shed.ts';
import type { Role, Session } from './session.ts';
import { spectatorTopic } from './topics.ts';

/** What every room of one gateway shares (built once in gateway.ts, with the uWS app it publishes on). */
export interface RouteShared {
  /** One write for every subscriber of a uWS topic (the spectators of a room here). */
  publish(topic: string, frame: Uint8Array): void;
  shed: Shedder;
  metrics: GatewayMetrics;
}

/** The acknowledgement of the action a delivery answers, for the acting socket. */
export interface ActorAck {
  session: Session;
  text: string;
}

export class RoomRoute {
  owner: string | null = null;
  readonly players = new Map<string, Set<Session>>();
  readonly spectators = new Set<Session>();
  readonly joining = new Set<Session>();
  refreshing = false;
  /** The room's spectator topic, named once (not per published frame). */
  readonly topic: string;
  private spectatorSeq = -1;

  constructor(
    readonly roomId: string,
    private readonly shared: RouteShared,
  ) {
    this.topic = spectatorTopic(roomId);
  }

  /**
   * Hands a delivery's frames to the sockets: spectator frames with ONE topic publish, each player socket's
   * writes corked (one write syscall per delivery). With `ack` (the delivery came as the reply to that
   * socket's action, RoomCommand.framesInReply), the acting socket gets the ack and its view in one corked
   * write; returns whether the ack went out that way (else the caller sends it on its own).
   */
  deliver(d: wire.Delivery, ack: ActorAck | undefined): boolean {
    let acked = false;
    for (const f of d.frames) {
      if (f.viewer === null) this.toSpectators(d.seq, f);
      else {
        const socks = this.players.get(f.viewer);
        if (socks) for (const s of socks) if (this.toPlayer(s, d.seq, f, acked ? undefined : ack)) acked = true;
      }
      if (this.joining.size > 0)
        for (const s of this.joining) {
          const m = s.rooms.get(this.roomId);
          if (m?.early && m.early.length < 64)
            m.early.push({ viewer: f.viewer, seq: d.seq, kind: f.kind, frame: f.bytes.slice() });
        }
    }
    return acked;
  }

  private toPlayer(s: Session, seq: number, f: wire.DeliveryFrame, ack: ActorAck | undefined): boolean {
    const m = s.rooms.get(this.roomId);
    if (!m) return false;
    if (ack?.session !== s) {
      s.ws.cork(() => s.frame(m, seq, f.kind, f.bytes));
      return false;
    }
    s.ws.cork(() => {
      s.send(ack.text);
      s.frame(m, seq, f.kind, f.bytes);
    });
    return true;
  }

  private toSpectators(seq: number, f: wire.DeliveryFrame): void {
    if (this.spectators.size === 0) return;
    if (f.kind === 'view') {
      if (seq <= this.spectatorSeq) return;
      this.spectatorSeq = seq;
    } else if (seq < this.spectatorSeq) return;
    // Behind: spectators go without (and join again once it passed, shed.ts); players' frames still go.
    if (!this.shared.shed.spectatorFrame(this.roomId)) return;
    this.shared.publish(this.topic, f.bytes);
    this.shared.metrics.messagesOut.inc(this.spectators.size);
  }

  /** Indexes the session under `role` (moving it if its role changed). */
  setRole(s: Session, userId: string, role: Role): void {
    this.joining.delete(s);
    if (role === 'spectator') {
      this.unindexPlayer(userId, s);
      this.spectators.add(s);
      s.ws.subscribe(this.topic);
    } else {
      if (this.spectators.delete(s)) s.ws.unsubscribe(this.topic);
      let set = this.players.get(userId);
      if (!set) this.players.set(userId, (set = new Set()));
      set.add(s);
    }
  }

  /** Does any socket of `userId` here hold `role` in the room? */
  hasRole(userId: string, role: Role): boolean {
    if (role === 'player') return this.players.has(userId);
    for (const o of this.spectators) if (o.user?.sub === userId) return true;
    return false;
  }

  /** Removes the session; true when it was the user's last socket in that role here (the worker must hear). */
  remove(s: Session, userId: string, role: Role | null): boolean {
    this.joining.delete(s);
    if (role === 'player') {
      this.unindexPlayer(userId, s);
      return !this.players.has(userId);
    }
    if (role !== 'spectator') return false;
    this.spectators.delete(s);
    // A closed socket has left its topics already (uWS does it before the close handler).
    if (!s.closed) s.ws.unsubscribe(this.topic);
    for (const o of this.spectators) if (o.user?.sub === userId) return false;
    return true;
  }

  get empty(): boolean {
    return this.players.size === 0 && this.spectators.size === 0 && this.joining.size === 0;
  }

  private unindexPlayer(userId: string, s: Session): void {
    const set = this.players.get(userId);
    if (!set) return;
    set.delete(s);
    if (set.size === 0) this.players.delete(userId);
  }
}
