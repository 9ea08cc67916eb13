/**
 * Named rule sets of 원카드 (issue 41): where a host starts in the room form before changing
 * anything. Pure data: each preset names its mode and only the §2 options it moves away from
 * that mode's defaults; the rest keep their defaults (core/presets.ts `presetValues`). Every
 * preset must pass `optionsSchema` (engine/test/one-card-presets.test.ts), so a preset can
 * never offer a combination the server would refuse. docs/games/one-card.md says what each
 * is for. The ids are a contract with the client (`room-preset` select values).
 */
import type { OptionPreset } from '../../core/types.ts';

export const presets: OptionPreset[] = [
  {
    id: 'basic',
    name: '기본',
    summary: '규칙 문서 그대로의 원카드',
    options: { mode: 'classic' },
  },
  {
    id: 'house',
    name: '학교/MT 하우스 룰',
    summary: '공격이 세고 같은 숫자를 몰아 내며 꼴찌를 가리는 판',
    options: {
      mode: 'classic',
      attackSpadeA: 7,
      attackBlackJoker: 7,
      attackColorJoker: 10,
      multiPlay: true,
      lastCardRule: 'attack',
      afterJoker: 'any',
      qInTwoPlayer: 'as-skip',
      bankruptLimit: 15,
      endCondition: 'last-standing',
    },
  },
  {
    id: 'colorOriginal',
    name: '색깔 카드 원작 규칙',
    summary: '색깔 카드를 원래 게임의 규칙대로: 의심하기와 500점 목표',
    options: {
      mode: 'uno-style',
      unoWild4Rule: 'challenge',
      unoTargetScore: 500,
    },
  },
  {
    id: 'beginner',
    name: '초보용',
    summary: '처음 하는 사람도 느긋하게: 자동 원카드, 긴 시간, 약한 공격',
    options: {
      mode: 'classic',
      handSize: 5,
      attack2: 1,
      attackA: 2,
      attackSpadeA: 3,
      lastCardRule: 'none',
      autoDeclare: true,
      bankruptLimit: null,
      turnSeconds: 60,
      botLevel: 'easy',
    },
  },
];
