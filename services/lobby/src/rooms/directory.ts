/**
 * The public room list, served from memory (issue 15, item 7): most lobby
 * calls are lists, and each one read rooms with their host and seat counts
 * from PostgreSQL. A page is read once per filter and then kept fresh by the
 * room mutations of this process, which hand over the room as it now is
 * (`applied`): the room is put at its place in every page it matches, or
 * taken out. Anything else that changes rooms (the sweep, a finished game,
 * presence facts, a mutation whose result does not show the room) calls
 * `changed()`, and the pages are read again. `maxAgeMs` bounds how long a
 * change made by another lobby replica can go unseen. Concurrent misses share one read.
 */
import type { RoomSummary } from './view.ts';
import { reportStall } from '../stalls.ts';

export interface ListFilter {
  game?: string;
  hasOpenSeats?: boolean;
  inProgress?: boolean;
  limit: number;
}

interface Page {
  filter: ListFilter;
  at: number;
  /** null while the read is in flight. */
  rooms: RoomSummary[] | null;
  /** The read filled the whole limit: a room taken out may leave a gap only the database can fill. */
  full: boolean;
  read: Promise<RoomSummary[]>;
}

const matches = (f: ListFilter, r: RoomSummary): boolean =>
  !r.isPrivate &&
  (f.game === undefined || f.game === r.game) &&
  (f.inProgress === undefined || (r.status !== 'waiting') === f.inProgress) &&
  (f.hasOpenSeats === undefined || r.openSeats > 0 === f.hasOpenSeats);

/** Newest first, as the database orders the list (ties by id, so the order is total). */
const before = (a: RoomSummary, b: RoomSummary): boolean =>
  a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.roomId > b.roomId);

/** Exactly the summary fields, whatever richer object (a RoomDetail) it was taken from. */
export function summaryOf(r: RoomSummary): RoomSummary {
  return {
    roomId: r.roomId,
    game: r.game,
    gameName: r.gameName,
    mode: r.mode,
    modeName: r.modeName,
    isPrivate: r.isPrivate,
    status: r.status,
    hostId: r.hostId,
    hostName: r.hostName,
    seated: r.seated,
    maxSeats: r.maxSeats,
    minPlayers: r.minPlayers,
    openSeats: r.openSeats,
    spectatorCount: r.spectatorCount,
    createdAt: r.createdAt,
  };
}

function isSummary(x: unknown): x is RoomSummary {
  const r = x as Record<string, unknown> | null;
  return (
    r !== null &&
    typeof r === 'object' &&
    typeof r.roomId === 'string' &&
    typeof r.isPrivate === 'boolean' &&
    typeof r.status === 'string' &&
    typeof r.createdAt === 'number' &&
    typeof r.openSeats === 'number'
  );
}

export class RoomDirectory {
  private readonly pages = new Map<string, Page>();
  private reads = 0;

  constructor(
    private readonly maxAgeMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Database reads so far (tests: a list after a local change is served without one). */
  get loads(): number {
    return this.reads;
  }

  /** Something about rooms changed that the pages cannot be patched with: read them again. */
  changed(): void {
    this.pages.clear();
  }

  /** A room as a mutation of this process left it. */
  applied(room: RoomSummary): void {
    for (const [key, page] of this.pages) {
      if (!page.rooms) {
        // Read before or after the change? Unknown: read again.
        this.pages.delete(key);
        continue;
      }
      const i = page.rooms.findIndex((r) => r.roomId === room.roomId);
      if (i >= 0) page.rooms.splice(i, 1);
      if (matches(page.filter, room)) {
        let at = page.rooms.findIndex((r) => before(room, r));
        if (at < 0) at = page.rooms.length;
        // Older than every room of a full page: its place is beyond the page.
        if (at < page.filter.limit) page.rooms.splice(at, 0, summaryOf(room));
        if (page.rooms.length > page.filter.limit) page.rooms.length = page.filter.limit;
      } else if (i >= 0 && page.full) this.pages.delete(key);
    }
  }

  /** A room closed (deleted) by this process. */
  removed(roomId: string): void {
    for (const [key, page] of this.pages) {
      if (!page.rooms) this.pages.delete(key);
      else {
        const i = page.rooms.findIndex((r) => r.roomId === roomId);
        if (i < 0) continue;
        page.rooms.splice(i, 1);
        if (page.full) this.pages.delete(key);
      }
    }
  }

  /**
   * After a successful room mutation of this process, with its result: a room (create, join, bots,
   * spectate), `{ room }` (start), `{ roomId, closed }` (leave). Anything else: read again.
   */
  afterMutation(result: unknown): void {
    const r = result as Record<string, unknown> | null;
    const room = r && typeof r.room === 'object' ? (r.room as Record<string, unknown>) : r;
    if (isSummary(room)) this.applied(room);
    else if (r && typeof r.roomId === 'string' && r.closed === true) this.removed(r.roomId);
    else this.changed();
  }

  /** The page for `filter`, from memory while it is fresh, else from `load` (one load per filter at a time). */
  async list(filter: ListFilter, load: () => Promise<RoomSummary[]>): Promise<RoomSummary[]> {
    const key = JSON.stringify([filter.game, filter.hasOpenSeats, filter.inProgress, filter.limit]);
    const now = this.now();
    const hit = this.pages.get(key);
    if (hit && now - hit.at < this.maxAgeMs) return hit.rooms ? [...hit.rooms] : [...(await hit.read)];
    this.reads++;
    const t0 = performance.now();
    const read = load();
    const page: Page = { filter, at: now, rooms: null, full: false, read };
    if (this.maxAgeMs > 0) this.pages.set(key, page);
    try {
      const rooms = await read;
      reportStall('room-list read (wall)', t0);
      page.rooms = [...rooms];
      page.full = rooms.length >= filter.limit;
      return rooms;
    } catch (err) {
      if (this.pages.get(key) === page) this.pages.delete(key);
      throw err;
    }
  }
}
