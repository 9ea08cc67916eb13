/** The end of the game: standings by room points (docs/games/hula.md §8.8). */
import type { GameResult, PlayerId, RankingEntry } from '../../core/types.ts';
import type { HulaState, RoundBrief } from './types.ts';

export interface HulaRanking extends RankingEntry {
  player: PlayerId;
  rank: number;
  /** Room points at the end. */
  points: number;
  /** Rounds won. */
  wins: number;
  left: boolean;
  name: string;
}

export interface HulaResult extends GameResult {
  ranking: HulaRanking[];
  /** One line per round played. */
  rounds: RoundBrief[];
  feeTotal: number;
}

const WIN_NAME = { hula: '훌라', stop: '스톱', exhaustion: '덱 소진', special: '특수 승리' } as const;

export function result(s: HulaState): HulaResult | null {
  if (s.phase.kind !== 'finished') return null;
  const order = s.seats.map((x, i) => ({ x, i })).sort((a, b) => b.x.points - a.x.points || a.i - b.i);
  const ranking: HulaRanking[] = order.map(({ x, i }) => ({
    player: x.id,
    rank: 1 + order.filter((o) => o.x.points > x.points).length,
    points: x.points,
    wins: x.wins,
    left: x.status === 'left',
    name: s.players[i].name,
  }));
  const winners = ranking.filter((r) => r.rank === 1).map((r) => r.player);
  const top = ranking[0];
  const played = s.history.length;
  const last = s.history[played - 1];
  const lastLine = last
    ? ` 마지막 판은 ${s.players[s.seats.findIndex((x) => x.id === last.winner)].name} 님의 ${WIN_NAME[last.winType]}.`
    : '';
  return {
    ranking,
    winners,
    summary: `${played}판 종료. 1위 ${winners.map((w) => s.players[s.seats.findIndex((x) => x.id === w)].name).join(', ')} (${top.points >= 0 ? '+' : ''}${top.points.toLocaleString('ko-KR')}점).${lastLine}`,
    seed: s.seed,
    rounds: s.history,
    feeTotal: s.feeTotal,
  };
}
