/**
 * Fair-play totals and the rules that flag them. Every total is a plain sum over hands, so totals from
 * different games (or lobby replicas) add up in any order, and PostgreSQL can keep them with
 * `x = x + excluded.x`. The rules read only totals: the simulator and the lobby flag the same way.
 *
 * Pair (a, b) with a < b: hands dealt in together, games together, chips a won from b (net), and per
 * direction how often one faced the other's bet, raised it, held a strong hand facing it and folded it.
 * Account: games, hands, decisions facing any bet (raised, strong, strong folds), chips won in base units (sum and
 * sum of squares, for a win rate and its spread) and think times (count, sum, sum of squares, histogram).
 *
 * Flags (each a one-sided binomial test at FLAG_P, strict enough that hundreds of honest pairs stay clean):
 * - softPlay: the pair raised each other far less often than each raised everyone else;
 * - chipDumping: one folded strong hands to the other's bets far more often than to anyone else's;
 * - botTiming: an account's think times vary too little (coefficient of variation < 0.15 over 40+ decisions);
 * - winRate: an account wins far more than break-even over 300+ hands (z > 5).
 */
import type { HandFacts } from './hands.ts';

export const FLAG_P = 1e-4;
/** How many raise decisions against one player count as one independent observation (see scorePair). */
export const SOFT_DESIGN_EFFECT = 2;
/** Upper bounds (ms) of the think-time histogram buckets; the last bucket is everything above. */
export const THINK_BUCKETS_MS = [500, 1000, 2000, 4000, 8000, 16000, 32000];

export interface PairTotals {
  a: string;
  b: string;
  hands: number;
  games: number;
  /** Net chips a won from b (negative: b won from a). */
  chipsAFromB: number;
  aFacingB: number;
  aRaisedB: number;
  aStrongFacingB: number;
  aStrongFoldsB: number;
  bFacingA: number;
  bRaisedA: number;
  bStrongFacingA: number;
  bStrongFoldsA: number;
}

export interface AccountTotals {
  player: string;
  games: number;
  hands: number;
  facing: number;
  raised: number;
  strongFacing: number;
  strongFolds: number;
  /** Others holding a strong hand facing this account's bet, and how many of them folded it. */
  strongFacedBy: number;
  strongFoldedTo: number;
  netUnits: number;
  netUnitsSq: number;
  thinkCount: number;
  thinkSumMs: number;
  thinkSumSqMs: number;
  thinkHist: number[];
}

/** What one game adds: pair and account increments, and which hands back each pair's suspicion. */
export interface GameDelta {
  pairs: PairTotals[];
  accounts: AccountTotals[];
  /** Hands where one of the pair folded a strong hand to the other, or won a pot off the other. */
  evidence: { a: string; b: string; handNo: number; kind: 'strongFold' | 'bigFlow'; chips: number }[];
}

export function pairKey(x: string, y: string): [string, string] {
  return x < y ? [x, y] : [y, x];
}

export function emptyPair(a: string, b: string): PairTotals {
  return {
    a,
    b,
    hands: 0,
    games: 0,
    chipsAFromB: 0,
    aFacingB: 0,
    aRaisedB: 0,
    aStrongFacingB: 0,
    aStrongFoldsB: 0,
    bFacingA: 0,
    bRaisedA: 0,
    bStrongFacingA: 0,
    bStrongFoldsA: 0,
  };
}

export function emptyAccount(player: string): AccountTotals {
  return {
    player,
    games: 0,
    hands: 0,
    facing: 0,
    raised: 0,
    strongFacing: 0,
    strongFolds: 0,
    strongFacedBy: 0,
    strongFoldedTo: 0,
    netUnits: 0,
    netUnitsSq: 0,
    thinkCount: 0,
    thinkSumMs: 0,
    thinkSumSqMs: 0,
    thinkHist: THINK_BUCKETS_MS.map(() => 0).concat(0),
  };
}

export function addPair(into: PairTotals, d: PairTotals): void {
  for (const k of Object.keys(into) as (keyof PairTotals)[]) if (k !== 'a' && k !== 'b') into[k] += d[k];
}

export function addAccount(into: AccountTotals, d: AccountTotals): void {
  for (const k of Object.keys(into) as (keyof AccountTotals)[])
    if (k === 'thinkHist') d.thinkHist.forEach((v, i) => (into.thinkHist[i] += v));
    else if (k !== 'player') into[k] += d[k];
}

