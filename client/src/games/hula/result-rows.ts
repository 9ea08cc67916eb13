/**
 * Rows of the 훌라 result screens from the view (pure): the settlement of the
 * round just played — rank, hand points, 박 with factors, points moved — and,
 * when the game is over, the final ranking by room points.
 */
import type { HulaResult, BakCode, WinType } from '@joke/engine/client';
import { cardName, nameOf, points, type HulaView } from './model.ts';

export const BAK_NAME: Record<BakCode, string> = {
  hulaWin: '훌라',
  specialWin: '특수',
  seven: '7박',
  unregistered: '미등록박',
  fullHand: '방삐리',
  thankYou: '땡큐박',
  joker: '조커박',
  bonus: '배판',
};

const WIN_NAME: Record<WinType, string> = { hula: '훌라', stop: '스톱', exhaustion: '덱 소진', special: '특수 승리' };

export interface HulaResultRow {
  rank: number;
  name: string;
  me: boolean;
  hand: string;
  bak: string;
  delta: string;
  total: string;
}

export interface HulaResultData {
  title: string;
  summary: string;
  rows: HulaResultRow[];
  final: boolean;
}

export function resultRows(view: HulaView, result: HulaResult | null): HulaResultData | null {
  const r = view.lastRound;
  const final = view.finished;
  if (!r && !final) return null;
  const lines = r ? [...r.lines].sort((a, b) => a.rank - b.rank) : [];
  const byPlayer = new Map(lines.map((l) => [l.player, l]));
  const seatPoints = new Map(view.seats.map((s) => [s.id, s.points]));
  const ranking = final ? (result?.ranking ?? []) : lines.map((l) => ({ player: l.player, rank: l.rank }));
  const order = ranking.length ? ranking : lines.map((l) => ({ player: l.player, rank: l.rank }));
  const rows = order.map(({ player, rank }) => {
    const l = byPlayer.get(player);
    return {
      rank,
      name: nameOf(view, player),
      me: player === view.viewer,
      hand: l ? (l.hand.length ? `${l.score}점 · ${l.hand.map(cardName).join(' ')}` : '0장') : '-',
      bak: l ? l.multipliers.map((m) => `${BAK_NAME[m.code]}×${m.factor}`).join(' ') || '-' : '-',
      delta: l ? points(l.delta, true) : '-',
      total: points(seatPoints.get(player) ?? 0),
    };
  });
  let summary = '';
  if (r) {
    const how = r.stopFailed ? `${nameOf(view, r.stopper)} 님 스톱 실패` : WIN_NAME[r.winType];
    summary = `${nameOf(view, r.winner)} 님 승리 (${how}${r.byThankYou ? ', 땡큐' : ''})`;
    if (r.fee > 0) summary += ` · 수수료 ${points(r.fee)}`;
  }
  if (final && result?.summary) summary = result.summary;
  return {
    title: final ? '게임 결과' : `${view.round}판 결과 (${view.round}/${view.roundsTotal})`,
    summary,
    rows,
    final,
  };
}
