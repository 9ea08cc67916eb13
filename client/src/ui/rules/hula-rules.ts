/**
 * 훌라 rules sheet, in this app's words from docs/games/hula.md: a turn,
 * melds and 붙이기, 땡큐 in both modes, 스톱 limits, special wins, hand
 * points, 박 and how a round is settled.
 */
import { el } from '../dom.ts';

type Section = [title: string, ...lines: string[]];

const COMMON: Section[] = [
  ['목표', '손에 든 7장을 묶음으로 내려놓고(등록) 남의 묶음에 붙여서 가장 먼저 다 털면 "훌라"로 이겨요.'],
  [
    '내 차례',
    '① 덱이나 버린 더미 맨 위에서 1장을 가져와요. ② 원하면 등록하거나 붙여요. ③ 1장을 버리면 차례가 끝나요.',
    '등록할 수 있는 묶음: 7 한 장, 같은 숫자 3~4장, 같은 무늬로 이어지는 3장 이상(K 다음 A, A 다음 2로 이어져도 돼요).',
    '붙이기는 이번 판에 한 번이라도 등록(또는 땡큐)한 뒤에만 할 수 있어요. 내 묶음이든 남의 묶음이든 돼요.',
  ],
  [
    '땡큐',
    '누가 버린 카드와 내 손의 카드 2장 이상으로 새 묶음을 만들 수 있으면 "땡큐"로 가져와 바로 등록해요. 뽑지 않고 등록·붙이기를 이어 하고 1장을 버려요. 다음 차례는 땡큐한 사람 다음 사람이에요.',
  ],
  [
    '스톱',
    '뽑기 전에, 손패 점수가 인원별 한도 이하이면 "스톱"으로 판을 끝낼 수 있어요: 2명 15점, 3명 18점, 4명 21점, 5명은 제한 없음. 이때 7은 14점으로 세요(버튼의 "스톱 21점"은 지금 인원의 한도예요).',
    '내 점수가 모두보다 낮으면 이겨요. 누군가 나보다 낮거나 같으면 실패해서, 모든 패자가 낼 금액을 합친 것의 1.5배를 나 혼자 내요.',
  ],
  [
    '특수 승리 (등록 전에만)',
    '대카: 손패 합이 아주 높을 때(괴물 83점 이상, 조커 85점 이상) · 소카: 아주 낮을 때(괴물 15점 이하, 조커 13점 이하) · 7777: 7을 4장. 선언하면 바로 이기고 4배를 받아요.',
  ],
  [
    '손패 점수',
    'A는 1점, 2~10은 숫자대로, J·Q·K는 11·12·13점, 조커는 20점. 7은 스톱으로 끝난 판에서만 14점이에요.',
    '판이 끝나면 승자가 1등이고, 나머지는 손패 점수가 낮은 순서로 순위가 매겨져요(같으면 장수가 적은 쪽). 조커를 들고 있으면 점수와 상관없이 꼴등이에요.',
  ],
  [
    '정산',
    '진 사람은 순위에 따라 기본 단위를 내요: 2명이면 2등이 2단위, 3명이면 1·3단위, 4명이면 1·2·3단위, 5명이면 1·2·3·4단위.',
    '여기에 해당하는 박을 모두 곱해요. 승자는 모은 금액에서 방 수수료를 뺀 만큼 받아요. 점수는 방 안에서만 쓰여요.',
  ],
  [
    '박 (배수)',
    '훌라로 졌을 때 ×2 · 특수 승리로 졌을 때 ×4 · 손에 남은 7 한 장마다 ×2(7박) · 등록을 못 했을 때 ×2(미등록박) · 등록도 못 하고 7장 이상 들고 있으면 한 번 더 ×2(방삐리) · 내가 버린 카드로 땡큐 훌라가 나면 ×2(땡큐박) · 조커를 들고 있으면 ×3(조커박).',
    '배판: 같은 사람이 계속 이기면 그 사람이 이긴 판의 정산에 배수가 붙어요(최대 ×5).',
  ],
  ['여러 판', '방에서 정한 판 수를 다 하면 게임이 끝나고, 방 점수 합계가 높은 순으로 최종 순위가 정해져요.'],
];

const MODES: Record<string, { name: string; lines: string[] }> = {
  monster: {
    name: '괴물 훌라',
    lines: [
      '조커 없이 52장으로 해요. 뽑기 15초, 등록·붙이기 15초.',
      '땡큐는 버린 사람 다음 사람부터 한 명씩 차례로 물어봐요(할 수 없어도 물어봐서 누가 가능한지 드러나지 않아요). 5초 안에 땡큐나 넘기기를 골라요.',
    ],
  },
  joker: {
    name: '조커 훌라',
    lines: [
      '52장에 조커 2장을 더해요. 조커는 묶음에서 아무 카드 역할을 하지만 버릴 수 없고 땡큐에도 못 써요. 들고 끝나면 조커박이에요.',
      '땡큐는 할 수 있는 사람에게만 버튼이 켜지고 먼저 누른 사람이 가져가요(0.1초 안에 여럿이 누르면 버린 사람 다음 자리에 가까운 사람). 타이머가 더 빨라요(뽑기 7초).',
    ],
  },
};

function section([title, ...lines]: Section): HTMLElement[] {
  return [el('h3', {}, [title]), ...lines.map((l) => el('p', {}, [l]))];
}

/** The 훌라 rules: the table's mode first when given, then the rest that both modes share. */
export function hulaRulesBody(mode?: string): HTMLElement {
  const body = el('div', { class: 'rules-game', 'data-testid': 'rules-body-hula' });
  const order = Object.keys(MODES).sort((a, b) => Number(b === mode) - Number(a === mode));
  for (const id of order) {
    const part = el('details', { class: 'rules-mode', 'data-mode': id });
    if (id === order[0]) part.open = true;
    part.append(el('summary', {}, [MODES[id].name]), ...MODES[id].lines.map((l) => el('p', {}, [l])));
    body.append(part);
  }
  for (const s of COMMON) body.append(...section(s));
  return body;
}
