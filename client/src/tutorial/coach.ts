/**
 * The tutorial's one-line Korean explanation of the situation in front of
 * the learner: what to do and why, read from the view and the legal moves
 * (never from a script of steps), so it stays right whatever the bots do.
 */
import type { OneCardView, PokerView, HulaView } from '@joke/engine/client';
import type { TutorialGame } from './lessons.ts';
import { rankName, type Move } from './moves.ts';

const SUIT = { S: '♠', H: '♥', D: '♦', C: '♣' } as const;
const chips = (n: number) => n.toLocaleString('ko-KR');

function nameOf(v: { players: { id: string; name: string }[] }, id: string | null | undefined): string {
  return v.players.find((p) => p.id === id)?.name ?? '상대';
}

export function coachLine(game: TutorialGame, view: unknown, moves: Move[]): string {
  if (game === 'one-card') return oneCardLine(view as OneCardView, moves);
  if (game === 'poker') return pokerLine(view as PokerView, moves);
  return hulaLine(view as HulaView, moves);
}

function oneCardLine(v: OneCardView, moves: Move[]): string {
  if (v.finished) return v.finishOrder[0] === v.viewer ? '카드를 다 냈어요. 이겼어요!' : '상대가 먼저 카드를 다 냈어요';
  const has = (k: string) => moves.some((m) => m.key === k);
  const w = v.oneCardWindow;
  if (w && !w.declared && w.player === v.viewer && has('oneCard'))
    return '한 장 남았어요! 원카드 버튼을 눌러 외치세요. 안 외치면 상대가 잡아서 벌칙 카드를 받아요';
  if (w && !w.declared && has('oneCard'))
    return '상대가 한 장 남았는데 원카드를 안 외쳤어요. 원카드 잡기를 누르면 상대가 벌칙 카드를 받아요';
  if (v.current !== v.viewer) {
    if (w && w.declared && w.player === v.viewer) return '원카드를 외쳤어요. 다음 차례에 마지막 카드를 내면 이겨요';
    return `${nameOf(v, v.current)} 차례예요. 무엇을 내는지 지켜보세요`;
  }
  const cards = moves.filter((m) => v.legalCardIds.includes(m.key));
  if (v.pendingAttack > 0) {
    if (cards.length > 0)
      return `상대가 공격 카드를 냈어요. 같은 공격 카드로 막거나 카드를 받아야 해요 (빛나는 ${cards.map((c) => c.label).join(', ')}로 막을 수 있어요)`;
    return `상대가 공격 카드를 냈어요. 막을 카드가 없으니 ${v.pendingAttack}장 먹기를 눌러 받아요`;
  }
  if (has('pass')) return '방금 뽑은 카드를 낼 수 있으면 내고, 아니면 넘기기를 눌러요';
  const top = v.top.kind === 'std' ? `${SUIT[v.top.suit]}${rankName(v.top.rank)}` : '맨 위 카드';
  if (cards.length === 0) return `${top}와 무늬도 숫자도 같은 카드가 없어요. 1장 먹기를 눌러 한 장 가져와요`;
  if (v.hand?.length === 2) return '이 카드를 내면 한 장 남아요. "원카드 외치며 내기"가 켜진 채로 내면 함께 외쳐요';
  if (v.declaredSuit) return `무늬가 ${SUIT[v.declaredSuit]}로 바뀌었어요. 그 무늬 카드나 7을 낼 수 있어요`;
  return `${top}와 무늬나 숫자가 같은 카드를 낼 수 있어요. 빛나는 카드(${cards.map((c) => c.label).join(', ')})를 눌러 내세요`;
}

