/**
 * Fair-play totals in PostgreSQL, kept incrementally as finished games are stored (finished.ts).
 *
 * Why incremental, in the game's own transaction, rather than a periodic job: the totals are plain sums
 * (engine/src/fairplay/stats.ts), so a game adds to them exactly once if the addition commits with the game
 * row, whose primary key already makes a redelivered RoomFinished a no-op; no job has to remember how far it
 * read, and a pair is flagged within one game of the evidence arriving. The replay (the costly part, a few
 * ms per hand) runs before the transaction, so it holds no connection. Flags are evaluated after the commit
 * from the updated totals: a failure there is logged and counted and the next game of the same pair
 * evaluates again, so a flag is late, never lost; it never fails storing the game.
 *
 * A record the engine cannot replay adds nothing (counted as `unreadable`); games of other kinds and bots
 * (no account) are not counted at all.
 */
import type { Logger } from 'pino';
import {
  accountSummary,
  emptyAccount,
  emptyPair,
  flagAccount,
  flagPair,
  gameDelta,
  type AccountTotals,
  type GameDelta,
  type PairTotals,
} from '@joke/engine/fairplay/stats';
import { handsOfRecord } from '@joke/engine/fairplay/hands';
import type { GameRecord } from '@joke/engine';
import type { Db } from '../db/open.ts';
import type { LobbyMetrics } from '../metrics.ts';

type Exec = Pick<Db, '$executeRawUnsafe' | '$queryRawUnsafe'>;

export const PAIR_COLUMNS = {
  hands: 'hands',
  games: 'games',
  chipsAFromB: 'chips_a_from_b',
  aFacingB: 'a_facing_b',
  aRaisedB: 'a_raised_b',
  aStrongFacingB: 'a_strong_facing_b',
  aStrongFoldsB: 'a_strong_folds_b',
  bFacingA: 'b_facing_a',
  bRaisedA: 'b_raised_a',
  bStrongFacingA: 'b_strong_facing_a',
  bStrongFoldsA: 'b_strong_folds_a',
} as const satisfies Partial<Record<keyof PairTotals, string>>;

export const ACCOUNT_COLUMNS = {
  games: 'games',
  hands: 'hands',
  facing: 'facing',
  raised: 'raised',
  strongFacing: 'strong_facing',
  strongFolds: 'strong_folds',
  strongFacedBy: 'strong_faced_by',
  strongFoldedTo: 'strong_folded_to',
  netUnits: 'net_units',
  netUnitsSq: 'net_units_sq',
  thinkCount: 'think_count',
  thinkSumMs: 'think_sum_ms',
  thinkSumSqMs: 'think_sum_sq_ms',
} as const satisfies Partial<Record<keyof AccountTotals, string>>;

const FLOATS = new Set(['chips_a_from_b', 'net_units', 'net_units_sq', 'think_sum_ms', 'think_sum_sq_ms']);
const HIST = Array.from({ length: 8 }, (_, i) => `think_h${i}`);

/** One multi-row `INSERT … ON CONFLICT DO UPDATE SET x = t.x + excluded.x` for rows of one table. */
function upsertSql(table: string, keys: string[], cols: string[], rows: number): string {
  const all = [...keys, ...cols];
  const values = Array.from(
    { length: rows },
    (_, r) =>
      `(${all.map((c, i) => `$${r * all.length + i + 1}::${keys.includes(c) ? 'text' : FLOATS.has(c) ? 'float8' : 'int'}`).join(', ')})`,
  );
  const set = cols.map((c) => `"${c}" = t."${c}" + excluded."${c}"`).join(', ');
  return `INSERT INTO "${table}" AS t (${all.map((c) => `"${c}"`).join(', ')}) VALUES ${values.join(', ')}
    ON CONFLICT (${keys.map((k) => `"${k}"`).join(', ')}) DO UPDATE SET ${set}`;
}

const cmp = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0);

/** The totals one finished game adds, or null when it adds nothing (not poker, no people, unreadable). */
export function analyseGame(
  record: unknown,
  people: ReadonlySet<string>,
): { delta: GameDelta; hands: number } | { problem: string } | null {
  const r = record as GameRecord;
  if (r.game !== 'poker' || people.size < 2) return null;
  const facts = handsOfRecord(r);
  if (facts.problem) return { problem: facts.problem };
  return { delta: gameDelta(facts.hands, (id) => people.has(id)), hands: facts.hands.length };
}

