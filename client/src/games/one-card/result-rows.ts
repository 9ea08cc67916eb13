/**
 * The result screen's content from the final frame: ranking rows (classic
 * shows the card points left in hand, colour cards the points won this
 * round), the summary, and the seed and commitment the panel's provably-fair
 * check compares (table-kit/seed-check.ts).
 */
import type { OneCardResult } from '@joke/engine/client';
import type { OneCardView, PlayerStatus } from '../../cards/model.ts';
import { nameOf } from './controls.ts';
import type { ResultData } from '../../table-kit/overlays.ts';

const STATE: Record<PlayerStatus, string> = { out: '완료', playing: '남음', bankrupt: '파산' };

export function resultData(view: OneCardView, result: OneCardResult | null): ResultData {
  const color = view.mode === 'uno-style';
  const ranking = result?.ranking ?? [];
  return {
    summary: result?.summary ?? '게임이 끝났어요',
    rows: ranking.map((e) => ({
      rank: e.rank,
      name: nameOf(view, e.player),
      state: STATE[e.status] ?? e.status,
      cardsLeft: e.cardsLeft,
      points: color ? (e.score ?? 0) : e.points,
      me: e.player === view.viewer,
    })),
    seedCommit: view.seedCommit,
    seed: typeof result?.seed === 'string' ? result.seed : '',
    verified: null,
    scoreLabel: color ? '이번 판 점수' : '카드 점수',
  };
}
