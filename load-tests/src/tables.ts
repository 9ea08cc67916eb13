/**
 * The per-table book of one swarm process: when each room was matched and
 * finished, how its seq advanced (for gap analysis around a crash), and every
 * acknowledged action (tests compare them with the final game records). Two
 * different actions acknowledged at the same seq of a room means one was lost.
 */
import type { BotSink } from './bot.ts';
import type { RunStats } from './stats.ts';

export interface TableStats {
  roomId: string;
  /** This swarm's bots matched to it (a quick-match table may be filled with fewer, and server bots). */
  bots: Set<string>;
  matchedAt: number;
  finishedAt: number | null;
  /** Highest transition seen by any bot at the table. */
  lastSeq: number;
  lastSeqAt: number;
  /** Longest wait between two successive transitions reaching the table (includes think time). */
  maxGapMs: number;
  maxGapAt: number;
  /** Every (arrival time, seq) when the table's seq advanced. */
  advances: { at: number; seq: number }[];
  /**
   * The action acknowledged at each seq while the table plays (emptied when it finishes). Kept per table, not
   * in one map of "room#seq" strings for the whole run: that map grew by an entry and two strings per action,
   * all of it live to the end, and the swarm's major GCs, marking its whole heap, paused every bot of the
   * process for up to half a second (docs/measurements/boxes.md, "A fifth box: the load generator's own pauses").
   */
  acks: Map<number, string>;
}

export interface AckRecord {
  roomId: string;
  userId: string;
  actionId: string;
  action: unknown;
  seq: number;
}

type TableSink = Pick<BotSink, 'matched' | 'view' | 'finished' | 'acked' | 'raced'>;

export function createTableBook(
  stats: RunStats,
  collectAcks: boolean,
): { tables: Map<string, TableStats>; acks: AckRecord[]; sink: TableSink } {
  const tables = new Map<string, TableStats>();
  const acks: AckRecord[] = [];
  const sink: TableSink = {
    matched(roomId, userId) {
      const known = tables.get(roomId);
      if (known) return void known.bots.add(userId);
      const now = performance.now();
      tables.set(roomId, {
        roomId,
        bots: new Set([userId]),
        matchedAt: now,
        finishedAt: null,
        lastSeq: -1,
        lastSeqAt: now,
        maxGapMs: 0,
        maxGapAt: 0,
        advances: [],
        acks: new Map(),
      });
    },
    view(roomId, seq, at) {
      const t = tables.get(roomId);
      if (!t || seq <= t.lastSeq) return;
      if (t.lastSeq >= 0 && at - t.lastSeqAt > t.maxGapMs) {
        t.maxGapMs = at - t.lastSeqAt;
        t.maxGapAt = at;
      }
      t.lastSeq = seq;
      t.lastSeqAt = at;
      t.advances.push({ at, seq });
    },
    finished(roomId) {
      const t = tables.get(roomId);
      if (!t || t.finishedAt !== null) return;
      t.finishedAt = performance.now();
      t.acks.clear();
      stats.count('finished');
    },
    acked(roomId, userId, actionId, action, seq) {
      stats.count('actions');
      const t = tables.get(roomId);
      if (t && t.finishedAt === null) {
        const prev = t.acks.get(seq);
        if (prev !== undefined && prev !== actionId) stats.error('ackConflict');
        t.acks.set(seq, actionId);
      }
      if (collectAcks) acks.push({ roomId, userId, actionId, action, seq });
    },
    raced() {
      stats.count('raced');
    },
  };
  return { tables, acks, sink };
}
