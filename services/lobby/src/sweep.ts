/**
 * Housekeeping for tables nobody will finish: guests close the tab without
 * leaving, a lobby replica dies between claiming a start and hearing the
 * matchmaker, a room worker dies without ever publishing RoomFinished.
 */
import type { Db } from './db/open.ts';

export interface SweepLimits {
  /** A waiting room untouched this long is closed. */
  idleRoomMs: number;
  /** A start still unanswered after this long is undone (the claim normally lasts ≤ the start timeout). */
  stuckStartMs: number;
  /** A game with no RoomFinished after this long frees its table. */
  stuckGameMs: number;
}

export const DEFAULT_SWEEP: SweepLimits = {
  idleRoomMs: 6 * 3600_000,
  stuckStartMs: 60_000,
  stuckGameMs: 12 * 3600_000,
};

export interface SweepReport {
  closed: number;
  unstuckStarts: number;
  unstuckGames: number;
}

export async function sweep(db: Db, limits: SweepLimits, now: number): Promise<SweepReport> {
  const before = (ms: number) => new Date(now - ms);
  const free = { status: 'waiting', currentGameId: null };
  const starts = await db.room.updateMany({
    where: { status: 'starting', updatedAt: { lt: before(limits.stuckStartMs) } },
    data: free,
  });
  const games = await db.room.updateMany({
    where: { status: 'playing', updatedAt: { lt: before(limits.stuckGameMs) } },
    data: free,
  });
  const closed = await db.room.deleteMany({
    where: { status: 'waiting', updatedAt: { lt: before(limits.idleRoomMs) } },
  });
  return { closed: closed.count, unstuckStarts: starts.count, unstuckGames: games.count };
}