/** The totals one game's hands add. `eligible` narrows who is counted (the lobby leaves out bots). */
export function gameDelta(hands: readonly HandFacts[], eligible: (id: string) => boolean = () => true): GameDelta {
  const pairs = new Map<string, PairTotals>();
  const accounts = new Map<string, AccountTotals>();
  const evidence: GameDelta['evidence'] = [];
  const pair = (x: string, y: string) => {
    const [a, b] = pairKey(x, y);
    const k = `${a}\u0000${b}`;
    let p = pairs.get(k);
    if (!p) pairs.set(k, (p = { ...emptyPair(a, b), games: 1 }));
    return p;
  };
  const account = (id: string) => {
    let t = accounts.get(id);
    if (!t) accounts.set(id, (t = { ...emptyAccount(id), games: 1 }));
    return t;
  };
  for (const hand of hands) {
    const ids = hand.players.filter(eligible);
    for (const id of ids) {
      const t = account(id);
      t.hands++;
      const u = (hand.net[id] ?? 0) / hand.baseUnit;
      t.netUnits += u;
      t.netUnitsSq += u * u;
    }
    for (let i = 0; i < ids.length; i++) for (let j = i + 1; j < ids.length; j++) pair(ids[i], ids[j]).hands++;
    for (const f of hand.flows) {
      if (!eligible(f.from) || !eligible(f.to)) continue;
      const p = pair(f.from, f.to);
      p.chipsAFromB += p.a === f.to ? f.amount : -f.amount;
      if (f.amount >= 20 * hand.baseUnit)
        evidence.push({ a: p.a, b: p.b, handNo: hand.handNo, kind: 'bigFlow', chips: Math.round(f.amount) });
    }
    for (const d of hand.decisions) {
      if (!eligible(d.actor)) continue;
      const t = account(d.actor);
      t.thinkCount++;
      t.thinkSumMs += d.thinkMs;
      t.thinkSumSqMs += d.thinkMs * d.thinkMs;
      const bucket = THINK_BUCKETS_MS.findIndex((ub) => d.thinkMs <= ub);
      t.thinkHist[bucket < 0 ? THINK_BUCKETS_MS.length : bucket]++;
      if (d.facing === null) continue;
      t.facing++;
      if (d.kind === 'raise') t.raised++;
      if (d.strong) t.strongFacing++;
      if (d.strong && d.kind === 'fold') t.strongFolds++;
      if (!eligible(d.facing) || d.facing === d.actor) continue;
      const bettor = account(d.facing);
      if (d.strong) bettor.strongFacedBy++;
      if (d.strong && d.kind === 'fold') bettor.strongFoldedTo++;
      const p = pair(d.actor, d.facing);
      const mine = p.a === d.actor;
      const raised = d.kind === 'raise' ? 1 : 0;
      const strong = d.strong ? 1 : 0;
      const strongFold = d.strong && d.kind === 'fold' ? 1 : 0;
      if (mine) {
        p.aFacingB++;
        p.aRaisedB += raised;
        p.aStrongFacingB += strong;
        p.aStrongFoldsB += strongFold;
      } else {
        p.bFacingA++;
        p.bRaisedA += raised;
        p.bStrongFacingA += strong;
        p.bStrongFoldsA += strongFold;
      }
      if (strongFold) {
        evidence.push({
          a: p.a,
          b: p.b,
          handNo: hand.handNo,
          kind: 'strongFold',
          chips: Math.round(-(hand.net[d.actor] ?? 0)),
        });
      }
    }
  }
  return { pairs: [...pairs.values()], accounts: [...accounts.values()], evidence };
}

function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log((n - k + i) / i);
  return s;
}

/** P(X ≤ k) for X ~ Binomial(n, p). */
export function binomLower(n: number, k: number, p: number): number {
  if (p <= 0) return 1;
  if (p >= 1) return k >= n ? 1 : 0;
  let sum = 0;
  for (let i = 0; i <= k; i++) sum += Math.exp(logChoose(n, i) + i * Math.log(p) + (n - i) * Math.log(1 - p));
  return Math.min(1, sum);
}

/** P(X ≥ k) for X ~ Binomial(n, p). */
export function binomUpper(n: number, k: number, p: number): number {
  return k <= 0 ? 1 : 1 - binomLower(n, k - 1, p);
}

export interface PairFlag {
  /** The evidence's combined p-value (Fisher's method over the two tests): smaller is more suspicious. */
  p: number;
  softPlay: { p: number; raisedEachOther: number; facedEachOther: number; expectedRate: number };
  chipDumping: { p: number; folder: string; to: string; strongFolds: number; strongFacing: number; usualRate: number };
}

/** Fisher's method for two p-values: χ² with 4 degrees of freedom has the closed-form tail e^(−x/2)(1 + x/2). */
function fisher(p1: number, p2: number): number {
  const half = -(Math.log(Math.max(p1, 1e-300)) + Math.log(Math.max(p2, 1e-300)));
  return Math.min(1, Math.exp(-half) * (1 + half));
}