function pokerLine(v: PokerView, moves: Move[]): string {
  const h = v.hand;
  if (!h) return '곧 카드를 나눠 줘요';
  if (h.phase === 'handEnd') {
    const sd = h.showdown ?? [];
    const won = (h.awards ?? []).some((a) => a.to === v.viewer);
    if (sd.length === 0) return won ? '상대가 폴드해서 팟을 가져왔어요' : '폴드해서 이번 판은 끝났어요';
    const names = sd.map((e) => `${nameOf(v, e.id)}: ${e.handName}`).join(', ');
    return `쇼다운! ${names} — 높은 족보가 팟을 가져가요. ${won ? '내가 이겼어요!' : '이번엔 졌어요'}`;
  }
  if (moves.length === 0 || h.toAct !== v.viewer) return `${nameOf(v, h.toAct)} 차례예요. 상대의 베팅을 지켜보세요`;
  const me = h.players.find((p) => p.id === v.viewer);
  const toCall = Math.max(0, h.currentBet - (me?.committedRound ?? 0));
  const now = v.myHand ? ` 지금 내 패: ${v.myHand.name}.` : '';
  if (h.street === 0 && toCall > 0)
    return `블라인드(미리 내는 칩)로 ${chips(h.currentBet)}이 걸렸어요. 콜로 따라가거나 레이즈로 더 걸어요. 폴드하면 포기예요.${now}`;
  if (toCall > 0)
    return `상대가 ${chips(toCall)} 더 걸었어요. 콜로 따라가거나 레이즈로 올리고, 자신 없으면 폴드해요.${now}`;
  return `아무도 더 걸지 않았어요. 체크로 넘기거나 베팅으로 칩을 걸 수 있어요.${now}`;
}

const seatName = (v: HulaView, id: string) => v.seats.find((x) => x.id === id)?.name ?? '상대';

function hulaLine(v: HulaView, moves: Move[]): string {
  const ph = v.phase;
  const has = (k: string) => moves.some((m) => m.key === k);
  if (ph.kind === 'roundEnd' || ph.kind === 'finished') {
    const w = v.lastRound;
    if (!w) return '판이 끝났어요';
    const who = w.winner === v.viewer ? '내가' : `${seatName(v, w.winner)}님이`;
    const how =
      w.winType === 'hula'
        ? '카드를 모두 내려놓아(훌라)'
        : w.winType === 'stop'
          ? w.stopFailed
            ? '스톱이 실패해서'
            : '스톱해서'
          : w.winType === 'special'
            ? '특수 패로'
            : '덱이 떨어져 점수가 가장 낮아서';
    return `${who} ${how} 이겼어요. 진 사람은 손에 남은 카드 점수만큼 내요`;
  }
  if (has('thankYou')) return '상대가 버린 카드로 내 묶음이 만들어져요! 땡큐를 눌러 가져오면 바로 등록돼요';
  if (has('pass')) return '버린 카드가 필요 없으면 패스를 눌러요';
  if (moves.length === 0) return `${seatName(v, v.current ?? '')} 차례예요. 무엇을 버리는지 지켜보세요`;
  if (ph.kind === 'draw') {
    const stop = moves.find((m) => m.key === 'stop');
    if (stop && v.me && v.me.stopLimit !== null)
      return `손 점수가 ${v.me.stopScore}점으로 ${v.me.stopLimit}점 이하예요. 스톱하면 지금 점수로 판을 끝내요. 아니면 카드를 뽑아요`;
    return has('take')
      ? '차례의 시작: 더미에서 한 장 뽑거나, 버려진 카드가 묶음에 쓰이면 가져와요'
      : '차례의 시작: 더미를 눌러 한 장 뽑아요';
  }
  const meld = moves.find((m) => m.key === 'meld');
  if (meld)
    return `같은 숫자 3장, 같은 무늬 연속 3장, 7 한 장은 등록할 수 있어요. 카드를 골라 등록하세요 (${meld.label.slice(3)})`;
  const lay = moves.find((m) => m.key === 'layOff');
  if (lay) return `등록된 묶음에 이어지는 카드는 붙일 수 있어요: 카드를 골라 붙이기 (${lay.label.slice(4)})`;
  return '이번 차례의 마지막: 필요 없는 카드 한 장을 골라 버려요. 높은 카드부터 버리면 점수가 낮아져요';
}
