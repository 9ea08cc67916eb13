/**
 * Who this gateway hosts: its sessions (by uWS socket), the sessions of each signed-in user, the rooms any
 * of them is in (a RoomRoute each, made on the first join and dropped with its last socket), and each
 * user's quick-match wait.
 * State: these four maps, nothing else; they are only read and changed on the event loop.
 * Failure modes: none of its own; a route is dropped the moment no socket is in it, joining included, so a
 * delivery for it finds nothing and is not acknowledged.
 */
import { RoomRoute, type RouteShared } from './room-route.ts';
import type { Role, Session, Sock } from './session.ts';

export interface QueueParams {
  game: string;
  mode: string;
  players: number;
  /** Bots may fill the seats left empty after the matchmaker's wait. */
  bots?: boolean;
}

export class Registry {
  readonly users = new Map<string, Set<Session>>();
  readonly rooms = new Map<string, RoomRoute>();
  /** Every open socket's session, found from the socket uWS hands its callbacks. */
  readonly sessions = new Map<Sock, Session>();
  /** Quick-match wait per user (whichever of their sockets asked): cancelled when their last socket closes. */
  readonly queued = new Map<string, QueueParams>();

  constructor(private readonly routes: RouteShared) {}

  /** The room's route, made if no socket here is in it yet. */
  room(roomId: string): RoomRoute {
    let r = this.rooms.get(roomId);
    if (!r) this.rooms.set(roomId, (r = new RoomRoute(roomId, this.routes)));
    return r;
  }

  /** The worker that owns the room as last seen here (null: unknown, or no socket here is in the room). */
  ownerOf(roomId: string): string | null {
    return this.rooms.get(roomId)?.owner ?? null;
  }

  addUserSession(userId: string, s: Session): void {
    let set = this.users.get(userId);
    if (!set) this.users.set(userId, (set = new Set()));
    set.add(s);
  }

  removeUserSession(userId: string, s: Session): void {
    const set = this.users.get(userId);
    if (!set) return;
    set.delete(s);
    if (set.size === 0) this.users.delete(userId);
  }

  /**
   * Takes the session out of the room; returns true when it was the user's last socket in that role here,
   * i.e. when the room worker must hear about it.
   */
  leaveRoom(roomId: string, userId: string, s: Session, role: Role | null): boolean {
    const r = this.rooms.get(roomId);
    if (!r) return false;
    const last = r.remove(s, userId, role);
    if (r.empty) this.rooms.delete(roomId);
    return last;
  }
}
