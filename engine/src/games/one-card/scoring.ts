/**
 * §6 rankings and points, §8.6 result. The seed is revealed here and only here.
 */
import type { GameResult, PlayerId, RankingEntry } from '../../core/index.ts';
import { handPoints } from './cards.ts';
import type { OneCardState, PlayerStatus } from './types.ts';

export interface OneCardRanking extends RankingEntry {
  player: PlayerId;
  rank: number;
  status: PlayerStatus;
  cardsLeft: number;
  /** Points of the cards still in hand (classic table or uno-style table, §6). */
  points: number;
  /** uno-style: points won this round (the winner's sum of the others' hands). */
  score?: number;
  /** uno-style: cumulative score after this round. */
  totalScore?: number;
}

export interface OneCardResult extends GameResult {
  ranking: OneCardRanking[];
  mode: OneCardState['mode'];
  /** uno-style with carried scores: cumulative scores after this round. */
  scores?: Record<PlayerId, number>;
  /** uno-style: the match target (null = none). */
  targetScore?: number | null;
  /** uno-style: who reached the target this round, if anyone. */
  matchWinner?: PlayerId | null;
}

/**
 * Ranking order (§6): players out of cards by the order they went out; then
 * those still playing by fewest cards, then lowest points (equal = tied);
 * then the bankrupt, the later bankruptcy first.
 */
export function rankingOrder(s: OneCardState): OneCardRanking[] {
  const entry = (p: PlayerId): OneCardRanking => ({
    player: p,
    rank: 0,
    status: s.status[p],
    cardsLeft: s.hands[p].length,
    points: handPoints(s.hands[p]),
  });
  const out: OneCardRanking[] = [];
  let rank = 0;
  for (const p of s.finishOrder) out.push({ ...entry(p), rank: ++rank });
  const playing = s.seats
    .filter((p) => s.status[p] === 'playing')
    .map(entry)
    .sort((a, b) => a.cardsLeft - b.cardsLeft || a.points - b.points);
  let prev: OneCardRanking | null = null;
  for (let i = 0; i < playing.length; i++) {
    const e = playing[i];
    e.rank = prev && prev.cardsLeft === e.cardsLeft && prev.points === e.points ? prev.rank : rank + 1 + i;
    prev = e;
    out.push(e);
  }
  rank += playing.length;
  for (let i = s.bankruptOrder.length - 1; i >= 0; i--) out.push({ ...entry(s.bankruptOrder[i]), rank: ++rank });
  return out;
}

/** uno-style: the winner scores the points left in everyone else's hand. */
export function roundPoints(s: OneCardState, winner: PlayerId): number {
  let sum = 0;
  for (const p of s.seats) if (p !== winner) sum += handPoints(s.hands[p]);
  return sum;
}

export function result(s: OneCardState): OneCardResult | null {
  if (s.phase.kind !== 'finished') return null;
  const ranking = rankingOrder(s);
  const winners = ranking.filter((e) => e.rank === 1).map((e) => e.player);
  const name = (p: PlayerId) => s.players.find((x) => x.id === p)?.name ?? p;
  const names = (ps: PlayerId[]) => ps.map((p) => `${name(p)} 님`).join(', ');
  const w = ranking[0];
  let summary: string;
  if (w && w.status === 'out') summary = `${name(w.player)} 님이 가장 먼저 카드를 모두 냈어요!`;
  else if (winners.length > 0) summary = `다른 사람들이 모두 파산해서 ${names(winners)}이 이겼어요!`;
  else summary = '모두 파산해서 승자가 없어요.';
  if (s.options.endCondition === 'last-standing' && ranking.length > 1) {
    const lastPlaying = ranking.filter((e) => e.status === 'playing');
    if (lastPlaying.length === 1 && w?.status === 'out') summary += ` 꼴찌는 ${name(lastPlaying[0].player)} 님이에요.`;
  }
  if (s.bankruptOrder.length > 0) summary += ` 파산: ${names(s.bankruptOrder)}.`;

  const extra: Pick<OneCardResult, 'scores' | 'targetScore' | 'matchWinner'> = {};
  if (s.scores && w) {
    const gained = roundPoints(s, w.player);
    for (const e of ranking) {
      e.score = e.player === w.player ? gained : 0;
      e.totalScore = s.scores[e.player] ?? 0;
    }
    const target = s.options.unoTargetScore;
    const matchWinner = target !== null && (s.scores[w.player] ?? 0) >= target ? w.player : null;
    summary += ` 이번 판 ${gained}점을 얻었어요.`;
    if (target !== null)
      summary += matchWinner
        ? ` 누적 ${s.scores[w.player]}점으로 ${name(w.player)} 님이 최종 우승이에요!`
        : ` (누적 ${s.scores[w.player]}점 / 목표 ${target}점)`;
    extra.scores = { ...s.scores };
    extra.targetScore = target;
    extra.matchWinner = matchWinner;
  }
  return { ranking, winners, summary, seed: s.seed, mode: s.mode, ...extra };
}
