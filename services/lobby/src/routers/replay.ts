/**
 * 복기: one finished game's full record for replay, by its id alone (a shared link carries no token).
 *
 * Access: a public game (quick match or public room) is readable by anyone; a private room's game only
 * by a signed-in member (one of its players, or someone now seated in or watching the room). A game still
 * being played, or an id that names no stored game, is NOT_FOUND. Every refusal carries a Korean message
 * and a machine code in `data.replay` (ReplayRefusal).
 *
 * What it returns holds nicknames only: every player id in the record (for people it is their user id)
 * is replaced by a seat pseudonym (`seat0`, `seat1`, …) everywhere it appears, keys included, so the
 * record still replays and verifies exactly (the engine only compares ids with each other) but names no
 * account. Failure modes: a database error is INTERNAL_SERVER_ERROR with the fixed Korean message.
 */
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import type { GameRecord, GameResult } from '@joke/engine';
import { MSG } from '../messages.ts';
import { storedId } from '../ids.ts';
import { storedRecord, storedResult } from '../db/stored-json.ts';
import { ReplayRefusal, type ReplayRefusalCode } from '../refused.ts';
import { publicProcedure } from '../trpc.ts';

export interface ReplayPlayer {
  seat: number;
  /** The seat pseudonym the record uses for this player. */
  playerId: string;
  name: string;
  bot: boolean;
  rank: number | null;
}

export interface ReplayDetail {
  gameId: string;
  game: string;
  mode: string;
  summary: string;
  isPrivate: boolean;
  players: ReplayPlayer[];
  actionCount: number;
  startedAt: number;
  finishedAt: number;
  seedCommit: string;
  seed: string;
  result: GameResult;
  /** The engine GameRecord with seat pseudonyms: `npm run verify` and verifyRecord read it as is. */
  record: GameRecord;
}

const HTTP: Record<ReplayRefusalCode, TRPCError['code']> = {
  playing: 'NOT_FOUND',
  notFound: 'NOT_FOUND',
  signIn: 'UNAUTHORIZED',
  private: 'FORBIDDEN',
};
const TEXT: Record<ReplayRefusalCode, string> = {
  playing: MSG.replayPlaying,
  notFound: MSG.replayNotFound,
  signIn: MSG.replaySignIn,
  private: MSG.replayPrivate,
};

function refuse(code: ReplayRefusalCode): never {
  throw new TRPCError({ code: HTTP[code], message: TEXT[code], cause: new ReplayRefusal(code) });
}

/** Every string equal to a player id and every key equal to one, renamed; key order kept (results compare as text). */
export function pseudonymize<T>(value: T, names: ReadonlyMap<string, string>): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return names.get(v) ?? v;
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [names.get(k) ?? k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

export const replayProcedure = publicProcedure
  .input(z.object({ gameId: storedId(64, MSG.gameNotFound) }))
  .query(async ({ ctx, input }): Promise<ReplayDetail> => {
    const { db } = ctx.deps;
    const row = await db.game.findUnique({
      where: { id: input.gameId },
      include: { players: { orderBy: { seat: 'asc' } } },
    });
    if (!row) {
      const playing = await db.room.findUnique({ where: { currentGameId: input.gameId }, select: { id: true } });
      refuse(playing ? 'playing' : 'notFound');
    }
    if (row.isPrivate) {
      const me = ctx.claims?.sub;
      if (!me) refuse('signIn');
      const played = row.players.some((p) => p.userId === me);
      const inRoom =
        !played &&
        row.lobbyRoomId !== null &&
        ((await db.seat.count({ where: { roomId: row.lobbyRoomId, userId: me } })) > 0 ||
          (await db.spectator.count({ where: { roomId: row.lobbyRoomId, userId: me } })) > 0);
      if (!played && !inRoom) refuse('private');
    }
    const names = new Map(row.players.map((p) => [p.playerId, `seat${p.seat}`]));
    const result = pseudonymize(storedResult(row.result), names);
    return {
      gameId: row.id,
      game: row.game,
      mode: row.mode,
      summary: row.summary,
      isPrivate: row.isPrivate,
      players: row.players.map((p) => ({
        seat: p.seat,
        playerId: `seat${p.seat}`,
        name: p.name,
        bot: p.bot,
        rank: p.rank,
      })),
      actionCount: row.actionCount,
      startedAt: row.startedAt.getTime(),
      finishedAt: row.finishedAt.getTime(),
      seedCommit: row.seedCommit,
      seed: row.seed,
      result,
      record: pseudonymize(storedRecord(row.record), names),
    };
  });
