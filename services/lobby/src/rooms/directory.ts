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
  /** This process's changes while the read was in flight, applied to what it returns. */
  pending: Change[];
  /** The read that replaces this page once it is past its age (served meanwhile). */
  refresh: Page | null;
  /** False when a change during the read took a room off the full page: only the database can fill it. */
  whole: boolean;
}

type Change = { room: RoomSummary } | { gone: string };

/** Puts a change into a page read earlier; false when only the database can fill the page again. */
function patch(page: Page, change: Change): boolean {
  const rooms = page.rooms!;
  const id = 'room' in change ? change.room.roomId : change.gone;
  const i = rooms.findIndex((r) => r.roomId === id);
  if (i >= 0) rooms.splice(i, 1);
  if ('room' in change && matches(page.filter, change.room)) {
    const room = change.room;
    let at = rooms.findIndex((r) => before(room, r));
    if (at < 0) at = rooms.length;
    // Older than every room of a full page: its place is beyond the page.
    if (at < page.filter.limit) rooms.splice(at, 0, room);
    if (rooms.length > page.filter.limit) rooms.length = page.filter.limit;
    return true;
  }
  // A room taken out of a full page may leave a gap only the database can fill.
  return !(i >= 0 && page.full);
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
  /** Bumped on every change to any page (see `shared`). */
  private stamp = 0;

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
    this.stamp++;
    this.pages.clear();
  }

  /** A room as a mutation of this process left it. */
  applied(room: RoomSummary): void {
    this.each({ room: summaryOf(room) });
  }

  /** A room closed (deleted) by this process. */
  removed(roomId: string): void {
    this.each({ gone: roomId });
  }

  private each(change: Change): void {
    this.stamp++;
    for (const [key, page] of this.pages) {
      // A read in flight may have seen the change or not: it is applied once the read lands (the
      // same room state put in twice is the same page). Dropping the page instead made every list
      // call during a read start another one while creates kept coming (issue 15, item 7).
      if (!page.rooms) page.pending.push(change);
      else if (!patch(page, change)) this.pages.delete(key);
      if (page.refresh && !page.refresh.rooms) page.refresh.pending.push(change);
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

  /**
   * The page for `filter`: from memory while it is fresh. Past `maxAgeMs` the page in memory is still
   * served while one read replaces it (so a call never waits on the database for a page it has, which
   * at 1,000 calls/s put a read's whole latency into the p99 once a second); with no page yet, the
   * callers wait for that one read.
   */
  async list(filter: ListFilter, load: () => Promise<RoomSummary[]>): Promise<RoomSummary[]> {
    return [...(await this.shared(filter, load)).rooms];
  }

  /**
   * As `list`, but the page itself (not to be changed by the caller) and a stamp that differs
   * whenever any page's rooms may have (so an answer built from the page can be reused while it is the same).
   */
  async shared(
    filter: ListFilter,
    load: () => Promise<RoomSummary[]>,
  ): Promise<{ rooms: readonly RoomSummary[]; stamp: number; key: string }> {
    const key = JSON.stringify([filter.game, filter.hasOpenSeats, filter.inProgress, filter.limit]);
    const now = this.now();
    const hit = this.pages.get(key);
    if (hit?.rooms) {
      if (now - hit.at >= this.maxAgeMs && !hit.refresh) {
        const next = this.read(filter, load, now);
        hit.refresh = next;
        next.read.then(
          () => {
            // Unless the pages were dropped meanwhile (changed(): read again anyway).
            if (this.pages.get(key) !== hit) return;
            this.stamp++;
            if (next.whole) this.pages.set(key, next);
            else this.pages.delete(key); // lost a room off a full page meanwhile: read again
          },
          () => {
            if (this.pages.get(key) === hit) this.pages.delete(key);
          },
        );
      }
      return { rooms: hit.rooms, stamp: this.stamp, key };
    }
    if (hit) {
      const rooms = await hit.read;
      return { rooms, stamp: this.stamp, key };
    }
    const page = this.read(filter, load, now);
    if (this.maxAgeMs > 0) this.pages.set(key, page);
    try {
      const rooms = await page.read;
      if (!page.whole && this.pages.get(key) === page) this.pages.delete(key);
      return { rooms, stamp: this.stamp, key };
    } catch (err) {
      if (this.pages.get(key) === page) this.pages.delete(key);
      throw err;
    }
  }

  /** A new page read from the database; those who wait for it get it with the changes made meanwhile. */
  private read(filter: ListFilter, load: () => Promise<RoomSummary[]>, now: number): Page {
    this.reads++;
    const t0 = performance.now();
    const page: Page = {
      filter,
      at: now,
      rooms: null,
      full: false,
      read: null!,
      pending: [],
      refresh: null,
      whole: true,
    };
    page.read = load().then((rooms) => {
      reportStall('room-list read (wall)', t0);
      this.stamp++;
      page.rooms = [...rooms];
      page.full = rooms.length >= filter.limit;
      let whole = true;
      for (const change of page.pending) whole = patch(page, change) && whole;
      page.pending = [];
      page.whole = whole;
      return page.rooms;
    });
    return page;
  }
}
