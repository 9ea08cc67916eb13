/** A player's finished games, and one game's full record for replay. */
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { GameRecord, GameResult } from '@joke/engine';
import { MSG } from '../messages.ts';
import { storedRecord, storedResult } from '../db/stored-json.ts';
import { authedProcedure, router } from '../trpc.ts';
import { json, ms, type Stmt } from '../db/raw.ts';
import { storedId } from '../ids.ts';
import { replayProcedure } from './replay.ts';
import { recordProcedure } from './record.ts';

export interface HistoryPlayer {
  seat: number;
  /** Seat id in the game (user id for people). */
  playerId: string;
  userId: string | null;
  name: string;
  bot: boolean;
  rank: number | null;
}

export interface HistoryEntry {
  gameId: string;
  game: string;
  mode: string;
  summary: string;
  players: HistoryPlayer[];
  /** The caller's rank in this game (1 = first). */
  myRank: number | null;
  actionCount: number;
  startedAt: number;
  finishedAt: number;
}

export interface HistoryDetail extends HistoryEntry {
  options: Record<string, unknown>;
  seedCommit: string;
  seed: string;
  result: GameResult;
  /** The engine GameRecord: replay it with verifyRecord(games[game], record). */
  record: GameRecord;
  lobbyRoomId: string | null;
}

const playersInclude = { players: { orderBy: { seat: 'asc' } } } as const;

type Row = {
  id: string;
  game: string;
  mode: string;
  summary: string;
  actionCount: number;
  startedAt: Date;
  finishedAt: Date;
  players: HistoryPlayer[];
};

function entry(row: Row, me: string): HistoryEntry {
  const players = row.players.map((p) => ({
    seat: p.seat,
    playerId: p.playerId,
    userId: p.userId,
    name: p.name,
    bot: p.bot,
    rank: p.rank,
  }));
  return {
    gameId: row.id,
    game: row.game,
    mode: row.mode,
    summary: row.summary,
    players,
    myRank: players.find((p) => p.userId === me)?.rank ?? null,
    actionCount: row.actionCount,
    startedAt: row.startedAt.getTime(),
    finishedAt: row.finishedAt.getTime(),
  };
}

/**
 * One statement for a page of the caller's games, without the records and results (the largest
 * columns, which a list never shows; Prisma's include read them all): newest first, after the cursor
 * game in that order (none when the cursor names no game, as Prisma's cursor did).
 */
const MINE: Stmt = {
  name: 'lobby_history_mine',
  text: `SELECT g."id", g."game", g."mode", g."summary", g."action_count" AS "actionCount",
      ${ms('g."started_at"')} AS "startedMs", ${ms('g."finished_at"')} AS "finishedMs",
      (SELECT json_agg(json_build_object('seat', p."seat", 'playerId', p."player_id", 'userId', p."user_id",
          'name', p."name", 'bot', p."bot", 'rank', p."rank") ORDER BY p."seat")::text
        FROM "game_players" p WHERE p."game_id" = g."id") AS "players"
    FROM "games" g
    WHERE g."id" IN (SELECT "game_id" FROM "game_players" WHERE "user_id" = $1)
      AND ($2::text IS NULL OR (g."finished_at", g."id") < (SELECT c."finished_at", c."id" FROM "games" c WHERE c."id" = $2))
    ORDER BY g."finished_at" DESC, g."id" DESC
    LIMIT $3::int`,
};

type RawEntry = Omit<Row, 'startedAt' | 'finishedAt' | 'players'> & {
  startedMs: number;
  finishedMs: number;
  players: string;
};

export const historyRouter = router({
  /** Newest first; pass the last entry's gameId as `cursor` for the next page. */
  mine: authedProcedure
    .input(
      z
        .object({
          limit: z.number().int().min(1).max(100).default(20),
          // A game id handed out by the previous page ('' names none: an empty page).
          cursor: storedId(64, MSG.badCursor, 0).optional(),
        })
        .default({ limit: 20 }),
    )
    .query(async ({ ctx, input }) => {
      const found = await ctx.deps.raw.rows<RawEntry>(MINE, [ctx.user.id, input.cursor ?? null, input.limit + 1]);
      const rows: Row[] = found.map((r) => ({
        ...r,
        startedAt: new Date(r.startedMs),
        finishedAt: new Date(r.finishedMs),
        players: json<HistoryPlayer[]>(r.players),
      }));
      const page = rows.slice(0, input.limit);
      return {
        games: page.map((r) => entry(r, ctx.user.id)),
        nextCursor: rows.length > input.limit ? page[page.length - 1].id : null,
      };
    }),

  /** Only for people who played in it: the record reveals every hand. */
  get: authedProcedure.input(z.object({ gameId: storedId(64, MSG.gameNotFound) })).query(async ({ ctx, input }) => {
    const row = await ctx.deps.db.game.findUnique({ where: { id: input.gameId }, include: playersInclude });
    if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: MSG.gameNotFound });
    if (!row.players.some((p) => p.userId === ctx.user.id))
      throw new TRPCError({ code: 'FORBIDDEN', message: MSG.notInGame });
    const out: HistoryDetail = {
      ...entry(row, ctx.user.id),
      options: row.options as Record<string, unknown>,
      seedCommit: row.seedCommit,
      seed: row.seed,
      result: storedResult(row.result),
      record: storedRecord(row.record),
      lobbyRoomId: row.lobbyRoomId,
    };
    return out;
  }),

  /** 내 기록: games, wins and best hands per game (record.ts). */
  record: recordProcedure,

  /** 복기 by link: public games for anyone, private-room games for members; nicknames only (replay.ts). */
  replay: replayProcedure,
});
