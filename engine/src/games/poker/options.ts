/**
 * Room options (§2.2) declared once: the zod schema and the create-room form
 * both come from this table. Mode-specific options carry `modes` so the form
 * shows them only where they mean something (elsewhere they are ignored).
 */
import { botLevelOption, buildOptions, opt } from '../../core/options.ts';

export type PokerMode = 'holdem' | 'omaha' | 'sevenPoker' | 'sevenHiLo' | 'badugi' | 'fiveDraw' | 'indian';
export type Betting = 'korean' | 'noLimit' | 'potLimit';

export const MODES: { id: PokerMode; name: string }[] = [
  { id: 'sevenPoker', name: '7포커' },
  { id: 'holdem', name: '텍사스 홀덤' },
  { id: 'omaha', name: '오마하' },
  { id: 'sevenHiLo', name: '7포커 하이로우' },
  { id: 'badugi', name: '바둑이' },
  { id: 'fiveDraw', name: '5카드 드로우' },
  { id: 'indian', name: '인디언 포커' },
];

const built = buildOptions(
  {
    mode: opt.choice(
      '게임 모드',
      MODES.map((m) => [m.id, m.name] as const),
      'sevenPoker',
    ),
    betting: opt.choice(
      '베팅 방식',
      [
        ['auto', '모드 기본'],
        ['korean', '한국식 판돈'],
        ['noLimit', '노리밋'],
        ['potLimit', '팟리밋'],
      ] as const,
      'auto',
    ),
    startingChips: opt.choice(
      '시작 칩',
      [
        [500, '500'],
        [1000, '1,000'],
        [2000, '2,000'],
        [5000, '5,000'],
      ] as const,
      1000,
    ),
    baseUnit: opt.choice(
      '기본 단위',
      [
        [2, '2'],
        [10, '10'],
        [20, '20'],
        [50, '50'],
      ] as const,
      10,
      { help: '한국식은 앤티(삥) 금액, 블라인드형은 빅 블라인드(스몰은 절반)' },
    ),
    koreanMaxRaise: opt.choice(
      '최대 레이즈(한국식)',
      [
        ['half', '하프까지'],
        ['full', '풀까지'],
      ] as const,
      'half',
    ),
    endCondition: opt.choice(
      '게임 종료 방식',
      [
        ['hands', '정해진 판 수'],
        ['lastStanding', '최후의 1인'],
      ] as const,
      'hands',
    ),
    handLimit: opt.choice(
      '총 판 수',
      [
        [10, '10판'],
        [20, '20판'],
        [30, '30판'],
        [50, '50판'],
      ] as const,
      20,
    ),
    blindUpEvery: opt.choice(
      '기본 단위 올리기',
      [
        [0, '안 올림'],
        [5, '5판마다 2배'],
        [10, '10판마다 2배'],
        [15, '15판마다 2배'],
      ] as const,
      0,
      { help: '최후의 1인 방식이면 10판마다를 추천해요' },
    ),
    rebuy: opt.choice(
      '리바이(칩 다시 받기)',
      [
        ['off', '없음'],
        ['limited', '횟수 제한'],
        ['unlimited', '무제한'],
      ] as const,
      'unlimited',
      { help: '최후의 1인 방식이면 없음을 추천해요' },
    ),
    rebuyLimit: opt.choice(
      '리바이 횟수',
      [
        [1, '1번'],
        [2, '2번'],
        [3, '3번'],
      ] as const,
      1,
    ),
    botLevel: botLevelOption(),
    turnSeconds: opt.choice(
      '행동 제한 시간',
      [
        [15, '15초'],
        [20, '20초'],
        [30, '30초'],
        [60, '60초'],
      ] as const,
      20,
    ),
    dealerRule: opt.choice(
      '다음 판 선(딜러)',
      [
        ['rotate', '시계 방향으로 돌기'],
        ['winner', '직전 승자'],
      ] as const,
      'rotate',
    ),
    hints: opt.boolean('족보 힌트 표시', true),
    hiLoLow: opt.choice(
      '로우 판정',
      [
        ['korean', '한국식(스트레이트·플러시 불인정, 최고 A-2-3-4-6)'],
        ['aceToFive', '에이스 투 파이브(최고 A-2-3-4-5)'],
      ] as const,
      'korean',
      { modes: ['sevenHiLo'] },
    ),
    hiLoQualifier: opt.choice(
      '로우 자격',
      [
        ['none', '제한 없음(K탑까지)'],
        ['eight', '8탑 이하만'],
      ] as const,
      'none',
      { modes: ['sevenHiLo'] },
    ),
    drawLimit: opt.choice(
      '교환 장수 제한',
      [
        ['any', '0~5장'],
        ['three', '3장(A를 남기면 4장)'],
      ] as const,
      'any',
      { modes: ['fiveDraw'] },
    ),
    indianCards: opt.choice(
      '인디언 카드 수',
      [
        [1, '1장(이마)'],
        [2, '2장(이마 + 손)'],
      ] as const,
      1,
      { modes: ['indian'] },
    ),
    indianDeck: opt.choice(
      '인디언 덱',
      [
        ['d20', '1~10 두 벌(20장)'],
        ['d52', '52장'],
      ] as const,
      'd20',
      { modes: ['indian'] },
    ),
    indianFoldPenalty: opt.boolean('최고 숫자 다이 벌칙', true, {
      modes: ['indian'],
      help: '덱 최고 숫자를 이마에 단 채 다이하면 기본 단위의 10배를 승자에게 내요',
    }),
    indianTie: opt.choice(
      '인디언 동점',
      [
        ['carry', '판돈 이월'],
        ['split', '나눠 갖기'],
      ] as const,
      'carry',
      { modes: ['indian'] },
    ),
    // §12: some players read "인디언" as insensitive; the room can show the same game as "이마 포커".
    indianName: opt.choice(
      '표시 이름',
      [
        ['indian', '인디언 포커'],
        ['forehead', '이마 포커'],
      ] as const,
      'indian',
      { modes: ['indian'] },
    ),
    indianReshuffle: opt.choice(
      '인디언 덱 섞기',
      [
        ['whenEmpty', '덱을 다 쓰면(카드 기억)'],
        ['everyHand', '매 판'],
      ] as const,
      'whenEmpty',
      { modes: ['indian'] },
    ),
  },
  (o, ctx) => {
    if (o.baseUnit * 20 > o.startingChips) {
      ctx.addIssue({
        code: 'custom',
        path: ['startingChips'],
        message: `시작 칩은 기본 단위의 20배(${o.baseUnit * 20}) 이상이어야 해요`,
      });
    }
  },
);

