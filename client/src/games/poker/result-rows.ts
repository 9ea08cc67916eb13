/**
 * The 포커 result screen's rows (issue 15 item 5): the profit and the final
 * chips as two columns, both with thousands separators, and the rebuys in
 * the state column, since the ranking counts chips minus rebought chips and
 * a player with fewer chips may rightly rank above one who rebought.
 */
import type { PokerResult } from '@joke/engine/client';
import type { ResultData } from '../../table-kit/overlays.ts';
import { nameOf, type PokerView } from './model.ts';

/** "+1,018" / "-1,000" / "0". */
export function signedChips(n: number): string {
  return `${n > 0 ? '+' : ''}${n.toLocaleString('ko-KR')}`;
}

/** Chips won or lost over the game: what is left minus every buy-in (the first one and each rebuy). */
export function profitOf(finalChips: number, rebuys: number, startingChips: number): number {
  return finalChips - startingChips * (1 + rebuys);
}

function stateOf(rebuys: number, eliminatedAtHand: number | null): string {
  const out = eliminatedAtHand !== null;
  if (rebuys > 0) return `리바이 ${rebuys}회${out ? ' · 탈락' : ''}`;
  return out ? `${eliminatedAtHand}판 탈락` : '완주';
}

export function pokerResult(v: PokerView, result: PokerResult | null): ResultData {
  const ranking = result?.ranking ?? [];
  const start = v.options.startingChips;
  return {
    summary: result?.summary ?? '게임이 끝났어요',
    rows: ranking.map((e) => {
      const profit = profitOf(e.finalChips, e.rebuys, start);
      return {
        rank: e.rank,
        name: nameOf(v, e.player),
        state: stateOf(e.rebuys, e.eliminatedAtHand),
        cardsLeft: profit,
        countText: signedChips(profit),
        points: e.finalChips,
        me: e.player === v.viewer,
      };
    }),
    seedCommit: v.seedCommit,
    seed: typeof result?.seed === 'string' ? result.seed : '',
    verified: null,
    countLabel: '수익',
    scoreLabel: '최종 칩',
  };
}
