/**
 * Room options of §2. The form and the schema come from one declaration
 * (core/options.ts). `carryScores` is room-level plumbing for the uno-style
 * multi-round match (§8.6), not something a player types, so it is accepted
 * by the schema but kept out of `optionFields`.
 */
import { z } from 'zod';
import { botLevelOption, buildOptions, opt, type OptionField } from '../../core/index.ts';
import type { OneCardOptions } from './types.ts';

const CLASSIC = ['classic'];
const UNO = ['uno-style'];

const built = buildOptions(
  {
    mode: opt.choice(
      '게임 모드',
      [
        ['classic', '원카드'],
        ['uno-style', '색깔 카드'],
      ] as const,
      'classic',
    ),
    handSize: opt.choice(
      '처음 받는 장수',
      [
        [5, '5장'],
        [6, '6장'],
        [7, '7장'],
      ] as const,
      7,
    ),
    deckCount: opt.choice<'auto' | 1 | 2>(
      '덱 수',
      [
        ['auto', '자동 (2~5명 1벌, 6~9명 2벌)'],
        [1, '1벌'],
        [2, '2벌'],
      ] as const,
      'auto',
      { modes: CLASSIC },
    ),
    attack2: opt.integer('2 공격 장수', 1, 3, 2, { modes: CLASSIC }),
    attackA: opt.integer('A 공격 장수 (♠ 제외)', 2, 5, 3, { modes: CLASSIC }),
    attackSpadeA: opt.integer('♠A 공격 장수', 3, 10, 5, { modes: CLASSIC }),
    attackBlackJoker: opt.integer('흑백 조커 공격 장수', 5, 10, 5, { modes: CLASSIC }),
    attackColorJoker: opt.integer('컬러 조커 공격 장수', 5, 13, 7, { modes: CLASSIC }),
    threeDefense: opt.choice(
      '3으로 막기',
      [
        ['off', '안 씀'],
        ['same-suit', '같은 무늬 3으로 2·A 공격 막기'],
      ] as const,
      'same-suit',
      { modes: CLASSIC },
    ),
    kEffect: opt.choice(
      'K 효과',
      [
        ['extra-turn', '한 번 더'],
        ['skip-two', '두 명 건너뛰기'],
        ['none', '효과 없음'],
      ] as const,
      'extra-turn',
      { modes: CLASSIC },
    ),
    qInTwoPlayer: opt.choice(
      '2명일 때 Q',
      [
        ['no-effect', '효과 없음 (상대 차례)'],
        ['as-skip', 'J처럼 건너뛰기'],
      ] as const,
      'no-effect',
      { modes: CLASSIC },
    ),
    lastCardRule: opt.choice(
      '마지막 카드 제한',
      [
        ['none', '제한 없음'],
        ['joker', '조커로 끝내기 금지'],
        ['attack', '공격 카드(2·A·조커)로 끝내기 금지'],
        ['special', '특수 카드로 끝내기 금지'],
      ] as const,
      'joker',
      { modes: CLASSIC },
    ),
    afterJoker: opt.choice(
      '조커 다음 카드',
      [
        ['previous', '조커 밑 카드 기준'],
        ['any', '아무 카드나'],
      ] as const,
      'previous',
      { modes: CLASSIC },
    ),
    multiPlay: opt.boolean('같은 숫자 여러 장 내기', false, { modes: CLASSIC }),
    oneCardPenalty: opt.integer('원카드 못 외치고 잡히면 먹는 장수', 1, 3, { byMode: { classic: 1, 'uno-style': 2 } }),
    autoDeclare: opt.boolean('1장이 되면 자동으로 원카드 외치기', false),
    bankruptLimit: opt.choice(
      '파산 장수',
      [
        [15, '15장'],
        [18, '18장'],
        [20, '20장'],
        [25, '25장'],
        [null, '파산 없음'],
      ] as const,
      { byMode: { classic: 20, 'uno-style': null } },
    ),
    voluntaryDraw: opt.boolean('낼 카드가 있어도 먹기 허용', true),
    playAfterDraw: opt.boolean('먹은 카드를 바로 내기 허용', { byMode: { classic: false, 'uno-style': true } }),
    endCondition: opt.choice(
      '끝나는 때',
      [
        ['first-out', '1등이 나오면 끝'],
        ['last-standing', '꼴찌가 정해질 때까지'],
      ] as const,
      'first-out',
    ),
    botLevel: botLevelOption(),
    turnSeconds: opt.choice(
      '턴 제한 시간',
      [
        [10, '10초'],
        [15, '15초'],
        [20, '20초'],
        [30, '30초'],
        [60, '60초'],
      ] as const,
      20,
    ),
    unoStacking: opt.boolean('+2·+4 받아치기', false, { modes: UNO }),
    unoWild4Rule: opt.choice(
      '색 바꾸기+4 조건',
      [
        ['strict', '현재 색 카드가 없을 때만'],
        ['challenge', '아무 때나 (의심하기 가능)'],
        ['free', '제한 없음'],
      ] as const,
      'strict',
      { modes: UNO },
    ),
    unoTargetScore: opt.choice(
      '목표 점수 (여러 판)',
      [
        [null, '없음 (한 판)'],
        [200, '200점'],
        [500, '500점'],
      ] as const,
      null,
      { modes: UNO },
    ),
  },
  (o, ctx) => {
    if (o.attackSpadeA < o.attackA)
      ctx.addIssue({ code: 'custom', path: ['attackSpadeA'], message: '♠A 공격 장수는 다른 A보다 적을 수 없어요' });
    if (o.attackColorJoker < o.attackBlackJoker)
      ctx.addIssue({
        code: 'custom',
        path: ['attackColorJoker'],
        message: '컬러 조커 공격 장수는 흑백 조커보다 적을 수 없어요',
      });
    // An option of the other mode changed from its default is almost certainly a mistake in the room form.
    for (const f of fieldsByKey.values()) {
      if (!f.modes || f.modes.includes(o.mode)) continue;
      const value = (o as Record<string, unknown>)[f.key];
      if (value !== f.defaultByMode[o.mode]) {
        const modeName = o.mode === 'classic' ? '색깔 카드' : '원카드';
        ctx.addIssue({
          code: 'custom',
          path: [f.key],
          message: `'${f.label}' 옵션은 ${modeName} 모드에서만 쓸 수 있어요`,
        });
      }
    }
  },
);

