/**
 * 포커 rules sheet, written for this app from the poker spec (clarifications
 * win): how each mode runs, which 족보 it uses, and the betting words the
 * buttons and the hand log use. Amounts are described, never computed here.
 * Each mode's 족보 comes with picture examples (§9 족보표 그림 예시): one real
 * hand per category, taken from games/poker/rank-examples.ts and drawn small.
 */
import { artCard } from '../../games/poker/model.ts';
import { rankExamples, type ExampleTable } from '../../games/poker/rank-examples.ts';
import { el } from '../dom.ts';
import { pictureRows } from './rule-cards.ts';

type Section = [title: string, ...lines: string[]];

const MODES: Record<string, { name: string; flow: string[]; ranking: 'world' | 'korean' | 'badugi' | 'indian' }> = {
  holdem: {
    name: '텍사스 홀덤',
    flow: [
      '각자 비공개 카드 2장을 받고, 가운데에 공용 카드가 3장(플랍) → 1장(턴) → 1장(리버) 순서로 깔려요. 카드가 깔릴 때마다 베팅해요.',
      '내 카드 2장과 공용 카드 5장, 7장 가운데 가장 좋은 5장으로 겨뤄요. 내 카드를 하나도 안 써도 돼요.',
    ],
    ranking: 'world',
  },
  omaha: {
    name: '오마하',
    flow: [
      '홀덤과 같은 순서지만 내 카드를 4장 받아요.',
      '꼭 내 카드에서 딱 2장, 공용 카드에서 딱 3장을 골라 5장을 만들어야 해요. 내 카드 4장이 모두 하트여도 공용 카드 하트가 3장이 아니면 플러시가 아니에요.',
    ],
    ranking: 'world',
  },
  sevenPoker: {
    name: '7포커',
    flow: [
      '처음에 4장을 받아 1장은 몰래 버리고 1장은 모두에게 보여 줄 카드로 골라요.',
      '그다음 보이는 카드 3장(4구·5구·6구)과 마지막 숨은 카드 1장(7구)을 한 장씩 더 받으며 매번 베팅해요. 4구부터 베팅해요.',
      '보이는 카드로 가장 높은 패를 가진 사람(보스)이 그 라운드에서 먼저 말해요.',
      '7장 중 가장 좋은 5장으로 겨뤄요. 숫자가 같으면 무늬로 가려서 비기는 일이 없어요.',
    ],
    ranking: 'korean',
  },
  sevenHiLo: {
    name: '7포커 하이로우',
    flow: [
      '7포커와 똑같이 진행한 뒤, 마지막 베팅이 끝나면 남은 사람이 동시에 하이·로우·스윙 중 하나를 선언해요.',
      '하이는 가장 높은 패, 로우는 가장 낮은 패가 이겨요. 판돈은 하이 승자와 로우 승자가 반씩 나눠요.',
      '스윙은 하이와 로우 양쪽에서 모두 이겨야 판돈 전부를 가져가요. 한쪽이라도 지면 아무것도 못 받아요.',
      '로우: A는 1로 세고, 숫자가 다른 5장을 골라 가장 높은 카드부터 비교해 낮은 쪽이 이겨요. 그 5장이 스트레이트나 플러시면 로우로 못 써요(최고는 A-2-3-4-6).',
    ],
    ranking: 'korean',
  },
  badugi: {
    name: '바둑이',
    flow: [
      '4장을 받고 베팅한 뒤 아침·점심·저녁 세 번 카드를 바꿔요(0장이면 패스, 4장 모두면 박스). 바꿀 때마다 다시 베팅해요.',
      '바꾼 장수는 모두에게 보여요. 마지막 베팅 뒤 낮은 바둑이 패가 이겨요.',
    ],
    ranking: 'badugi',
  },
  fiveDraw: {
    name: '5카드 드로우',
    flow: [
      '5장을 받고 베팅한 뒤, 한 번 원하는 만큼 카드를 바꾸고 다시 베팅해요.',
      '교환 제한을 켠 방에서는 3장까지(A를 남기면 4장까지) 바꿀 수 있어요.',
    ],
    ranking: 'world',
  },
  indian: {
    name: '인디언 포커',
    flow: [
      '카드 1장을 이마에 붙여요. 내 카드는 나만 못 보고, 다른 사람 카드는 다 보여요.',
      '남의 카드와 상대의 베팅을 보고 내 카드가 높을지 짐작해 베팅해요. 숫자가 높은 사람이 이겨요.',
      '2장 모드에서는 손에 든 카드 1장(나만 봄)을 더 받아 한 번 더 베팅하고, 페어가 노페어를 이겨요.',
      '가장 높은 카드(20장 덱은 10)를 이마에 단 채 다이하면 벌칙 칩을 내는 방도 있어요.',
    ],
    ranking: 'indian',
  },
};