/** The pair's two tests and their combination, flagged or not (the operator view shows near misses too). */
export function scorePair(p: PairTotals, acc: (id: string) => AccountTotals | undefined): PairFlag {
  const A = acc(p.a) ?? emptyAccount(p.a);
  const B = acc(p.b) ?? emptyAccount(p.b);
  // Each one's raise rate against everyone else, smoothed so a short history cannot say 0 or 1.
  const rateA = (A.raised - p.aRaisedB + 1) / (A.facing - p.aFacingB + 4);
  const rateB = (B.raised - p.bRaisedA + 1) / (B.facing - p.bFacingA + 4);
  const n = p.aFacingB + p.bFacingA;
  const k = p.aRaisedB + p.bRaisedA;
  const expected = n > 0 ? (rateA * p.aFacingB + rateB * p.bFacingA) / n : 0;
  // Decisions are not independent draws: several per hand, and a seating fixes who acts after whom for a
  // whole game. Honest simulated pairs fell below the plain binomial p about ten times too often, so the
  // test counts every two decisions as one (a design effect of 2).
  const softP =
    n >= 15 ? binomLower(Math.round(n / SOFT_DESIGN_EFFECT), Math.round(k / SOFT_DESIGN_EFFECT), expected) : 1;
  const softPlay = { p: softP, raisedEachOther: k, facedEachOther: n, expectedRate: expected };
  let chipDumping: PairFlag['chipDumping'] = {
    p: 1,
    folder: p.a,
    to: p.b,
    strongFolds: 0,
    strongFacing: 0,
    usualRate: 0,
  };
  for (const [folder, to, t, u, folds, facing] of [
    [p.a, p.b, A, B, p.aStrongFoldsB, p.aStrongFacingB],
    [p.b, p.a, B, A, p.bStrongFoldsA, p.bStrongFacingA],
  ] as const) {
    // The usual rate is the higher of the folder's against everyone else and everyone else's against the
    // bettor: a bettor whose big bets make everyone fold is not dumped to.
    const own = (t.strongFolds - folds + 0.5) / (t.strongFacing - facing + 5);
    const induced = (u.strongFoldedTo - folds + 0.5) / (u.strongFacedBy - facing + 5);
    const usual = Math.max(own, induced);
    // Two directions tested: Bonferroni's factor 2.
    const q = folds >= 2 ? Math.min(1, 2 * binomUpper(facing, folds, usual)) : 1;
    if (q < chipDumping.p || (q === chipDumping.p && folds > chipDumping.strongFolds))
      chipDumping = { p: q, folder, to, strongFolds: folds, strongFacing: facing, usualRate: usual };
  }
  return { p: fisher(softP, chipDumping.p), softPlay, chipDumping };
}

/** Why a pair is flagged (null: it is not): either test alone past FLAG_P / 2, or both together past FLAG_P. */
export function flagPair(p: PairTotals, acc: (id: string) => AccountTotals | undefined): PairFlag | null {
  const s = scorePair(p, acc);
  return s.p < FLAG_P || Math.min(s.softPlay.p, s.chipDumping.p) < FLAG_P / 2 ? s : null;
}

export interface AccountFlag {
  botTiming: { cv: number; decisions: number } | null;
  winRate: { unitsPer100: number; z: number; hands: number } | null;
}

export function accountSummary(t: AccountTotals): {
  thinkMeanMs: number;
  thinkCv: number;
  unitsPer100: number;
  z: number;
} {
  const mean = t.thinkCount ? t.thinkSumMs / t.thinkCount : 0;
  const sd = t.thinkCount > 1 ? Math.sqrt(Math.max(0, t.thinkSumSqMs / t.thinkCount - mean * mean)) : 0;
  const wMean = t.hands ? t.netUnits / t.hands : 0;
  const wSd = t.hands > 1 ? Math.sqrt(Math.max(0, t.netUnitsSq / t.hands - wMean * wMean)) : 0;
  const z = wSd > 0 ? wMean / (wSd / Math.sqrt(t.hands)) : 0;
  return { thinkMeanMs: mean, thinkCv: mean > 0 ? sd / mean : 0, unitsPer100: wMean * 100, z };
}

/** How much of the less active one's games the two played at the same table (0..1). */
export function tableOverlap(p: PairTotals, a: AccountTotals | undefined, b: AccountTotals | undefined): number {
  const least = Math.min(a?.games ?? 0, b?.games ?? 0);
  return least > 0 ? Math.min(1, p.games / least) : 0;
}

export function flagAccount(t: AccountTotals): AccountFlag | null {
  const s = accountSummary(t);
  const botTiming = t.thinkCount >= 40 && s.thinkCv < 0.15 ? { cv: s.thinkCv, decisions: t.thinkCount } : null;
  const winRate = t.hands >= 300 && s.z > 5 ? { unitsPer100: s.unitsPer100, z: s.z, hands: t.hands } : null;
  return botTiming || winRate ? { botTiming, winRate } : null;
}
