/** A player's finished games, and one game's full record for replay. */
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { GameRecord, GameResult } from '@joke/engine';
import { MSG } from '../messages.ts';
import { authedProcedure, router } from '../trpc.ts';

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

export const historyRouter = router({
  /** Newest first; pass the last entry's gameId as `cursor` for the next page. */
  mine: authedProcedure
    .input(
      z
        .object({ limit: z.number().int().min(1).max(100).default(20), cursor: z.string().max(64).optional() })
        .default({ limit: 20 }),
    )
    .query(async ({ ctx, input }) => {
      const rows = await ctx.deps.db.game.findMany({
        where: { players: { some: { userId: ctx.user.id } } },
        include: playersInclude,
        orderBy: [{ finishedAt: 'desc' }, { id: 'desc' }],
        take: input.limit + 1,
        ...(input.cursor ? { cursor: { id: input.cursor }, skip: 1 } : {}),
      });
      const page = rows.slice(0, input.limit);
      return {
        games: page.map((r) => entry(r, ctx.user.id)),
        nextCursor: rows.length > input.limit ? page[page.length - 1].id : null,
      };
    }),

  /** Only for people who played in it: the record reveals every hand. */
  get: authedProcedure.input(z.object({ gameId: z.string().min(1).max(64) })).query(async ({ ctx, input }) => {
    const row = await ctx.deps.db.game.findUnique({ where: { id: input.gameId }, include: playersInclude });
    if (!row) throw new TRPCError({ code: 'NOT_FOUND', message: MSG.gameNotFound });
    if (!row.players.some((p) => p.userId === ctx.user.id))
      throw new TRPCError({ code: 'FORBIDDEN', message: MSG.notInGame });
    const out: HistoryDetail = {
      ...entry(row, ctx.user.id),
      options: row.options as Record<string, unknown>,
      seedCommit: row.seedCommit,
      seed: row.seed,
      result: row.result as unknown as GameResult,
      record: row.record as unknown as GameRecord,
      lobbyRoomId: row.lobbyRoomId,
    };
    return out;
  }),
});