const RANKINGS: Record<'world' | 'korean' | 'badugi' | 'indian', Section> = {
  world: [
    '족보 (높은 순, 무늬는 따지지 않음)',
    '스트레이트 플러시 › 포카드 › 풀하우스 › 플러시 › 스트레이트 › 트리플 › 투페어 › 원페어 › 하이카드',
    '스트레이트는 A-2-3-4-5가 가장 낮고 10-J-Q-K-A가 가장 높아요. K-A-2처럼 돌아 이어지는 건 안 돼요.',
    '패가 똑같으면 판돈을 나눠요.',
  ],
  korean: [
    '한국식 족보 (높은 순)',
    '로티플(같은 무늬 A-K-Q-J-10) › 백스티플(같은 무늬 A-2-3-4-5) › 스티플 › 포카드 › 풀하우스 › 플러시 › 마운틴(A-K-Q-J-10) › 백스트레이트(A-2-3-4-5) › 스트레이트 › 트리플 › 투페어 › 원페어 › 탑',
    '같은 족보끼리는 숫자를 먼저 보고, 숫자가 같으면 무늬로 가려요: ♠ › ◆ › ♥ › ♣.',
  ],
  badugi: [
    '바둑이 족보 (낮을수록 좋음)',
    '숫자도 무늬도 겹치지 않는 카드가 몇 장인지가 먼저예요: 4장이면 메이드 › 3장이면 베이스 › 2장이면 투베이스 › 노베이스.',
    '같은 등급끼리는 가장 높은 카드부터 비교해 낮은 쪽이 이겨요. A가 가장 낮아요.',
    '최고는 골프(A-2-3-4), 다음이 세컨드(A-2-3-5), 써드(A-2-4-5)예요.',
  ],
  indian: [
    '인디언 족보',
    '1장 모드: 숫자가 높으면 이겨요. 20장 덱은 10이 가장 높고 1이 가장 낮아요. 52장 덱은 A가 가장 높아요.',
    '2장 모드: 페어 › 노페어. 노페어끼리는 높은 카드부터 비교해요.',
    '똑같으면 판돈이 다음 판으로 넘어가요(나누는 방도 있어요).',
  ],
};

const BETTING: Section[] = [
  [
    '한국식 베팅 말',
    '체크: 아무도 안 걸었을 때 걸지 않고 넘기기',
    '삥: 아무도 안 걸었을 때 기본 단위만큼 걸기',
    '콜: 앞사람이 건 만큼 맞추기',
    '따당: 앞사람이 더 건 금액의 두 배를 걸기',
    '쿼터·하프·풀: 콜을 맞춘 뒤의 판돈의 1/4·1/2·전부만큼 더 걸기',
    '다이: 이번 판 포기',
    '한 라운드에 올리기(삥 포함)는 한 번만 할 수 있고, 체크나 콜을 한 뒤에는 올릴 수 없어요.',
  ],
  [
    '노리밋·팟리밋',
    '폴드(포기) · 체크 · 콜 · 벳(처음 걸기) · 레이즈(올리기) · 올인(가진 칩 전부).',
    '레이즈 금액은 이번 라운드에 내가 낸 칩 합계를 얼마까지 올릴지로 골라요(레이즈 투).',
    '팟리밋은 콜을 맞춘 뒤의 판돈만큼까지 올릴 수 있고, 노리밋은 가진 칩 전부까지 돼요.',
  ],
  [
    '칩이 떨어지면',
    '칩을 다 잃으면 방 설정에 따라 리바이(칩 다시 받기)를 할 수 있어요. 리바이한 칩은 최종 순위에서 빼고 셉니다.',
  ],
];

function section([title, ...lines]: Section): HTMLElement[] {
  return [el('h3', {}, [title]), ...lines.map((l) => el('p', {}, [l]))];
}

/** A picture table of the 족보, marked for the browser test (data-ranking, one row per category). */
function pictures(table: ExampleTable, kind: string): HTMLElement {
  const rows = pictureRows(
    table.rows.map((r) => ({ name: r.name, effect: r.note, cards: r.cards.map(artCard) })),
    true,
  );
  rows.dataset.ranking = kind;
  rows.dataset.testid = 'rank-pictures';
  return el('div', {}, [el('h4', {}, [table.title]), rows]);
}

/** The 포커 rules: `mode` first when given (the table's), then every other mode, then betting. */
export function pokerRulesBody(mode?: string): HTMLElement {
  const body = el('div', { class: 'rules-game', 'data-testid': 'rules-body-poker' });
  const order = Object.keys(MODES).sort((a, b) => Number(b === mode) - Number(a === mode));
  for (const id of order) {
    const m = MODES[id];
    const part = el('details', { class: 'rules-mode', 'data-mode': id });
    if (id === mode || (!mode && id === order[0])) part.open = true;
    part.append(el('summary', {}, [m.name]), ...m.flow.map((l) => el('p', {}, [l])), ...section(RANKINGS[m.ranking]));
    for (const t of rankExamples(m.ranking, id === 'sevenHiLo')) part.append(pictures(t, m.ranking));
    body.append(part);
  }
  for (const s of BETTING) body.append(...section(s));
  return body;
}

export const POKER_MODE_NAMES = Object.fromEntries(Object.entries(MODES).map(([id, m]) => [id, m.name]));
