/** Room options (docs/games/hula.md §2). Amounts are in-room points only. */
import { botLevelOption, buildOptions, opt } from '../../core/options.ts';

export const { schema: optionsSchema, fields: optionFields } = buildOptions({
  mode: opt.choice(
    '모드',
    [
      ['monster', '괴물 훌라 (52장, 순서대로 땡큐)'],
      ['joker', '조커 훌라 (54장, 선착순 땡큐)'],
    ] as const,
    'monster',
  ),
  rounds: opt.choice(
    '판 수',
    [
      [1, '1판'],
      [3, '3판'],
      [5, '5판'],
      [10, '10판'],
      [20, '20판'],
    ] as const,
    5,
    { help: '정한 판 수를 마치거나 남은 사람이 1명이 되면 끝나요.' },
  ),
  baseUnit: opt.choice(
    '정산 단위 점수',
    [
      [10, '10점'],
      [100, '100점'],
      [1000, '1,000점'],
    ] as const,
    100,
    { help: '2등이 내는 기본 점수예요. 방 안에서만 쓰는 점수이고 방 밖으로 나가지 않아요.' },
  ),
  feeNormal: opt.choice(
    '수수료 (일반 승리)',
    [
      [0, '없음'],
      [5, '5%'],
      [10, '10%'],
    ] as const,
    5,
    { help: '스톱·덱 소진·훌라 승리 때 승자가 받는 점수에서 빠지는 비율이에요(방 안 점수에서 사라짐).' },
  ),
  feeSpecial: opt.choice(
    '수수료 (특수 승리)',
    [
      [0, '없음'],
      [5, '5%'],
      [10, '10%'],
      [20, '20%'],
    ] as const,
    10,
    { help: '대카·소카·7777 승리 때 빠지는 비율이에요.' },
  ),
  bonus: opt.boolean('배판(연승 보너스)', true, { help: '이긴 사람이 다시 이기면 배수가 붙어요(최대 5배).' }),
  botLevel: botLevelOption(),
});
