/**
 * A simulated card room for measuring the fair-play rules: honest engine bots (보통) and, optionally, one
 * scripted colluding pair. The pair wraps the honest bot: it never raises its partner (a raise becomes a
 * call) and folds strong hands to its partner's bets (chip dumping). Every game is written as the GameRecord
 * a room would send, with human-like think times (log-normal, the pair's too), and analysed exactly as the
 * lobby does (hands.ts → stats.ts). Deterministic for a seed; pure computation, no I/O.
 */
import { Rng } from '../core/rng.ts';
import { poker, type PokerView } from '../games/poker/index.ts';
import type { PokerAction, PokerState } from '../games/poker/types.ts';
import type { GameRecord, RecordedStep } from '../record/record.ts';
import { playPokerTable } from '../sim/poker-table.ts';
import { handsOfRecord, strongHand } from './hands.ts';
import {
  addAccount,
  addPair,
  emptyAccount,
  emptyPair,
  flagAccount,
  flagPair,
  gameDelta,
  pairKey,
  type AccountTotals,
  type PairFlag,
  type PairTotals,
} from './stats.ts';

const RAISES = new Set(['k.ping', 'k.ddadang', 'k.quarter', 'k.half', 'k.full', 'nl.raise', 'nl.allIn']);

/** The colluder's move: the honest bot's, softened against its partner. */
export function colluderAction(v: PokerView, partner: string, honest: PokerAction | null): PokerAction | null {
  const h = v.hand;
  const me = h?.players.find((p) => p.id === v.viewer);
  const mate = h?.players.find((p) => p.id === partner);
  if (!honest || !h || !me || !mate || mate.folded || !h.betting || h.betting.toAct !== v.viewer) return honest;
  const bet = h.betting.currentBet;
  // The mate made the bet to call (not merely called it): at the bet's level, and its last action put it there.
  const passive = ['콜', '체크', '다이', 'SB'];
  const mateLeads = !!mate.lastAction && !passive.some((l) => mate.lastAction!.startsWith(l));
  const facingMate = bet > me.committedRound && mate.committedRound === bet && mateLeads;
  const cards = me.hole.filter((c): c is Exclude<typeof c, { hidden: true }> => 'id' in c);
  if (facingMate && strongHand(v.mode, cards, me.up, h.board)) {
    const fold = v.legalActions.find((a) => a.type === 'nl.fold' || a.type === 'k.die');
    if (fold) return { type: fold.type } as PokerAction;
  }
  const mateIn = !mate.folded && (facingMate || mate.committedRound > 0 || !me.actedThisRound);
  if (RAISES.has(honest.type) && mateIn) {
    const soft = v.legalActions.find((a) => ['nl.call', 'k.call', 'nl.check', 'k.check'].includes(a.type));
    if (soft) return { type: soft.type } as PokerAction;
  }
  return honest;
}

function thinkMs(rng: Rng): number {
  // Box–Muller: log-normal around 2.5 s, as people's decision times roughly are.
  const z = Math.sqrt(-2 * Math.log(1 - rng.float())) * Math.cos(2 * Math.PI * rng.float());
  return Math.round(Math.exp(Math.log(2500) + 0.6 * z));
}

/** Plays one game of `players` to its end and returns its record. `partnerOf` names each colluder's mate. */
export function playGame(seed: string, players: string[], partnerOf: Map<string, string>, rng: Rng): GameRecord {
  const options = poker.optionsSchema.parse({
    mode: 'holdem',
    betting: 'noLimit',
    rebuy: 'off',
    endCondition: 'hands',
    handLimit: 50,
  });
  const info = players.map((id) => ({ id, name: id }));
  const startedAt = 1_700_000_000_000;
  const now = startedAt;
  let state: PokerState = poker.setup({ seed, players: info, options, now });
  const actions: RecordedStep[] = [];
  state = playPokerTable(
    state,
    players,
    now,
    (id, v) => {
      const honest = poker.bot(v, rng);
      const partner = partnerOf.get(id);
      const action = partner ? colluderAction(v, partner, honest) : honest;
      return action && { action, thinkMs: v.hand?.betting?.toAct === id ? thinkMs(rng) : 300 };
    },
    (step) => actions.push(step),
  );
  return {
    game: 'poker',
    options,
    players: info,
    startedAt,
    rulesVersion: poker.rulesVersion,
    seedCommit: state.seedCommit,
    seed,
    actions,
    result: poker.result(state),
  };
}

