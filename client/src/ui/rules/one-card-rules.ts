/**
 * 원카드 rules sheet (§9 "규칙 보기"): both modes, with the special-card
 * table drawn from the same card art as the table.
 */
import type { Card } from '../../cards/model.ts';
import { el } from '../dom.ts';
import { pictureRows } from './rule-cards.ts';

interface SpecialRow {
  cards: Card[];
  name: string;
  effect: string;
}

const specialTable = (rows: SpecialRow[]): HTMLElement => pictureRows(rows);

/** Rule text written for this app; amounts follow the room's options. */
export function oneCardRulesBody(options?: Record<string, unknown>): HTMLElement {
  const o = (k: string, d: number) => (typeof options?.[k] === 'number' ? (options[k] as number) : d);
  const body = el('div', { class: 'rules-game', 'data-testid': 'rules-body-one-card' });
  body.append(
    el('h3', {}, ['원카드 (기본)']),
    el('p', {}, [
      '바닥 맨 위 카드와 무늬나 숫자가 같은 카드를 한 장 내요. 낼 카드가 없으면 한 장을 먹어요. 손에 든 카드를 가장 먼저 모두 내면 이겨요.',
    ]),
    specialTable([
      {
        cards: [{ id: 'r1', kind: 'std', suit: 'H', rank: 2 }],
        name: '2 — 공격',
        effect: `다음 사람이 ${o('attack2', 2)}장을 먹어요. 2나 같은 무늬 A, 조커로 받아칠 수 있어요.`,
      },
      {
        cards: [{ id: 'r2', kind: 'std', suit: 'D', rank: 1 }],
        name: 'A — 공격',
        effect: `${o('attackA', 3)}장. 아무 A나 조커로 받아쳐요.`,
      },
      {
        cards: [{ id: 'r3', kind: 'std', suit: 'S', rank: 1 }],
        name: '♠A — 큰 공격',
        effect: `${o('attackSpadeA', 5)}장. 조커로만 받아칠 수 있어요.`,
      },
      {
        cards: [
          { id: 'r4', kind: 'joker', joker: 'black' },
          { id: 'r5', kind: 'joker', joker: 'color' },
        ],
        name: '조커 — 가장 큰 공격',
        effect: `흑백 ${o('attackBlackJoker', 5)}장, 컬러 ${o('attackColorJoker', 7)}장. 흑백 조커는 컬러 조커로만 받아쳐요. 마지막 한 장으로는 낼 수 없어요(기본 설정).`,
      },
      {
        cards: [{ id: 'r6', kind: 'std', suit: 'C', rank: 3 }],
        name: '3 — 방어',
        effect: '같은 무늬의 2나 A 공격을 막아요. 조커 공격은 못 막아요.',
      },
      {
        cards: [{ id: 'r7', kind: 'std', suit: 'H', rank: 7 }],
        name: '7 — 무늬 바꾸기',
        effect: '내면서 다음 무늬를 골라요.',
      },
      {
        cards: [{ id: 'r8', kind: 'std', suit: 'S', rank: 11 }],
        name: 'J — 건너뛰기',
        effect: '다음 사람을 건너뛰어요.',
      },
      {
        cards: [{ id: 'r9', kind: 'std', suit: 'D', rank: 12 }],
        name: 'Q — 방향 바꾸기',
        effect: '진행 방향이 반대로 바뀌어요.',
      },
      {
        cards: [{ id: 'r10', kind: 'std', suit: 'C', rank: 13 }],
        name: 'K — 한 번 더',
        effect: '한 번 더 내 차례가 와요.',
      },
    ]),
    el('h3', {}, ['공격을 받았을 때']),
    el('p', {}, [
      '빨간 "+N장!" 표시가 뜨면 공격을 받은 거예요. 받아칠 카드를 내면 공격이 다음 사람에게 쌓여 넘어가고, 못 막으면 "N장 먹기"를 눌러 쌓인 만큼 먹어요.',
    ]),
    el('h3', {}, ['원카드!']),
    el('p', {}, [
      '카드가 한 장 남으면 오른쪽 아래 원카드 버튼이 흔들려요. 한 장 남은 사람이 먼저 누르면 안전하고, 다른 사람이 먼저 누르면 잡혀서 벌칙 카드를 먹어요. 마지막 두 장 중 한 장을 낼 때는 "원카드 외치며 내기"가 기본으로 켜져 있어요.',
    ]),
    el('h3', {}, ['파산']),
    el('p', {}, [`손에 든 카드가 ${o('bankruptLimit', 20)}장 이상이 되면 파산해서 탈락해요(설정에 따라 다름).`]),
    el('h3', {}, ['색깔 카드 모드']),
    el('p', {}, [
      '빨강·노랑·초록·파랑 네 가지 색 카드로 해요. 색이나 숫자·기호가 같으면 낼 수 있고, 색 바꾸기 카드는 언제든 낼 수 있어요. 색마다 무늬(빨강 점, 노랑 줄, 초록 격자, 파랑 물결)와 색 이름이 함께 그려져 있어요.',
    ]),
    specialTable([
      { cards: [{ id: 'u1', kind: 'skip', color: 'R' }], name: '건너뛰기', effect: '다음 사람을 건너뛰어요.' },
      {
        cards: [{ id: 'u2', kind: 'reverse', color: 'Y' }],
        name: '방향 바꾸기',
        effect: '방향이 바뀌어요. 두 명이면 건너뛰기와 같아요.',
      },
      { cards: [{ id: 'u3', kind: 'draw2', color: 'G' }], name: '+2', effect: '다음 사람이 2장을 먹고 차례를 잃어요.' },
      {
        cards: [
          { id: 'u4', kind: 'wild' },
          { id: 'u5', kind: 'wild4' },
        ],
        name: '색 바꾸기 / 색 바꾸기+4',
        effect: '다음 색을 골라요. +4는 다음 사람이 4장을 먹고 차례를 잃어요.',
      },
    ]),
    el('h3', {}, ['공정한 셔플']),
    el('p', {}, [
      '게임이 시작될 때 서버는 비밀 시드의 SHA-256 값(약속값)을 먼저 보여 줘요. 게임이 끝나면 시드를 공개하고, 결과 화면에서 두 값이 맞는지 직접 확인해요.',
    ]),
  );
  return body;
}
