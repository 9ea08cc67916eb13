/**
 * Why a greyed control cannot be used, in Korean (issue 16 §3): a tap on a
 * disabled button says this in a toast instead of doing nothing.
 */
import type { ActionButton, BarState } from './actions.ts';
import { handPlayer, nameOf, type PokerView } from './model.ts';

const RAISES = new Set(['k.ddadang', 'k.quarter', 'k.half', 'k.full', 'raise', 'allIn']);

export function whyDisabled(v: PokerView, a: ActionButton, ui: BarState, busy: boolean): string | null {
  if (a.key === 'amount') return null;
  if (busy) return '앞의 동작을 보내는 중이에요. 잠시만 기다려 주세요';
  const h = v.hand;
  if (h?.phase === 'betting' && h.toAct && h.toAct !== v.viewer) return `지금은 ${nameOf(v, h.toAct)} 차례예요`;
  const me = v.viewer ? handPlayer(v, v.viewer) : null;
  const toCall = Math.max(0, (h?.currentBet ?? 0) - (me?.committedRound ?? 0));
  switch (a.key) {
    case 'minus':
      return '가장 적은 금액이에요';
    case 'plus':
      return '가장 많은 금액이에요 (칩 또는 한도)';
    case 'undo':
      return '되돌릴 선택이 없어요';
    case 'choose':
      return ui.choice.discardId === null ? '먼저 버릴 카드를 누르세요' : '보여 줄 카드를 누르세요';
    case 'draw': {
      const d = v.legalActions.find((x) => x.type === 'draw');
      const max = d && d.type === 'draw' ? d.max : 0;
      return `한 번에 ${max}장까지 바꿀 수 있어요`;
    }
    case 'k.check':
    case 'check':
      return toCall > 0
        ? `앞 사람이 베팅해서 체크할 수 없어요 (콜 ${toCall.toLocaleString('ko-KR')})`
        : '지금은 체크할 수 없어요';
    case 'k.call':
      return '콜할 베팅이 없어요. 체크하거나 베팅하세요';
    case 'k.ping':
      return '삥은 라운드의 첫 베팅으로만 할 수 있어요';
    case 'fold':
      return '지금은 폴드할 수 없어요';
  }
  if (RAISES.has(a.key))
    return toCall >= (me ? (v.seats.find((s) => s.id === me.id)?.stack ?? 0) : 0)
      ? '칩이 모자라 레이즈할 수 없어요'
      : '이번 라운드에는 더 레이즈할 수 없어요 (레이즈 한도)';
  return '지금은 할 수 없는 동작이에요';
}
