/**
 * Who this gateway hosts: sockets by user, and per room the sockets that
 * receive player frames (by seat) or spectator frames. A socket is indexed
 * under exactly one role per room, so a spectator socket can only ever be
 * handed a `viewer: null` frame.
 */
import type { WebSocket } from './uws.ts';
import type { PlayerClaims } from '@joke/protocol/auth';
import { spectatorTopic } from './topics.ts';
import type { Timer } from '@joke/bus/clock';

export type Role = 'player' | 'spectator';

export interface Membership {
  /** null while the join request is in flight. */
  role: Role | null;
  /** Highest transition sent to this socket for this room: older or repeated frames are dropped. */
  lastSeq: number;
  /** Frames that arrived while joining (copied: the bus buffer is reused), replayed once the role and seq are known. */
  early: { viewer: string | null; seq: number; kind: 'view' | 'presence'; frame: Uint8Array }[] | null;
  wantsSpectate: boolean;
  /** Settles when the pending join is answered, so a pipelined action waits for it. */
  joined: Promise<void> | null;
  /** A player's latest presence notice held back under pressure (shed.ts); sent before its next view. */
  heldPresence?: { seq: number; frame: string | Uint8Array } | undefined;
  /** A spectator socket taken off the room's topic while its send buffer was full (shed.ts). */
  paused?: boolean;
}

export interface SocketData {
  id: number;
  user: PlayerClaims | null;
  authing: boolean;
  /** Messages received while `hello` was being verified. */
  held: string[];
  tokens: number;
  refilledAt: number;
  rateErrorAt: number;
  rooms: Map<string, Membership>;
  closed: boolean;
  dropping: boolean;
  helloTimer: Timer | null;
  /** The address this socket counts against (limits.ts). */
  ip: string;
  /** Requests of this socket not answered yet (limits.ts). */
  pending: number;
}

export type Sock = WebSocket<SocketData>;

export interface QueueParams {
  game: string;
  mode: string;
  players: number;
  /** Bots may fill the seats left empty after the matchmaker's wait. */
  bots?: boolean;
}

export interface RoomEntry {
  players: Map<string, Set<Sock>>;
  spectators: Set<Sock>;
  joining: Set<Sock>;
  /** `workerId/incarnation` that last answered a join or sent a delivery for the room. */
  owner: string | null;
  refreshing: boolean;
  /** Highest view seq published to the room's spectator topic (spectators share one encoding). */
  spectatorSeq: number;
}

export class Registry {
  readonly users = new Map<string, Set<Sock>>();
  readonly rooms = new Map<string, RoomEntry>();
  readonly sockets = new Set<Sock>();
  /** Quick-match wait per user (whichever of their sockets asked): cancelled when their last socket closes. */
  readonly queued = new Map<string, QueueParams>();

  room(roomId: string): RoomEntry {
    let r = this.rooms.get(roomId);
    if (!r) {
      r = {
        players: new Map(),
        spectators: new Set(),
        joining: new Set(),
        owner: null,
        refreshing: false,
        spectatorSeq: -1,
      };
      this.rooms.set(roomId, r);
    }
    return r;
  }

  addUserSocket(userId: string, ws: Sock): void {
    let s = this.users.get(userId);
    if (!s) this.users.set(userId, (s = new Set()));
    s.add(ws);
  }

  removeUserSocket(userId: string, ws: Sock): void {
    const s = this.users.get(userId);
    if (!s) return;
    s.delete(ws);
    if (s.size === 0) this.users.delete(userId);
  }

  /** Indexes `ws` under `role` (moving it if its role changed). */
  setRole(roomId: string, userId: string, ws: Sock, role: Role): void {
    const r = this.room(roomId);
    r.joining.delete(ws);
    if (role === 'spectator') {
      this.unindexPlayer(r, userId, ws);
      r.spectators.add(ws);
      ws.subscribe(spectatorTopic(roomId));
    } else {
      if (r.spectators.delete(ws)) ws.unsubscribe(spectatorTopic(roomId));
      let s = r.players.get(userId);
      if (!s) r.players.set(userId, (s = new Set()));
      s.add(ws);
    }
  }

  /** Does any socket of `userId` here hold `role` in the room? */
  hasRole(roomId: string, userId: string, role: Role): boolean {
    const r = this.rooms.get(roomId);
    if (!r) return false;
    if (role === 'player') return r.players.has(userId);
    for (const o of r.spectators) if (o.getUserData().user?.sub === userId) return true;
    return false;
  }

  /**
   * Removes `ws` from the room; returns true when it was the user's last
   * socket in that role here, i.e. when the room worker must hear about it.
   */
  leaveRoom(roomId: string, userId: string, ws: Sock, role: Role | null): boolean {
    const r = this.rooms.get(roomId);
    if (!r) return false;
    r.joining.delete(ws);
    let last = false;
    if (role === 'player') {
      this.unindexPlayer(r, userId, ws);
      last = !r.players.has(userId);
    } else if (role === 'spectator') {
      r.spectators.delete(ws);
      // A closed socket has left its topics already (uWS does it before the close handler).
      if (!ws.getUserData().closed) ws.unsubscribe(spectatorTopic(roomId));
      last = true;
      for (const o of r.spectators) if (o.getUserData().user?.sub === userId) last = false;
    }
    if (r.players.size === 0 && r.spectators.size === 0 && r.joining.size === 0) this.rooms.delete(roomId);
    return last;
  }

  private unindexPlayer(r: RoomEntry, userId: string, ws: Sock): void {
    const s = r.players.get(userId);
    if (!s) return;
    s.delete(ws);
    if (s.size === 0) r.players.delete(userId);
  }
}