const fieldsByKey = new Map<string, OptionField>(built.fields.map((f) => [f.key, f]));

export const optionFields: OptionField[] = built.fields;

const carrySchema = z.record(z.string().min(1), z.number().int().min(0).max(100_000));

function koreanIssue(issue: z.core.$ZodIssue): string {
  if (issue.code === 'custom') return issue.message;
  const key = String(issue.path[0] ?? '');
  const field = fieldsByKey.get(key);
  if (issue.code === 'unrecognized_keys') return `알 수 없는 옵션이에요: ${issue.keys.join(', ')}`;
  return field ? `'${field.label}' 값이 올바르지 않아요` : '옵션이 올바르지 않아요';
}

/** Parses room options: defaults per mode, Korean messages, cross-field rules, optional carryScores. */
export const optionsSchema: z.ZodType<OneCardOptions> = z.unknown().transform((input, ctx) => {
  let rest: unknown = input;
  let carry: Record<string, number> | undefined;
  if (input !== null && typeof input === 'object' && !Array.isArray(input) && 'carryScores' in input) {
    const { carryScores, ...others } = input as Record<string, unknown>;
    rest = others;
    if (carryScores !== undefined) {
      const c = carrySchema.safeParse(carryScores);
      if (!c.success) {
        ctx.addIssue({ code: 'custom', path: ['carryScores'], message: '이월 점수가 올바르지 않아요' });
        return z.NEVER;
      }
      carry = c.data;
    }
  }
  const r = built.schema.safeParse(rest);
  if (!r.success) {
    for (const issue of r.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: koreanIssue(issue) });
    return z.NEVER;
  }
  const o = r.data as OneCardOptions;
  if (carry === undefined) return o;
  if (o.mode !== 'uno-style' || o.unoTargetScore === null) {
    ctx.addIssue({
      code: 'custom',
      path: ['carryScores'],
      message: '이월 점수는 색깔 카드 모드의 목표 점수제에서만 쓸 수 있어요',
    });
    return z.NEVER;
  }
  if (Object.values(carry).some((v) => v >= o.unoTargetScore!)) {
    ctx.addIssue({ code: 'custom', path: ['carryScores'], message: '이미 목표 점수에 닿은 사람이 있어요' });
    return z.NEVER;
  }
  return { ...o, carryScores: carry };
});

/** Decks actually used (§2 deckCount: auto = 1 deck up to 5 players, 2 from 6). */
export function resolveDecks(o: OneCardOptions, players: number): 1 | 2 {
  if (o.mode !== 'classic') return 1;
  if (o.deckCount === 'auto') return players <= 5 ? 1 : 2;
  return o.deckCount;
}

/**
 * Seat bounds per mode (classic 2–9, uno-style 2–10). One classic deck must
 * leave cards to flip a start card and draw from after dealing, so a forced
 * single deck caps the table by hand size.
 */
export function playerRange(o: OneCardOptions): { min: number; max: number } {
  if (o.mode === 'uno-style') return { min: 2, max: 10 };
  if (o.deckCount === 1) return { min: 2, max: Math.min(9, Math.floor(51 / o.handSize)) };
  return { min: 2, max: 9 };
}
