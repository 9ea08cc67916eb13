/**
 * Rooms that live and die properly (issue 15, item 2). Every `tickMs` the
 * rules run over the rooms the presence board has heard about:
 * - the list counts only present players (plus bots) and present spectators,
 *   and does not show a room nobody is present in;
 * - a host away for `hostGraceMs` hands the room to the longest-seated
 *   present player;
 * - a waiting room with nobody present for `emptyCloseMs` is closed.
 * Each transition leaves a Korean notice on the room (`noticeOf`) and a log
 * line. The clock is injected, so tests drive the rules with fake time.
 */
import type { Logger } from 'pino';
import type { Db } from '../db/open.ts';
import type { Raw } from '../db/raw.ts';
import { readRooms } from './sql.ts';
import { MSG } from '../messages.ts';
import type { RoomDirectory } from './directory.ts';
import type { PresenceBoard, PresenceLimits } from './presence.ts';
import type { RoomSummary } from './view.ts';
import { reportStall } from '../stalls.ts';
import type { Clock } from '@joke/bus/clock';

interface RoomState {
  present: boolean;
  /** Seated people and spectators of the last read who were not present (the list leaves them out). */
  absentPlayers: number;
  absentSpectators: number;
  emptySince: number | null;
  hostAwaySince: number | null;
  /** When the rules may see this room differently without anything happening to it. */
  recheckAt: number;
  /** Of the last read, what `recheckAt` depends on. */
  status: string;
  currentGameId: string | null;
  members: string[];
  /** How many of them counted as present by their marks, at `judgedAt`. */
  freshCount: number;
  judgedAt: number;
  notice: { code: string; text: string; at: number } | null;
}

/** A page as the list shows it, and what that rests on (RoomLifecycle.listedPage). */
export interface ListedPage {
  rooms: RoomSummary[];
  basis: readonly unknown[];
  from: number;
  until: number;
}

export interface LifecycleReport {
  rooms: number;
  hostsPassed: number;
  closed: number;
}

/** How long a notice stays on its room. */
const NOTICE_MS = 60_000;

/**
 * Every this long the tick reads every room the board knows, whatever changed: another replica's
 * seat and host changes reach this one only so (or with a presence change in the room).
 */
export const FULL_READ_MS = 10_000;

/** Rooms read and judged per statement (bounds how long one tick holds the event loop). */
const READ_CHUNK = 200;

export class RoomLifecycle {
  private readonly state = new Map<string, RoomState>();
  private running = false;
  /** A change this process cannot pin on one room (a finished game, a sweep): the next tick reads all. */
  private touchedAll = true;
  private readonly touchedRooms = new Set<string>();
  private lastFull = -Infinity;

