/** The words in the middle of the table: whose move it is, and who won what when a hand ends. */
import { chips, handPlayer, nameOf, type PokerView } from './model.ts';
import { awardLines, DRAW_NAMES, drawIndex } from './story.ts';

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
      return `${DRAW_NAMES[drawIndex(v) ?? 0]} · 카드를 바꾸는 중`;
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

/** The hand-end banner: who won what (each award labelled), biggest win first, with ranked hand names. */
export function handEndLines(v: PokerView): string[] {
  return awardLines(v);
}
