/** The words in the middle of the table: whose move it is, and who won what when a hand ends. */
import { chips, handPlayer, nameOf, type PokerView } from './model.ts';

/** One line about whose move it is (shown in the middle of the table). */
export function statusLine(v: PokerView): string {
  const h = v.hand;
  if (v.phase === 'finished') return '게임이 끝났어요';
  if (v.phase === 'rebuy') return '리바이를 기다리는 중…';
  if (!h) return '곧 시작해요';
  switch (h.phase) {
    case 'choice':
      return '모두 버릴 카드와 보여 줄 카드를 고르는 중';
    case 'draw':
      return '카드를 바꾸는 중';
    case 'declare':
      return '하이/로우 선언 중';
    case 'showdown':
      return '쇼다운';
    case 'handEnd':
      return `${h.handNo}번째 판 끝 · 다음 판을 기다리는 중`;
    case 'betting': {
      if (!h.toAct) return '베팅 중';
      if (h.toAct === v.viewer) {
        const me = handPlayer(v, v.viewer);
        const toCall = Math.max(0, h.currentBet - (me?.committedRound ?? 0));
        return toCall > 0 ? `내 차례 · 콜하려면 ${chips(toCall)}` : '내 차례예요';
      }
      return `${nameOf(v, h.toAct)} 차례`;
    }
  }
}

/** The hand-end banner: who won what, with the hand names the view reveals. */
export function handEndLines(v: PokerView): string[] {
  const h = v.hand;
  if (!h || h.phase !== 'handEnd' || !h.awards) return [];
  const won = new Map<string, number>();
  for (const a of h.awards) if (a.kind !== 'return') won.set(a.to, (won.get(a.to) ?? 0) + a.amount);
  return [...won].map(([id, amount]) => {
    const sd = h.showdown?.find((e) => e.id === id);
    const hand = sd ? ` · ${sd.handName}${sd.lowName ? ` / ${sd.lowName}` : ''}` : '';
    return `${nameOf(v, id)}${id === v.viewer ? '(나)' : ''} +${chips(amount)}${hand}`;
  });
}