export const optionsSchema = built.schema;
export const optionFields = built.fields;
export type PokerOptions = ReturnType<typeof optionsSchema.parse>;

/** The mode's display name for these options (the indian mode may be shown as "이마 포커"). */
export function modeName(o: PokerOptions): string {
  if (o.mode === 'indian' && o.indianName === 'forehead') return '이마 포커';
  return MODES.find((m) => m.id === o.mode)!.name;
}

/** Seat caps per mode (§2.1): 10 for the community-card games and one-card d52 indian, 6 otherwise. */
export function playerRange(o: Pick<PokerOptions, 'mode' | 'indianCards' | 'indianDeck'>): {
  min: number;
  max: number;
} {
  if (o.mode === 'holdem' || o.mode === 'omaha') return { min: 2, max: 10 };
  if (o.mode === 'indian' && o.indianCards === 1 && o.indianDeck === 'd52') return { min: 2, max: 10 };
  return { min: 2, max: 6 };
}

/** Korean message when `count` seats do not fit the options, else null. */
export function playerCountProblem(o: PokerOptions, count: number): string | null {
  const { min, max } = playerRange(o);
  if (count < min) return `최소 ${min}명이 있어야 시작할 수 있어요`;
  if (count > max) return `이 모드는 최대 ${max}명까지 할 수 있어요`;
  return null;
}

/** `auto` (§2.2): hold'em and indian no-limit, omaha pot-limit, the rest Korean pot betting. */
export function resolveBetting(o: Pick<PokerOptions, 'mode' | 'betting'>): Betting {
  if (o.betting !== 'auto') return o.betting;
  if (o.mode === 'holdem' || o.mode === 'indian') return 'noLimit';
  if (o.mode === 'omaha') return 'potLimit';
  return 'korean';
}

/** Blinds only in the community-card modes (§2.1); every other mode antes, whatever the betting. */
export function usesBlinds(mode: PokerMode): boolean {
  return mode === 'holdem' || mode === 'omaha';
}