  constructor(
    private readonly db: Db,
    private readonly raw: Raw,
    private readonly board: PresenceBoard,
    private readonly directory: RoomDirectory,
    private readonly limits: PresenceLimits,
    private readonly log: Logger,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /** A room mutation of this process (seats, host, status may differ from the last read); no id = any room. */
  touched(roomId?: string | null): void {
    if (roomId) this.touchedRooms.add(roomId);
    else this.touchedAll = true;
  }

  /**
   * Applies the rules once. Overlapping calls are skipped (a slow database must not pile ticks up).
   * It reads only the rooms something happened to: presence changed (board.takeChanged), mutated here,
   * or due (a member's presence runs out, a host's grace or an empty room's time is up); all of them
   * after a change it cannot pin on a room, and every FULL_READ_MS.
   */
  async tick(now = this.clock.now()): Promise<LifecycleReport> {
    const report: LifecycleReport = { rooms: 0, hostsPassed: 0, closed: 0 };
    if (this.running) return report;
    this.running = true;
    const t0 = performance.now();
    const changed = this.board.takeChanged();
    const full = this.touchedAll || now - this.lastFull >= FULL_READ_MS;
    try {
      let ids: string[];
      let games: string[];
      if (full) {
        this.touchedAll = false;
        this.lastFull = now;
        ids = this.board.markedRooms();
        games = this.board.gameRooms();
      } else {
        const due = new Set([...changed.rooms, ...this.touchedRooms]);
        for (const [id, st] of this.state) {
          if (st.recheckAt > now) continue;
          // Members who kept asking moved their time on: only the board (memory) is asked for that.
          st.recheckAt = this.recheckAt(id, st, now);
          if (st.recheckAt <= now) due.add(id);
        }
        ids = [...due];
        games = changed.games;
      }
      this.touchedRooms.clear();
      if (ids.length + games.length === 0) return report;
      // Raw, one statement per READ_CHUNK rooms: between them the event loop serves calls. A full
      // read of thousands of rooms in one statement held it for tens of ms (reading the rows and
      // judging them), which showed up as the p99 of every call made meanwhile (issue 15, item 7).
      const alive = new Set<string>();
      for (let i = 0; i < ids.length || i < games.length; i += READ_CHUNK) {
        const part = await readRooms(this.raw, ids.slice(i, i + READ_CHUNK), games.slice(i, i + READ_CHUNK));
        const t1 = performance.now();
        for (const row of part) {
          if (alive.has(row.id)) continue; // found by its id and by its game
          alive.add(row.id);
          await this.judge(row, now, report);
        }
        reportStall('lifecycle judge (one read)', t1);
      }
      // A full read covers every room with an opinion, so any other state is of a room gone or forgotten.
      for (const id of full ? [...this.state.keys()] : ids) if (!alive.has(id)) this.state.delete(id);
      report.rooms = alive.size;
      if (full) this.board.prune(now, this.limits.emptyCloseMs + this.limits.hostGraceMs + this.limits.awayAfterMs);
      reportStall(full ? 'lifecycle full tick (wall)' : 'lifecycle tick (wall)', t0);
      return report;
    } catch (err) {
      this.touchedAll = true; // what this tick took off the board is judged by the next one
      throw err;
    } finally {
      this.running = false;
    }
  }

  /** The list's view of a room: present counts, or null for a room nobody is in (never shown). */
  listed(s: RoomSummary, now = this.clock.now()): RoomSummary | null {
    const st = this.state.get(s.roomId);
    if (!st) {
      // Not judged yet (created since the last tick): shown while its creator was just heard from.
      const at = this.board.lastSeen(s.roomId, s.hostId);
      return at !== undefined && now - at < this.limits.awayAfterMs ? s : null;
    }
    if (!st.present) return null;
    // Out of the room as it is now (this process's mutations patch the list between reads), those last
    // judged absent: a seat or bot taken since the last tick counts at once, not a tick later.
    return {
      ...s,
      seated: Math.max(0, s.seated - st.absentPlayers),
      spectatorCount: Math.max(0, s.spectatorCount - st.absentSpectators),
    };
  }

  /**
   * `listed` over a page, with what the answer rests on: the judged state of each room (replaced, not
   * changed, by each judgement) or, for a room not judged yet, its host's last mark, and until when
   * the answer holds without either changing. `stillListed` checks that basis in one lookup per room,
   * so the list can reuse its answer (and its JSON) between changes instead of rebuilding it per call.
   */
  listedPage(page: readonly RoomSummary[], now = this.clock.now()): ListedPage {
    const out: RoomSummary[] = [];
    const basis: (RoomState | number | undefined)[] = [];
    let until = Infinity;
    for (const s of page) {
      const st = this.state.get(s.roomId);
      const at = st ? undefined : this.board.lastSeen(s.roomId, s.hostId);
      basis.push(st ?? at);
      if (at !== undefined && now - at < this.limits.awayAfterMs) until = Math.min(until, at + this.limits.awayAfterMs);
      const shown = this.listed(s, now);
      if (shown) out.push(shown);
    }
    return { rooms: out, basis, from: now, until };
  }

  /** The page `listedPage` answered still gives that answer at `now`. */
  stillListed(page: readonly RoomSummary[], was: ListedPage, now: number): boolean {
    if (now < was.from || now >= was.until || page.length !== was.basis.length) return false;
    for (let i = 0; i < page.length; i++) {
      const s = page[i];
      const st = this.state.get(s.roomId);
      if ((st ?? this.board.lastSeen(s.roomId, s.hostId)) !== was.basis[i]) return false;
    }
    return true;
  }

  /** The latest transition of a room, for the people in it (null when there is none lately). */
  noticeOf(roomId: string, now = this.clock.now()): { code: string; text: string } | null {
    const n = this.state.get(roomId)?.notice;
    return n && now - n.at < NOTICE_MS ? { code: n.code, text: n.text } : null;
  }

  private async judge(
    row: {
      id: string;
      status: string;
      hostId: string;
      currentGameId: string | null;
      host: { nickname: string };
      seats: { userId: string | null; joinedAt: Date; user: { nickname: string } | null }[];
      spectators: { userId: string }[];
    },
    now: number,
    report: LifecycleReport,
  ): Promise<void> {
    const humans = row.seats.filter((s) => s.userId !== null);
    const p = this.board.presence(
      row,
      humans.map((s) => s.userId!),
      row.spectators.map((s) => s.userId),
      this.limits,
      now,
    );
    const prev = this.state.get(row.id);
    const st: RoomState = {
      present: p.players.size + p.spectators > 0,
      absentPlayers: humans.length - p.players.size,
      absentSpectators: row.spectators.length - p.spectators,
      emptySince: prev?.emptySince ?? null,
      hostAwaySince: prev?.hostAwaySince ?? null,
      recheckAt: Infinity,
      status: row.status,
      currentGameId: row.currentGameId,
      members: [...humans.map((s) => s.userId!), ...row.spectators.map((s) => s.userId)],
      freshCount: 0,
      judgedAt: now,
      notice: prev?.notice ?? null,
    };
    this.state.set(row.id, st);

    const hostHere = p.players.has(row.hostId);
    st.hostAwaySince = hostHere ? null : (st.hostAwaySince ?? now);
    if (row.status === 'waiting' && st.hostAwaySince !== null && now - st.hostAwaySince >= this.limits.hostGraceMs) {
      // The longest-seated present player; seats keep their join time.
      const next = humans
        .filter((s) => p.players.has(s.userId!))
        .sort((a, b) => a.joinedAt.getTime() - b.joinedAt.getTime())[0];
      if (next) {
        const { count } = await this.db.room.updateMany({
          where: { id: row.id, hostId: row.hostId, status: 'waiting' },
          data: { hostId: next.userId! },
        });
        if (count === 1) {
          const to = next.user?.nickname ?? '?';
          st.notice = { code: 'hostPassed', text: MSG.hostPassed(row.host.nickname, to), at: now };
          st.hostAwaySince = null;
          report.hostsPassed++;
          this.touched(row.id); // its new host is read by the next tick
          this.directory.changed();
          this.log.info({ roomId: row.id, from: row.hostId, to: next.userId }, 'host away: role passed on');
        }
      }
    }

    st.emptySince = st.present ? null : (st.emptySince ?? now);
    if (row.status === 'waiting' && st.emptySince !== null && now - st.emptySince >= this.limits.emptyCloseMs) {
      const { count } = await this.db.room.deleteMany({ where: { id: row.id, status: 'waiting' } });
      this.state.delete(row.id);
      this.board.forget(row.id, row.currentGameId);
      if (count === 1) {
        report.closed++;
        this.directory.removed(row.id);
        this.log.info({ roomId: row.id, emptyMs: now - st.emptySince }, 'nobody connected: room closed');
      }
    }
    if (this.state.get(row.id) === st) {
      st.freshCount = this.board.freshness(row.id, st.members, this.limits, now).count;
      st.recheckAt = this.recheckAt(row.id, st, now);
    }
  }

  /**
   * The earliest time the rules could judge the room otherwise (`now`: already): a member present by
   * their marks at the last read no longer is, or a deadline not yet passed then. Arrivals need no
   * time: they are presence changes (board.takeChanged).
   */
  private recheckAt(roomId: string, st: RoomState, now: number): number {
    const byFact = st.status === 'playing' && st.currentGameId !== null && this.board.hasFact(st.currentGameId);
    let at = Infinity;
    if (!byFact) {
      const f = this.board.freshness(roomId, st.members, this.limits, now);
      at = f.count < st.freshCount ? now : f.until;
    }
    if (st.status === 'waiting') {
      const graceEnds = st.hostAwaySince === null ? Infinity : st.hostAwaySince + this.limits.hostGraceMs;
      if (graceEnds > st.judgedAt) at = Math.min(at, graceEnds);
      const closesAt = st.emptySince === null ? Infinity : st.emptySince + this.limits.emptyCloseMs;
      if (closesAt > st.judgedAt) at = Math.min(at, closesAt);
    }
    return at;
  }
}
