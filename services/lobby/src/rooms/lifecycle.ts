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

interface RoomState {
  present: boolean;
  /** Seated people and spectators of the last read who were not present (the list leaves them out). */
  absentPlayers: number;
  absentSpectators: number;
  emptySince: number | null;
  hostAwaySince: number | null;
  notice: { code: string; text: string; at: number } | null;
}

export interface LifecycleReport {
  rooms: number;
  hostsPassed: number;
  closed: number;
}

/** How long a notice stays on its room. */
const NOTICE_MS = 60_000;

export class RoomLifecycle {
  private readonly state = new Map<string, RoomState>();
  private running = false;
  private lastSignature: string | null = null;
  private mutated = true;

  constructor(
    private readonly db: Db,
    private readonly raw: Raw,
    private readonly board: PresenceBoard,
    private readonly directory: RoomDirectory,
    private readonly limits: PresenceLimits,
    private readonly log: Logger,
    private readonly clock: () => number,
  ) {}

  /** A room mutation of this process (seats, host, status may differ from the last read). */
  touched(): void {
    this.mutated = true;
  }

  /** Applies the rules once. Overlapping calls are skipped (a slow database must not pile ticks up). */
  async tick(now = this.clock()): Promise<LifecycleReport> {
    const report: LifecycleReport = { rooms: 0, hostsPassed: 0, closed: 0 };
    if (this.running) return report;
    this.running = true;
    try {
      const ids = this.board.markedRooms();
      const games = this.board.gameRooms();
      if (ids.length + games.length === 0) return report;
      // Nothing new since the last tick and no clock running: skip the read (PGlite shares our thread).
      const signature = this.board.signature(this.limits, now);
      const waiting = [...this.state.values()].some((st) => st.emptySince !== null || st.hostAwaySince !== null);
      if (!this.mutated && !waiting && signature === this.lastSignature) return report;
      this.mutated = false;
      this.lastSignature = signature;
      // Raw, one statement: this read covers every room anyone was lately seen in, each second.
      const rows = await readRooms(this.raw, ids, games);
      const alive = new Set(rows.map((r) => r.id));
      for (const id of this.state.keys()) if (!alive.has(id)) this.state.delete(id);
      for (const row of rows) await this.judge(row, now, report);
      report.rooms = rows.length;
      this.board.prune(now, this.limits.emptyCloseMs + this.limits.hostGraceMs + this.limits.awayAfterMs);
      return report;
    } finally {
      this.running = false;
    }
  }

  /** The list's view of a room: present counts, or null for a room nobody is in (never shown). */
  listed(s: RoomSummary, now = this.clock()): RoomSummary | null {
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

  /** The latest transition of a room, for the people in it (null when there is none lately). */
  noticeOf(roomId: string, now = this.clock()): { code: string; text: string } | null {
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
  }
}
