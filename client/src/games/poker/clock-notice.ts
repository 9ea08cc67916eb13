/**
 * When the clock decides for me (spec §8.5), the table says what it did:
 * a betting turn checks when free and otherwise dies/folds, the 7포커 choice
 * throws the lowest card away and opens the next, a draw keeps every card,
 * a declaration defaults to 하이, an unanswered rebuy declines. Read from
 * the view before and after the frame that carries the engine's `timeout`
 * event, so nothing here guesses at hidden state.
 */
import type { GameEvent } from '@joke/engine/client';
import { handPlayer, type PokerView } from './model.ts';

const LEAD = '시간이 다 되어';

export function clockDecided(prev: PokerView | null, next: PokerView, events: readonly GameEvent[]): string | null {
  if (!prev || prev.viewer === null || !events.some((e) => e.type === 'timeout')) return null;
  const me = prev.viewer;
  const asked = new Set(prev.legalActions.map((a) => a.type));
  if (asked.has('rebuy')) return `${LEAD} 리바이하지 않았어요`;
  const h = prev.hand;
  if (!h || asked.size === 0) return null;
  switch (h.phase) {
    case 'betting': {
      if (h.toAct !== me) return null;
      const folded = handPlayer(next, me)?.folded ?? next.hand?.handNo !== h.handNo;
      if (!folded) return `${LEAD} 자동으로 체크했어요`;
      return `${LEAD} 자동으로 ${prev.betting === 'korean' ? '다이' : '폴드'}했어요`;
    }
    case 'choice':
      return asked.has('choose') ? `${LEAD} 가장 낮은 카드를 버리고 다음 카드를 공개했어요` : null;
    case 'draw':
      return asked.has('draw') ? `${LEAD} 카드를 바꾸지 않고 넘겼어요` : null;
    case 'declare':
      return asked.has('declare') ? `${LEAD} 하이로 선언했어요` : null;
    default:
      return null;
  }
}
