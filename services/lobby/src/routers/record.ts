/**
 * 내 기록 (issue 41 item 5): the caller's own record per game, from the stored finished games: games
 * played, wins (rank 1), best finish, and for poker the hands that were the best of a game they played.
 * Deliberately nothing else: no chips, no points, no ranking against other people (seed §12: nothing that
 * reads as wealth or can be exchanged). Two read-only statements on the game_players index by user; no
 * state. Failure modes: a poker result stored without stats (older records) simply adds no hand.
 */
import type { Stmt } from '../db/raw.ts';
import { authedProcedure } from '../trpc.ts';

export interface GameRecordLine {
  game: string;
  games: number;
  wins: number;
  /** Best rank reached (1 = first), null when no game of it was ranked. */
  bestRank: number | null;
  /** Poker: names of the hands that were the best of a game, by how often (at most 3). */
  bestHands: { hand: string; times: number }[];
}

const PER_GAME: Stmt = {
  name: 'lobby_record_per_game',
  text: `SELECT g."game", count(*)::int AS "games", (count(*) FILTER (WHERE p."rank" = 1))::int AS "wins",
      min(p."rank")::int AS "bestRank"
    FROM "game_players" p JOIN "games" g ON g."id" = p."game_id"
    WHERE p."user_id" = $1
    GROUP BY g."game" ORDER BY count(*) DESC, g."game"`,
};

/** `result` is `json` (key order kept for replays), so the path operators read it as text, not jsonb. */
const BEST_HANDS: Stmt = {
  name: 'lobby_record_best_hands',
  text: `SELECT g."game", g."result"->'stats'->'bestHand'->>'handName' AS "hand", count(*)::int AS "times"
    FROM "game_players" p JOIN "games" g ON g."id" = p."game_id"
    WHERE p."user_id" = $1 AND g."result"->'stats'->'bestHand'->>'playerId' = p."player_id"
    GROUP BY 1, 2 ORDER BY 3 DESC, 2`,
};

export const recordProcedure = authedProcedure.query(async ({ ctx }): Promise<{ games: GameRecordLine[] }> => {
  const me = ctx.user.id;
  const [lines, hands] = await Promise.all([
    ctx.deps.raw.rows<Omit<GameRecordLine, 'bestHands'>>(PER_GAME, [me]),
    ctx.deps.raw.rows<{ game: string; hand: string | null; times: number }>(BEST_HANDS, [me]),
  ]);
  return {
    games: lines.map((l) => ({
      ...l,
      bestHands: hands
        .filter((h) => h.game === l.game && h.hand)
        .slice(0, 3)
        .map((h) => ({ hand: h.hand!, times: h.times })),
    })),
  };
});
