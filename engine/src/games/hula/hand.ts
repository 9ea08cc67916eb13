/** Korean rejection reasons (docs/games/hula.md §8.2) and picking cards out of a hand. */
import type { Card } from './types.ts';

export const REASONS = {
  notInRound: '이번 판에 참여하지 않는 플레이어예요',
  cannotDrawNow: '지금은 카드를 뽑을 수 없어요',
  alreadyDrew: '이미 카드를 뽑았어요',
  handFull: '손패가 8장이라 더 뽑을 수 없어요',
  stockEmpty: '덱에 카드가 없어요',
  discardEmpty: '버린 더미가 비어 있어요',
  drawFirst: '먼저 카드를 뽑아야 해요',
  notActing: '지금은 등록하거나 버릴 수 없어요',
  notInHand: '손에 없는 카드예요',
  duplicateCard: '같은 카드를 두 번 골랐어요',
  badMeld: '등록할 수 없는 조합이에요 (같은 숫자 3~4장, 같은 무늬 연속 3장 이상, 또는 7 한 장)',
  badMeldForm: '고른 조커 역할로는 이 카드들을 등록할 수 없어요',
  notRegistered: '한 번 이상 등록하거나 땡큐한 뒤에만 붙일 수 있어요',
  noMeld: '그런 등록 카드가 없어요',
  cannotLayOff: '그 자리에는 붙일 수 없어요',
  jokerDiscard: '조커는 버릴 수 없어요 (손패가 모두 조커일 때만 가능)',
  stopAfterDraw: '스톱은 카드를 뽑기 전에만 선언할 수 있어요',
  stopTooHigh: (limit: number, score: number) =>
    `스톱하려면 손패 점수가 ${limit}점 이하여야 해요 (지금 ${score}점, 7은 14점·조커는 20점으로 계산)`,
  specialRegistered: '등록한 뒤에는 특수 승리를 선언할 수 없어요',
  notSpecial: '대카·소카·7777 조건이 아니에요',
  specialNotNow: '특수 승리는 내 차례에만 선언할 수 있어요',
  noThankYou: '지금은 땡큐할 수 없어요',
  ownDiscard: '내가 버린 카드는 땡큐할 수 없어요',
  notAskedYet: '아직 내 땡큐 차례가 아니에요',
  jokerThankYou: '땡큐에는 조커를 쓸 수 없어요',
  badThankYou: '버린 카드와 손패 2장 이상으로 새 등록(같은 숫자 또는 같은 무늬 연속)을 만들어야 해요',
  alreadyClaimed: '이미 땡큐를 신청했어요',
  alreadyPassed: '이미 패스했어요',
  late: '시간이 지났어요',
  notRoundEnd: '지금은 다음 판 준비를 할 때가 아니에요',
  alreadyReady: '이미 준비했어요',
  alreadyLeaving: '이미 나가기를 예약했어요',
  notLeaving: '나가기 예약이 없어요',
  hasLeft: '이미 나간 플레이어예요',
} as const;

/** The hand cards named by `ids` and the rest of the hand, or a reason. */
export function takeCards(hand: readonly Card[], ids: readonly string[]): { cards: Card[]; rest: Card[] } | string {
  const cards: Card[] = [];
  for (let i = 0; i < ids.length; i++) {
    for (let j = 0; j < i; j++) if (ids[j] === ids[i]) return REASONS.duplicateCard;
    const c = hand.find((h) => h.id === ids[i]);
    if (!c) return REASONS.notInHand;
    cards.push(c);
  }
  const rest = hand.filter((h) => !cards.includes(h));
  return { cards, rest };
}