export interface WorldConfig {
  seed: string;
  games: number;
  honest: number;
  /** Seat a colluding pair (c1, c2); false = the same two accounts play honestly (the control). */
  collusion: boolean;
  seats?: number;
  /** Share of games the pair sits in together. */
  pairShare?: number;
  onGame?: (played: number) => void;
}

export interface WorldReport {
  games: number;
  hands: number;
  /** Hands the pair had played together when first flagged (null: never). */
  handsToFlag: number | null;
  pairHandsTogether: number;
  pairFlagged: boolean;
  honestPairs: number;
  honestPairsFlagged: number;
  /** The honest pairs flagged, with why (each one a false flag). */
  falseFlags: { a: string; b: string; hands: number; flag: PairFlag }[];
  honestAccounts: number;
  honestAccountsFlagged: number;
}

export const PAIR = ['c1', 'c2'] as const;

export function runWorld(cfg: WorldConfig): WorldReport {
  const rng = Rng.fromSeed(`fairplay:${cfg.seed}`);
  const seats = cfg.seats ?? 6;
  const honest = Array.from({ length: cfg.honest }, (_, i) => `h${i + 1}`);
  const partnerOf = new Map<string, string>(
    cfg.collusion
      ? [
          [PAIR[0], PAIR[1]],
          [PAIR[1], PAIR[0]],
        ]
      : [],
  );
  const pairs = new Map<string, PairTotals>();
  const accounts = new Map<string, AccountTotals>();
  const acc = (id: string) => accounts.get(id);
  let hands = 0;
  let handsToFlag: number | null = null;
  for (let g = 0; g < cfg.games; g++) {
    const pool = [...honest];
    const table: string[] = rng.float() < (cfg.pairShare ?? 0.5) ? [...PAIR] : [];
    while (table.length < seats) table.push(pool.splice(rng.int(pool.length), 1)[0]);
    const record = playGame(`${cfg.seed}:${g}`, table, partnerOf, rng);
    const { hands: facts, problem } = handsOfRecord(record);
    if (problem) throw new Error(`game ${g}: ${problem}`);
    hands += facts.length;
    const delta = gameDelta(facts);
    for (const d of delta.pairs) {
      const k = pairKey(d.a, d.b).join('|');
      if (!pairs.has(k)) pairs.set(k, emptyPair(d.a, d.b));
      addPair(pairs.get(k)!, d);
    }
    for (const d of delta.accounts) {
      if (!accounts.has(d.player)) accounts.set(d.player, emptyAccount(d.player));
      addAccount(accounts.get(d.player)!, d);
    }
    const ours = pairs.get(PAIR.join('|'));
    if (handsToFlag === null && ours && flagPair(ours, acc)) handsToFlag = ours.hands;
    cfg.onGame?.(g + 1);
  }
  const isHonest = (id: string) => !PAIR.includes(id as (typeof PAIR)[number]);
  const honestPairs = [...pairs.values()].filter((p) => isHonest(p.a) || isHonest(p.b));
  const honestAccounts = [...accounts.values()].filter((t) => isHonest(t.player));
  const ours = pairs.get(PAIR.join('|'));
  const falseFlags = honestPairs.flatMap((p) => {
    const flag = flagPair(p, acc);
    return flag ? [{ a: p.a, b: p.b, hands: p.hands, flag }] : [];
  });
  return {
    games: cfg.games,
    hands,
    handsToFlag,
    pairHandsTogether: ours?.hands ?? 0,
    pairFlagged: !!ours && !!flagPair(ours, acc),
    honestPairs: honestPairs.length,
    honestPairsFlagged: falseFlags.length,
    falseFlags,
    honestAccounts: honestAccounts.length,
    honestAccountsFlagged: honestAccounts.filter((t) => flagAccount(t)).length,
  };
}
