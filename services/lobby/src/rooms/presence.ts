/**
 * Who is really in a room, as this lobby knows it (issue 15): members of a
 * waiting room are present while their own calls keep arriving (the waiting
 * room screen asks for its room every second; marks are shared between lobby
 * replicas over `lobbySeen`), and the people at a game are what the room
 * worker last said in `roomOccupancy`. Nothing here is read from the
 * database or asked for: the board only hears.
 */
import { int, opt } from '@joke/ops';
import type { LobbySeen, RoomOccupancy } from '@joke/protocol';

export interface PresenceLimits {
  /** A waiting-room member not heard from for this long counts as gone (the screen asks every second). */
  awayAfterMs: number;
  /** The host may be away this long before the role passes to the longest-seated connected player. */
  hostGraceMs: number;
  /** A waiting room with nobody connected for this long is closed. */
  emptyCloseMs: number;
  /** How often the rules are applied. */
  tickMs: number;
}

export const DEFAULT_PRESENCE: PresenceLimits = {
  awayAfterMs: 5_000,
  hostGraceMs: 20_000,
  emptyCloseMs: 60_000,
  tickMs: 1_000,
};

/** The same timings as environment variables, for the standalone lobby and `npm start` (docs/lobby.md). */
export const presenceOptions = {
  awayAfterMs: opt(
    'LOBBY_AWAY_AFTER_MS',
    int(1000, 600_000),
    DEFAULT_PRESENCE.awayAfterMs,
    'A waiting-room member not heard from for this long counts as gone (the waiting room asks every second).',
  ),
  hostGraceMs: opt(
    'LOBBY_HOST_GRACE_MS',
    int(0, 3_600_000),
    DEFAULT_PRESENCE.hostGraceMs,
    'How long the host may be away before the longest-seated present player becomes host.',
  ),
  emptyCloseMs: opt(
    'LOBBY_EMPTY_CLOSE_MS',
    int(0, 86_400_000),
    DEFAULT_PRESENCE.emptyCloseMs,
    'A waiting room with nobody present for this long is closed.',
  ),
};

export function pickPresence(config: Record<keyof typeof presenceOptions, number>): Partial<PresenceLimits> {
  return { awayAfterMs: config.awayAfterMs, hostGraceMs: config.hostGraceMs, emptyCloseMs: config.emptyCloseMs };
}

/** Who is present in one room right now. */
export interface RoomPresence {
  /** Human seat user ids present. */
  players: Set<string>;
  /** Spectators present. */
  spectators: number;
}

interface GameFact {
  connected: Set<string>;
  spectators: number;
  at: number;
}

export class PresenceBoard {
  /** Lobby room id → user id → last heard from. */
  private readonly seen = new Map<string, Map<string, number>>();
  /** Game room id → the worker's last fact. */
  private readonly games = new Map<string, GameFact>();
  private outbox: LobbySeen['marks'] = [];
  private readonly changedRooms = new Set<string>();
  private readonly changedGames = new Set<string>();

  /** `awayAfterMs`: how old a mark may be and still count (a newer mark after that is a change). */
  constructor(private readonly awayAfterMs = DEFAULT_PRESENCE.awayAfterMs) {}

  /** A member of `roomId` was heard from (their own call). */
  mark(roomId: string, userId: string, at: number): void {
    this.merge(roomId, userId, at);
    if (this.outbox.length < 5000) this.outbox.push({ roomId, userId, at });
  }

  /** Marks another replica saw. */
  seenElsewhere(msg: LobbySeen): void {
    for (const m of msg.marks) this.merge(m.roomId, m.userId, m.at);
  }

  /** The marks to publish to the other replicas since the last call. */
  takeOutbox(): LobbySeen['marks'] {
    const out = this.outbox;
    this.outbox = [];
    return out;
  }

  occupancy(fact: RoomOccupancy): void {
    this.changedGames.add(fact.roomId);
    if (fact.closed) this.games.delete(fact.roomId);
    else this.games.set(fact.roomId, { connected: new Set(fact.connected), spectators: fact.spectators, at: fact.at });
  }

  /** Rooms with marks (the ones whose presence this lobby has an opinion about). */
  markedRooms(): string[] {
    return [...this.seen.keys()];
  }

  /** The worker has told us about this game (its presence is the worker's fact, not marks). */
  hasFact(gameRoomId: string): boolean {
    return this.games.has(gameRoomId);
  }

  gameRooms(): string[] {
    return [...this.games.keys()];
  }

  /**
   * Presence in a room. At a game the worker's fact decides; before its first fact arrives
   * (the seconds between start and the sockets joining), and in a waiting room, the marks.
   */
  presence(
    room: { id: string; status: string; currentGameId: string | null },
    humans: readonly string[],
    spectators: readonly string[],
    limits: PresenceLimits,
    now: number,
  ): RoomPresence {
    const fact = room.status === 'playing' && room.currentGameId ? this.games.get(room.currentGameId) : undefined;
    if (fact) return { players: new Set(humans.filter((u) => fact.connected.has(u))), spectators: fact.spectators };
    const marks = this.seen.get(room.id);
    const here = (u: string) => {
      const at = marks?.get(u);
      return at !== undefined && now - at < limits.awayAfterMs;
    };
    return { players: new Set(humans.filter(here)), spectators: spectators.filter(here).length };
  }

  /**
   * Rooms whose presence changed since the last call: someone heard from for the first time or after
   * counting as gone (a refresh of someone still present changes nothing), and games with a new fact.
   * Presence running out with time is the lifecycle's to foresee (`freshUntil`).
   */
  takeChanged(): { rooms: string[]; games: string[] } {
    const out = { rooms: [...this.changedRooms], games: [...this.changedGames] };
    this.changedRooms.clear();
    this.changedGames.clear();
    return out;
  }

  /** How many of `users` count as present in `roomId` by their marks, and when the first of them stops. */
  freshness(
    roomId: string,
    users: readonly string[],
    limits: PresenceLimits,
    now: number,
  ): { count: number; until: number } {
    const marks = this.seen.get(roomId);
    let until = Infinity;
    let count = 0;
    if (marks)
      for (const u of users) {
        const at = marks.get(u);
        if (at !== undefined && now - at < limits.awayAfterMs) {
          count++;
          until = Math.min(until, at + limits.awayAfterMs);
        }
      }
    return { count, until };
  }

  /** When `userId` was last heard from in `roomId` (undefined: never, by this lobby). */
  lastSeen(roomId: string, userId: string): number | undefined {
    return this.seen.get(roomId)?.get(userId);
  }

  /** Forgets a room (closed). */
  forget(roomId: string, gameRoomId?: string | null): void {
    this.seen.delete(roomId);
    if (gameRoomId) this.games.delete(gameRoomId);
  }

  /** Drops marks too old to matter to any rule, so the board stays the size of the live rooms. */
  prune(now: number, keepMs: number): void {
    for (const [roomId, marks] of this.seen) {
      for (const [u, at] of marks) if (now - at > keepMs) marks.delete(u);
      if (marks.size === 0) this.seen.delete(roomId);
    }
  }

  private merge(roomId: string, userId: string, at: number): void {
    let marks = this.seen.get(roomId);
    if (!marks) this.seen.set(roomId, (marks = new Map()));
    const prev = marks.get(userId);
    if (prev !== undefined && prev >= at) return;
    if (prev === undefined || at - prev >= this.awayAfterMs) this.changedRooms.add(roomId);
    marks.set(userId, at);
  }
}
