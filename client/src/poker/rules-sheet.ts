/** A one-page 포커 summary for the table's 규칙 button (§9 초보자 도움). */
import { el } from '../ui/dom.ts';
import { sheet } from '../ui/sheets.ts';
import { MODE_NAME, type PokerMode } from './model.ts';

const MODE_TEXT: Record<PokerMode, string> = {
  holdem: '내 카드 2장과 바닥 공용 카드 5장 중 가장 좋은 5장으로 겨뤄요.',
  omaha: '내 카드 4장 중 정확히 2장과 공용 카드 3장을 써서 5장을 만들어요.',
  sevenPoker: '7장 중 가장 좋은 5장으로 겨뤄요. 처음 4장에서 1장은 버리고 1장은 모두에게 보여 줘요.',
  sevenHiLo: '7포커처럼 하고, 마지막에 하이·로우·스윙 중 하나를 선언해 판돈을 나눠요.',
  badugi: '무늬도 숫자도 겹치지 않는 낮은 4장이 좋아요. 교환을 세 번 해요.',
  fiveDraw: '5장을 받고 한 번 바꾼 뒤 가장 좋은 패로 겨뤄요.',
  indian: '내 이마 카드는 나만 못 봐요. 다른 사람 카드를 보고 베팅해서 높은 숫자가 이겨요.',
};

export function openPokerRules(mode?: PokerMode): void {
  const body = el('div', { class: 'sheet-body rules' });
  if (mode) body.append(el('h3', {}, [MODE_NAME[mode]]), el('p', {}, [MODE_TEXT[mode]]));
  body.append(
    el('h3', {}, ['족보 (높은 순)']),
    el('p', {}, ['스트레이트 플러시 · 포카드 · 풀하우스 · 플러시 · 스트레이트 · 트리플 · 투페어 · 원페어 · 하이카드']),
    el('h3', {}, ['한국식 베팅 용어']),
    el('p', {}, [
      '삥: 기본 단위만큼 처음 거는 것 · 콜: 앞 사람만큼 맞추기 · 따당: 앞 사람 베팅의 두 배 · 쿼터/하프/풀: 판돈의 1/4·1/2·전부만큼 올리기 · 다이: 포기',
    ]),
    el('h3', {}, ['노리밋/팟리밋']),
    el('p', {}, ['폴드 · 체크 · 콜 · 벳/레이즈(금액 선택) · 올인. 팟리밋은 판돈만큼까지 올릴 수 있어요.']),
  );
  sheet('포커 규칙', body, 'rules');
}
