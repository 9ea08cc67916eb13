/**
 * The operator's fair-play view: flagged pairs with their evidence hands (each linking to its 복기 at
 * `/?replay=<gameId>`) and flagged accounts. Behind the operator credential (OPERATOR_TOKEN, sent as
 * `Authorization: Bearer <token>`), compared in constant time; with no OPERATOR_TOKEN configured every call
 * is refused, so a deployment without it exposes nothing. A refusal carries no data.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import { z } from 'zod';
import { accountSummary, flagPair, scorePair, tableOverlap, type PairFlag } from '@joke/engine/fairplay/stats';
import { MSG } from '../messages.ts';
import { publicProcedure, router, type Context } from '../trpc.ts';
import { accountOf, pairOf } from '../fairplay/store.ts';

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

/** True when the call carries the configured operator token. */
export function isOperator(ctx: Context): boolean {
  const want = ctx.deps.operatorToken;
  if (!want || !ctx.token) return false;
  // Hashes first: equal lengths for timingSafeEqual whatever was sent.
  return timingSafeEqual(digest(ctx.token), digest(want));
}

const operatorProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!isOperator(ctx)) throw new TRPCError({ code: 'UNAUTHORIZED', message: MSG.notOperator });
  return next();
});

export interface EvidenceHand {
  gameId: string;
  handNo: number;
  kind: 'strongFold' | 'bigFlow';
  chips: number;
  replayUrl: string;
  finishedAt: number;
}

export interface FlaggedPair {
  a: { id: string; name: string };
  b: { id: string; name: string };
  hands: number;
  games: number;
  /** Share of the less active one's games they sat at together. */
  tableOverlap: number;
  chipsAFromB: number;
  flag: PairFlag;
  active: boolean;
  flaggedAt: number;
  evidence: EvidenceHand[];
}

export interface FlaggedAccount {
  id: string;
  name: string;
  hands: number;
  thinkMeanMs: number;
  thinkCv: number;
  thinkHist: number[];
  unitsPer100: number;
  z: number;
  detail: unknown;
  active: boolean;
  flaggedAt: number;
}

type Row = Record<string, unknown>;

export const operatorRouter = router({
  fairplay: operatorProcedure
    .input(
      z
        .object({
          limit: z.number().int().min(1).max(200).default(50),
          evidencePerPair: z.number().int().min(1).max(100).default(20),
          includeCleared: z.boolean().default(false),
        })
        .default({ limit: 50, evidencePerPair: 20, includeCleared: false }),
    )
    .query(async ({ ctx, input }) => {
      const db = ctx.deps.db;
      const flags = await db.$queryRawUnsafe<Row[]>(
        `SELECT "kind", "a", "b", "detail", "active", (extract(epoch from "flagged_at") * 1000)::float8 AS "flaggedMs"
          FROM "fairplay_flags" WHERE ("active" OR $1::boolean) ORDER BY "flagged_at" DESC LIMIT $2::int`,
        input.includeCleared,
        input.limit,
      );
      const ids = [...new Set(flags.flatMap((f) => [String(f.a), ...(f.b ? [String(f.b)] : [])]))];
      const names = new Map(
        (await db.user.findMany({ where: { id: { in: ids } }, select: { id: true, nickname: true } })).map((u) => [
          u.id,
          u.nickname,
        ]),
      );
      const person = (id: string) => ({ id, name: names.get(id) ?? id });
      const accRows = ids.length
        ? await db.$queryRawUnsafe<Row[]>(`SELECT * FROM "fairplay_accounts" WHERE "player" = ANY($1::text[])`, ids)
        : [];
      const accounts = new Map(accRows.map((r) => [String(r.player), accountOf(r)]));
      const pairs: FlaggedPair[] = [];
      const flaggedAccounts: FlaggedAccount[] = [];
      for (const f of flags) {
        const a = String(f.a);
        if (f.kind === 'account') {
          const t = accounts.get(a);
          if (!t) continue;
          const s = accountSummary(t);
          flaggedAccounts.push({
            ...person(a),
            hands: t.hands,
            ...s,
            thinkHist: t.thinkHist,
            detail: JSON.parse(String(f.detail)),
            active: Boolean(f.active),
            flaggedAt: Number(f.flaggedMs),
          });
          continue;
        }
        const b = String(f.b);
        const [row] = await db.$queryRawUnsafe<Row[]>(
          `SELECT * FROM "fairplay_pairs" WHERE "a" = $1 AND "b" = $2`,
          a,
          b,
        );
        if (!row) continue;
        const totals = pairOf(row);
        // Judged again on the current totals: a flag raised on an earlier state (games are stored
        // concurrently, so totals pass through different states) that no longer holds is not listed.
        const flag = flagPair(totals, (id) => accounts.get(id));
        if (!flag && !input.includeCleared) continue;
        const evidence = await db.$queryRawUnsafe<Row[]>(
          `SELECT e."game_id", e."hand_no", e."kind", e."chips", (extract(epoch from g."finished_at") * 1000)::float8 AS "finishedMs"
            FROM "fairplay_evidence" e JOIN "games" g ON g."id" = e."game_id"
            WHERE e."a" = $1 AND e."b" = $2
            ORDER BY (e."kind" = 'strongFold') DESC, g."finished_at" DESC, e."hand_no"
            LIMIT $3::int`,
          a,
          b,
          input.evidencePerPair,
        );
        pairs.push({
          a: person(a),
          b: person(b),
          hands: totals.hands,
          games: totals.games,
          tableOverlap: tableOverlap(totals, accounts.get(a), accounts.get(b)),
          chipsAFromB: Math.round(totals.chipsAFromB),
          flag: flag ?? scorePair(totals, (id) => accounts.get(id)),
          active: flag !== null,
          flaggedAt: Number(f.flaggedMs),
          evidence: evidence.map((e) => ({
            gameId: String(e.game_id),
            handNo: Number(e.hand_no),
            kind: e.kind === 'strongFold' ? 'strongFold' : 'bigFlow',
            chips: Number(e.chips),
            replayUrl: `/?replay=${encodeURIComponent(String(e.game_id))}`,
            finishedAt: Number(e.finishedMs),
          })),
        });
      }
      return { pairs, accounts: flaggedAccounts };
    }),
});
