/**
 * Final ranking (§6.7) and the result (§8.6). `hands`: net chips after taking
 * back every rebuy. `lastStanding`: survivors first, then the later a player
 * went out the better, ties within a hand broken by chips at that hand's start.
 */
import type { GameResult, PlayerId, RankingEntry } from '../../core/types.ts';
import type { PokerState, PotResult, SeatState, ShowdownEntry } from './types.ts';

export interface PokerRankingEntry extends RankingEntry {
  player: PlayerId;
  playerId: PlayerId;
  rank: number;
  score: number;
  finalChips: number;
  rebuys: number;
  eliminatedAtHand: number | null;
}

export interface PokerResult extends GameResult {
  ranking: PokerRankingEntry[];
  stats: {
    handsPlayed: number;
    biggestPot: { handNo: number; amount: number; winners: PlayerId[] };
    bestHand: { playerId: PlayerId; handName: string; handNo: number } | null;
  };
  /** The last hand played: each pot (amount, eligible players, winners) and the showdown hands with their lows. */
  lastHand: { handNo: number; pots: PotResult[]; showdown: ShowdownEntry[] | null } | null;
}

/** Ranks a list already sorted best first, giving equal keys the same rank. */
function ranked<T>(items: T[], key: (t: T) => string): { item: T; rank: number }[] {
  let rank = 0;
  let prev: string | null = null;
  return items.map((item, i) => {
    const k = key(item);
    if (k !== prev) rank = i + 1;
    prev = k;
    return { item, rank };
  });
}

function handsScore(s: PokerState, seat: SeatState): number {
  return seat.stack - s.options.startingChips * seat.rebuys;
}

export function rankSeats(s: PokerState): { seat: SeatState; rank: number; score: number }[] {
  const n = s.seats.length;
  const byHands = s.options.endCondition === 'hands' || s.endReason === 'safetyCap';
  if (byHands) {
    const sorted = [...s.seats].sort((a, b) => handsScore(s, b) - handsScore(s, a));
    return ranked(sorted, (x) => String(handsScore(s, x))).map(({ item, rank }) => ({
      seat: item,
      rank,
      score: handsScore(s, item),
    }));
  }
  // Survivors by chips, then elimination groups from the latest; inside a group, chips at that hand's start.
  const alive = s.seats.filter((x) => x.status !== 'eliminated').sort((a, b) => b.stack - a.stack);
  const groups = [...s.eliminationSeq]
    .reverse()
    .map((g) =>
      g.map((id) => s.seats.find((x) => x.id === id)!).sort((a, b) => b.stackAtHandStart - a.stackAtHandStart),
    );
  const keyed: { seat: SeatState; key: string }[] = [
    ...alive.map((seat) => ({ seat, key: `a:${seat.stack}` })),
    ...groups.flatMap((g, gi) => g.map((seat) => ({ seat, key: `e${gi}:${seat.stackAtHandStart}` }))),
  ];
  return ranked(keyed, (x) => x.key).map(({ item, rank }) => ({ seat: item.seat, rank, score: n - rank + 1 }));
}

export function result(s: PokerState): PokerResult | null {
  if (s.phase !== 'finished') return null;
  const names = new Map(s.players.map((p) => [p.id, p.name]));
  const rows = rankSeats(s);
  const ranking: PokerRankingEntry[] = rows.map(({ seat, rank, score }) => ({
    player: seat.id,
    playerId: seat.id,
    rank,
    score,
    finalChips: seat.stack,
    rebuys: seat.rebuys,
    eliminatedAtHand: seat.eliminatedAtHand,
  }));
  const winners = ranking.filter((r) => r.rank === 1).map((r) => r.player);
  const first = ranking[0];
  // Profit, not the stack: every buy-in (the first and each rebuy) comes off what is left.
  const net = first.finalChips - s.options.startingChips * (1 + first.rebuys);
  const signed = `${net >= 0 ? '+' : ''}${net.toLocaleString('en-US')}칩`;
  const lead =
    s.options.endCondition === 'hands' || s.endReason === 'safetyCap'
      ? `${s.handsPlayed}판 종료`
      : `${s.handsPlayed}판 만에 최후의 1인`;
  const summary = `${lead}. 1위 ${winners.map((w) => names.get(w) ?? w).join(', ')}(${signed})`;
  const best = s.stats.bestHand;
  return {
    ranking,
    winners,
    summary,
    seed: s.seed,
    stats: {
      handsPlayed: s.handsPlayed,
      biggestPot: s.stats.biggestPot,
      bestHand: best ? { playerId: best.playerId, handName: best.handName, handNo: best.handNo } : null,
    },
    lastHand:
      s.hand && s.hand.potResults
        ? { handNo: s.hand.handNo, pots: s.hand.potResults, showdown: s.hand.showdown }
        : null,
  };
}