/** Adds one game's totals; runs inside the transaction that stores the game. */
export async function addGameTotals(tx: Exec, gameId: string, unsorted: GameDelta): Promise<void> {
  // Rows in key order: games of the same players stored at once lock their rows in the same order, so they
  // wait for each other instead of deadlocking (PostgreSQL 40P01, seen with concurrent deliveries).
  const delta = {
    ...unsorted,
    pairs: [...unsorted.pairs].sort((x, y) => cmp(x.a, y.a) || cmp(x.b, y.b)),
    accounts: [...unsorted.accounts].sort((x, y) => cmp(x.player, y.player)),
  };
  const pairCols = Object.values(PAIR_COLUMNS);
  const pairKeys = Object.keys(PAIR_COLUMNS) as (keyof typeof PAIR_COLUMNS)[];
  if (delta.pairs.length > 0)
    await tx.$executeRawUnsafe(
      upsertSql('fairplay_pairs', ['a', 'b'], pairCols, delta.pairs.length),
      ...delta.pairs.flatMap((p) => [p.a, p.b, ...pairKeys.map((k) => p[k])]),
    );
  const accCols = [...Object.values(ACCOUNT_COLUMNS), ...HIST];
  const accKeys = Object.keys(ACCOUNT_COLUMNS) as (keyof typeof ACCOUNT_COLUMNS)[];
  if (delta.accounts.length > 0)
    await tx.$executeRawUnsafe(
      upsertSql('fairplay_accounts', ['player'], accCols, delta.accounts.length),
      ...delta.accounts.flatMap((t) => [t.player, ...accKeys.map((k) => t[k]), ...t.thinkHist]),
    );
  for (let i = 0; i < delta.evidence.length; i += 500) {
    const part = delta.evidence.slice(i, i + 500);
    const values = part.map(
      (_, r) => `($1, $${r * 5 + 2}, $${r * 5 + 3}, $${r * 5 + 4}::int, $${r * 5 + 5}, $${r * 5 + 6}::int)`,
    );
    await tx.$executeRawUnsafe(
      `INSERT INTO "fairplay_evidence" ("game_id", "a", "b", "hand_no", "kind", "chips") VALUES ${values.join(', ')}
        ON CONFLICT DO NOTHING`,
      gameId,
      ...part.flatMap((e) => [e.a, e.b, e.handNo, e.kind, e.chips]),
    );
  }
}

type Row = Record<string, unknown>;

export function pairOf(row: Row): PairTotals {
  const p = emptyPair(String(row.a), String(row.b));
  for (const k of Object.keys(PAIR_COLUMNS) as (keyof typeof PAIR_COLUMNS)[]) p[k] = Number(row[PAIR_COLUMNS[k]]);
  return p;
}

export function accountOf(row: Row): AccountTotals {
  const t = emptyAccount(String(row.player));
  t.thinkHist = HIST.map((c) => Number(row[c]));
  for (const k of Object.keys(ACCOUNT_COLUMNS) as (keyof typeof ACCOUNT_COLUMNS)[])
    t[k] = Number(row[ACCOUNT_COLUMNS[k]]);
  return t;
}

/**
 * Evaluates the rules for every pair and account the game touched, from the updated totals, and records
 * flags. Returns how many pairs and accounts became flagged now (for joke_lobby_fairplay_flags_total).
 */
export async function evaluateFlags(db: Exec, delta: GameDelta): Promise<{ pairs: number; accounts: number }> {
  const ids = delta.accounts.map((t) => t.player);
  if (ids.length === 0) return { pairs: 0, accounts: 0 };
  const accRows = await db.$queryRawUnsafe<Row[]>(
    `SELECT * FROM "fairplay_accounts" WHERE "player" = ANY($1::text[])`,
    ids,
  );
  const accounts = new Map(accRows.map((r) => [String(r.player), accountOf(r)]));
  const pairRows = await db.$queryRawUnsafe<Row[]>(
    `SELECT * FROM "fairplay_pairs" WHERE "a" = ANY($1::text[]) AND "b" = ANY($1::text[])`,
    ids,
  );
  const newly = { pairs: 0, accounts: 0 };
  const record = async (
    subject: string,
    kind: 'pair' | 'account',
    a: string,
    b: string | null,
    p: number | null,
    detail: object | null,
  ) => {
    if (detail === null) {
      await db.$executeRawUnsafe(
        `UPDATE "fairplay_flags" SET "active" = false, "updated_at" = (now() AT TIME ZONE 'UTC') WHERE "subject" = $1 AND "active"`,
        subject,
      );
      return;
    }
    const inserted = await db.$executeRawUnsafe(
      `INSERT INTO "fairplay_flags" ("subject", "kind", "a", "b", "p", "detail") VALUES ($1, $2, $3, $4, $5::float8, $6)
        ON CONFLICT ("subject") DO NOTHING`,
      subject,
      kind,
      a,
      b,
      p,
      JSON.stringify(detail),
    );
    if (inserted > 0) newly[kind === 'pair' ? 'pairs' : 'accounts']++;
    else
      await db.$executeRawUnsafe(
        `UPDATE "fairplay_flags" SET "p" = $2::float8, "detail" = $3, "active" = true, "updated_at" = (now() AT TIME ZONE 'UTC') WHERE "subject" = $1`,
        subject,
        p,
        JSON.stringify(detail),
      );
  };
  for (const row of pairRows) {
    const pair = pairOf(row);
    const flag = flagPair(pair, (id) => accounts.get(id));
    await record(`pair:${pair.a}|${pair.b}`, 'pair', pair.a, pair.b, flag?.p ?? null, flag);
  }
  for (const t of accounts.values()) {
    const flag = flagAccount(t);
    await record(
      `account:${t.player}`,
      'account',
      t.player,
      null,
      null,
      flag ? { ...flag, ...accountSummary(t) } : null,
    );
  }
  return newly;
}

/** After the game and its totals committed: evaluates the flags, counts new ones; never throws. */
export async function afterStored(db: Exec, delta: GameDelta, metrics: LobbyMetrics, log: Logger): Promise<void> {
  try {
    const newly = await evaluateFlags(db, delta);
    if (newly.pairs) metrics.fairplayFlags.inc({ kind: 'pair' }, newly.pairs);
    if (newly.accounts) metrics.fairplayFlags.inc({ kind: 'account' }, newly.accounts);
    if (newly.pairs || newly.accounts) log.warn({ ...newly }, 'fair-play flags raised');
  } catch (err) {
    metrics.fairplayGames.inc({ outcome: 'evaluation-failed' });
    log.error({ err }, 'fair-play evaluation failed (the next game of these players evaluates again)');
  }
}
