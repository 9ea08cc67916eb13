import { describe, expect, it } from 'vitest';
import { poker } from '../../src/games/poker/index.ts';
import { result } from '../../src/games/poker/scoring.ts';
import { deriveSeed, seedCommitment } from '../../src/core/commit.ts';
import {
  act,
  checkDown,
  foldOut,
  order,
  readyAll,
  rej,
  rig,
  setStacks,
  stack,
  start,
  T0,
  timeout,
  viewOf,
} from './helpers.ts';
import type { PokerState } from '../../src/games/poker/types.ts';

/** Heads-up hold'em hand where `loser` goes all-in against `winner` and loses. */
function bust(s0: PokerState, winner: string, loser: string): PokerState {
  let s = rig(s0, { hole: { [winner]: 'As Ad', [loser]: '7c 2d' }, deck: '3c Ah 9s 4d 5c Jc 6c 8h' });
  while (s.hand!.phase === 'betting') {
    const id = s.hand!.betting!.toAct!;
    const legal = viewOf(s, id).legalActions.map((a) => a.type);
    s = act(s, id, { type: legal.includes('nl.allIn') ? 'nl.allIn' : 'nl.call' });
  }
  return s;
}

describe('리바이와 탈락 (§5.6)', () => {
  it('§10 — 리바이: limited 1회 사용 후 다시 0이 되면 탈락, hands 점수 = 칩 - 1000×리바이', () => {
    let s = start({ mode: 'holdem', rebuy: 'limited', rebuyLimit: 1 }, 2);
    const [A, B] = order(s);
    s = readyAll(bust(s, A, B));
    expect(s.phase).toBe('rebuy');
    expect(s.rebuyPending).toEqual([B]);
    expect(viewOf(s, B).legalActions).toEqual([{ type: 'rebuy' }]);
    expect(poker.deadline(s)).toBe(T0 + 1000 + 15_000);
    s = act(s, B, { type: 'rebuy', accept: true });
    // The next hand starts at once, so part of the fresh 1000 is already posted as a blind.
    expect(stack(s, B) + s.hand!.players[B].committedTotal).toBe(1000);
    expect(s.seats.find((x) => x.id === B)!.rebuys).toBe(1);
    expect(s.hand!.handNo).toBe(2);
    s = readyAll(bust(s, A, B));
    expect(s.phase).toBe('finished');
    expect(s.seats.find((x) => x.id === B)!.status).toBe('eliminated');
    const r = result(s)!;
    expect(r.ranking.map((x) => [x.player, x.rank, x.score, x.finalChips, x.rebuys])).toEqual([
      [A, 1, 3000, 3000, 0],
      [B, 2, -1000, 0, 1],
    ]);
  });

  it('§5.6 — rebuy=off이면 바로 탈락하고 순위에는 남음; 리바이를 묻는 15초가 지나면 그만하기', () => {
    let s = start({ mode: 'holdem', rebuy: 'off' }, 3);
    s = readyAll(foldOut(s));
    const [SB, BB, D] = order(s);
    s = setStacks(s, { [BB]: 190 }, D);
    s = rig(s, { hole: { [SB]: 'Ks Kd', [BB]: '7c 2d', [D]: 'As Ad' }, deck: '3c Ah 9s 4d 5c Jc 6c 8h' });
    s = act(s, D, { type: 'nl.raise', to: 200 });
    s = act(s, SB, { type: 'nl.fold' });
    s = act(s, BB, { type: 'nl.allIn' });
    s = readyAll(s);
    expect(s.seats.find((x) => x.id === BB)!.status).toBe('eliminated');
    expect(s.hand!.seatOrder).not.toContain(BB);
    let t = start({ mode: 'holdem' }, 3);
    t = readyAll(foldOut(t));
    const [, b2, d2] = order(t);
    t = setStacks(t, { [b2]: 90 }, d2);
    t = rig(t, { hole: { [b2]: '7c 2d', [d2]: 'As Ad' }, deck: '3c Ah 9s 4d 5c Jc 6c 8h' });
    t = act(t, d2, { type: 'nl.raise', to: 100 });
    t = act(t, order(t)[0], { type: 'nl.fold' });
    t = act(t, b2, { type: 'nl.allIn' });
    t = readyAll(t);
    expect(t.phase).toBe('rebuy');
    t = timeout(t);
    expect(t.seats.find((x) => x.id === b2)!.status).toBe('eliminated');
    expect(t.phase).toBe('playing');
  });

  it('§5.6 — hands 방식의 마지막 핸드 직후에는 리바이를 묻지 않음', () => {
    let s = start({ mode: 'holdem', handLimit: 10 }, 2);
    for (let i = 1; i < 10; i++) s = readyAll(foldOut(s));
    expect(s.hand!.handNo).toBe(10);
    const [BB, D] = order(s);
    s = readyAll(bust(s, D, BB));
    expect(s.phase).toBe('finished');
    expect(s.rebuyPending).toEqual([]);
  });

  it('§10 — lastStanding: 같은 핸드에서 2명 탈락 시 핸드 시작 칩이 많던 사람이 더 높은 순위', () => {
    let s = start({ mode: 'holdem', endCondition: 'lastStanding', rebuy: 'off' }, 3);
    s = foldOut(s);
    const next = (s.hand!.dealerSeat + 1) % 3;
    // Hand 2: order is SB, BB, dealer. Give SB 300 and BB 200 before it starts.
    const ids = [1, 2, 3].map((k) => s.seats[(next + k) % 3].id);
    const [sb, bb, d] = ids;
    s = setStacks(s, { [sb]: 300, [bb]: 200 }, d);
    s = readyAll(s);
    expect(order(s)).toEqual([sb, bb, d]);
    s = rig(s, { hole: { [sb]: 'Ks Kd', [bb]: 'Qs Qd', [d]: 'As Ad' }, deck: '3c Ah 9s 4d 5c Jc 6c 8h' });
    s = act(s, d, { type: 'nl.allIn' });
    s = act(s, sb, { type: 'nl.call' });
    s = act(s, bb, { type: 'nl.call' });
    s = readyAll(s);
    expect(s.phase).toBe('finished');
    const r = result(s)!;
    expect(r.ranking.map((x) => [x.player, x.rank, x.score, x.eliminatedAtHand])).toEqual([
      [d, 1, 3, null],
      [sb, 2, 2, 2],
      [bb, 3, 1, 2],
    ]);
    expect(s.eliminationSeq.map((g) => [...g].sort())).toEqual([[sb, bb].sort()]);
    expect(r.summary).toContain('최후의 1인');
  });
});

describe('블라인드/앤티 상승 (§5.7)', () => {
  it('§5.7 — N핸드마다 기본 단위 2배, 상한은 startingChips/5', () => {
    let s = start({ mode: 'badugi', blindUpEvery: 5, baseUnit: 50, startingChips: 1000 }, 2);
    for (let i = 0; i < 5; i++) s = readyAll(foldOut(s));
    expect(s.baseUnit).toBe(100);
    expect(s.hand!.players[order(s)[0]].committedTotal).toBe(100);
    for (let i = 0; i < 5; i++) s = readyAll(foldOut(s));
    expect(s.baseUnit).toBe(200);
    for (let i = 0; i < 5; i++) s = readyAll(foldOut(s));
    expect(s.baseUnit).toBe(200);
  });
});

describe('자리 비움과 나가기 (§5.8)', () => {
  it('§10 — 연결 끊김 2연속 시간 초과 → away, 이후 마감 5초, 재접속 후 직접 행동 시 해제', () => {
    let s = start({ mode: 'badugi' }, 3);
    const [A, B, C] = order(s);
    s = timeout(s); // 1: A's turn runs out (auto check)
    expect(s.seats.find((x) => x.id === A)!.timeoutsInRow).toBe(1);
    s = act(s, B, { type: 'k.check' });
    s = act(s, C, { type: 'k.check' });
    s = act(s, B, { type: 'draw', cardIds: [] });
    s = act(s, C, { type: 'draw', cardIds: [] });
    const r = poker.onTimeout(s, T0 + 61_000); // 2: A misses the draw too (auto pass)
    expect(r.ok).toBe(true);
    s = (r as { state: PokerState }).state;
    expect(s.seats.find((x) => x.id === A)!.away).toBe(true);
    expect(s.hand!.betting!.toAct).toBe(A);
    expect(poker.deadline(s)).toBe(T0 + 61_000 + 5000);
    expect(viewOf(s, B).seats.find((x) => x.id === A)!.away).toBe(true);
    s = act(s, A, { type: 'k.check' }, T0 + 62_000);
    expect(s.seats.find((x) => x.id === A)!.away).toBe(false);
    expect(s.seats.find((x) => x.id === A)!.timeoutsInRow).toBe(0);
    expect(poker.deadline(s)).toBe(T0 + 62_000 + 20_000);
  });

  it('§5.8 — 나간 플레이어는 칩을 유지한 채 매 핸드 강제 베팅 후 자동 다이, 접속 중인 사람이 1명 이하면 종료', () => {
    let s = start({ mode: 'sevenPoker' }, 3);
    const [A, B, C] = order(s);
    s = act(s, B, { type: 'leave' });
    // Clarification 17: in this hand B's cards stay live and the clock's choice is made for B at once.
    expect(s.hand!.players[B].folded).toBe(false);
    expect(s.hand!.players[B].choiceDone).toBe(true);
    expect(rej(s, B, { type: 'leave' })).toBe('이미 나간 플레이어예요');
    s = foldOut(s);
    const afterHand1 = stack(s, B);
    s = readyAll(s);
    expect(s.hand!.handNo).toBe(2);
    expect(s.hand!.players[B].folded).toBe(true);
    expect(s.hand!.players[B].committedTotal).toBe(10);
    expect(stack(s, B)).toBe(afterHand1 - 10);
    expect(s.hand!.players[B].choice).toBeNull();
    s = act(s, C, { type: 'leave' });
    expect(s.hand!.players[C].folded).toBe(false);
    s = readyAll(foldOut(s));
    expect(s.phase).toBe('finished');
    expect(s.endReason).toBe('left');
    expect(poker.result(s)!.ranking.map((x) => x.player)).toContain(B);
    void A;
  });
});

describe('게임 종료와 점수 (§6.7, §8.6)', () => {
  it('§6.7 — hands: handLimit 핸드 후 종료, 점수 높은 순, 같은 점수는 공동 순위', () => {
    let s = start({ mode: 'fiveDraw', handLimit: 10 }, 3);
    for (let i = 0; i < 10; i++) {
      expect(s.phase).toBe('playing');
      s = readyAll(foldOut(s));
    }
    expect(s.phase).toBe('finished');
    expect(poker.deadline(s)).toBeNull();
    const r = result(s)!;
    const total = r.ranking.reduce((t, x) => t + x.finalChips, 0);
    expect(total).toBe(3000);
    for (let i = 1; i < r.ranking.length; i++) {
      const [a, b] = [r.ranking[i - 1], r.ranking[i]];
      expect(a.score).toBeGreaterThanOrEqual(b.score);
      expect(a.score === b.score ? a.rank === b.rank : b.rank === i + 1).toBe(true);
    }
    expect(r.summary).toMatch(/^10판 종료\. 1위 .+\([+-][\d,]+칩\)$/);
    // The summary's figure is the winner's profit (issue 15): chips left minus every buy-in, not the stack.
    const w = r.ranking[0];
    const profit = w.finalChips - s.options.startingChips * (1 + w.rebuys);
    expect(r.summary.endsWith(`(${profit >= 0 ? '+' : ''}${profit.toLocaleString('en-US')}칩)`)).toBe(true);
    expect(w.finalChips).toBeGreaterThan(s.options.startingChips);
    expect(r.seed).toBe('seed-1');
    expect(r.winners).toEqual(r.ranking.filter((x) => x.rank === 1).map((x) => x.player));
    expect(rej(s, order(s)[0], { type: 'ready' })).toBe('게임이 이미 끝났어요');
  });

  it('§6.7 — lastStanding 안전장치: 300핸드에 도달하면 hands 방식 점수로 강제 종료', () => {
    let s = start({ mode: 'fiveDraw', endCondition: 'lastStanding' }, 2);
    s = structuredClone(foldOut(s));
    s.hand!.handNo = 300;
    s.handsPlayed = 300;
    s = readyAll(s);
    expect(s.phase).toBe('finished');
    expect(s.endReason).toBe('safetyCap');
    const r = result(s)!;
    expect(r.ranking.map((x) => x.score)).toEqual(r.ranking.map((x) => x.finalChips));
    expect(r.ranking[0].score).toBeGreaterThanOrEqual(r.ranking[1].score);
  });

  it('§8.6 — 결과 통계: 진행 핸드 수, 가장 큰 팟, 최고 족보', () => {
    let s = start({ mode: 'holdem', handLimit: 10 }, 2);
    const [BB, D] = order(s);
    s = rig(s, { hole: { [BB]: 'As Ad', [D]: 'Ks Kd' }, deck: '3c Ah Ac 4d 5c Jc 6c 8h' });
    s = act(s, D, { type: 'nl.raise', to: 100 });
    s = act(s, BB, { type: 'nl.call' });
    s = checkDown(s);
    for (let i = 1; i < 10; i++) s = readyAll(foldOut(readyAll(s)));
    s = readyAll(s);
    const r = result(s)!;
    expect(r.stats.handsPlayed).toBe(10);
    expect(r.stats.biggestPot).toEqual({ handNo: 1, amount: 200, winners: [BB] });
    expect(r.stats.bestHand).toEqual({ playerId: BB, handName: '포카드', handNo: 1 });
  });
});

describe('공정성: 핸드별 시드 (§8.4)', () => {
  it('§8.4 — 핸드 시드 = deriveSeed(seed, "hand:n"): 시작부터 sha256이 view에, 핸드 종료 때 시드 공개, 마스터 시드는 result에서만', () => {
    let s = start({ mode: 'holdem' }, 3, 'fair');
    const handSeed = deriveSeed('fair', 'hand:1');
    for (const viewer of [...order(s), null]) {
      const v = viewOf(s, viewer);
      expect(v.seedCommit).toBe(seedCommitment('fair'));
      expect(v.hand!.seedCommit).toBe(seedCommitment(handSeed));
      expect(v.hand!.seed).toBeNull();
      expect(JSON.stringify(v)).not.toContain(handSeed);
    }
    const r = poker.apply(s, order(s)[2], { type: 'nl.fold' }, T0 + 1);
    s = foldOut((r as any).state);
    expect(viewOf(s, null).hand!.seed).toBe(handSeed);
    expect(JSON.stringify(viewOf(s, null))).not.toContain('"fair"');
    const ended = poker.apply(foldOut(start({ mode: 'holdem' }, 3, 'fair')), order(s)[0], { type: 'ready' }, T0);
    void ended;
    expect(poker.result(s)).toBeNull();
  });
});

describe('옵션 (§2.2)', () => {
  it('§12 — "인디언 포커"의 대체 표시 이름 "이마 포커"를 옵션으로 고를 수 있다(인디언 모드에서만 보임)', () => {
    const field = poker.optionFields.find((f) => f.key === 'indianName')!;
    expect(field.modes).toEqual(['indian']);
    expect(poker.modeName!(poker.optionsSchema.parse({ mode: 'indian' }))).toBe('인디언 포커');
    expect(poker.modeName!(poker.optionsSchema.parse({ mode: 'indian', indianName: 'forehead' }))).toBe('이마 포커');
    expect(poker.modeName!(poker.optionsSchema.parse({ mode: 'holdem', indianName: 'forehead' }))).toBe('텍사스 홀덤');
  });

  it('§2.2 — 기본값, auto 베팅 해석, 모드별 옵션 표시, 한국어 라벨', () => {
    const o = poker.optionsSchema.parse({});
    expect(o).toMatchObject({
      mode: 'sevenPoker',
      betting: 'auto',
      startingChips: 1000,
      baseUnit: 10,
      koreanMaxRaise: 'half',
      endCondition: 'hands',
      handLimit: 20,
      blindUpEvery: 0,
      rebuy: 'unlimited',
      rebuyLimit: 1,
      turnSeconds: 20,
      dealerRule: 'rotate',
      hints: true,
      hiLoLow: 'korean',
      hiLoQualifier: 'none',
      drawLimit: 'any',
      indianCards: 1,
      indianDeck: 'd20',
      indianFoldPenalty: true,
      indianTie: 'carry',
      indianReshuffle: 'whenEmpty',
    });
    const auto = (mode: string) => start({ mode }, 2).betting;
    expect(['holdem', 'omaha', 'indian', 'sevenPoker', 'sevenHiLo', 'badugi', 'fiveDraw'].map(auto)).toEqual([
      'noLimit',
      'potLimit',
      'noLimit',
      'korean',
      'korean',
      'korean',
      'korean',
    ]);
    expect(start({ mode: 'sevenPoker', betting: 'noLimit' }, 2).betting).toBe('noLimit');
    const field = (k: string) => poker.optionFields.find((f) => f.key === k)!;
    expect(field('hiLoLow').modes).toEqual(['sevenHiLo']);
    expect(field('drawLimit').modes).toEqual(['fiveDraw']);
    expect(field('indianTie').modes).toEqual(['indian']);
    expect(field('mode').label).toBe('게임 모드');
    expect(field('mode').choices!.map((c) => c.label)).toContain('7포커');
    expect(poker.modes.map((m) => m.name)).toEqual([
      '7포커',
      '텍사스 홀덤',
      '오마하',
      '7포커 하이로우',
      '바둑이',
      '5카드 드로우',
      '인디언 포커',
    ]);
    expect(poker.name).toBe('포커');
  });

  it('§2.2 — baseUnit × 20 > startingChips면 거부(한국어 메시지), 모르는 옵션도 거부', () => {
    const r = poker.optionsSchema.safeParse({ startingChips: 500, baseUnit: 50 });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toBe('시작 칩은 기본 단위의 20배(1000) 이상이어야 해요');
    expect(poker.optionsSchema.safeParse({ startingChips: 1000, baseUnit: 50 }).success).toBe(true);
    expect(poker.optionsSchema.safeParse({ bogus: 1 }).success).toBe(false);
    expect(poker.optionsSchema.safeParse({ mode: 'stud' }).success).toBe(false);
  });

  it('§2.2 — 모드별 인원 상한: playerRange와 setup의 한국어 거부', () => {
    const range = (o: Record<string, unknown>) => poker.playerRange(poker.optionsSchema.parse(o));
    expect(range({ mode: 'holdem' })).toEqual({ min: 2, max: 10 });
    expect(range({ mode: 'omaha' })).toEqual({ min: 2, max: 10 });
    for (const mode of ['sevenPoker', 'sevenHiLo', 'badugi', 'fiveDraw']) expect(range({ mode }).max).toBe(6);
    expect(range({ mode: 'indian' }).max).toBe(6);
    expect(range({ mode: 'indian', indianDeck: 'd52' }).max).toBe(10);
    expect(range({ mode: 'indian', indianDeck: 'd52', indianCards: 2 }).max).toBe(6);
    expect(() => start({ mode: 'sevenPoker' }, 7)).toThrow('이 모드는 최대 6명까지 할 수 있어요');
    expect(() => start({ mode: 'holdem' }, 1)).toThrow('최소 2명');
    expect(start({ mode: 'indian', indianDeck: 'd52' }, 10).hand!.seatOrder).toHaveLength(10);
  });
});

describe('셋업 (§4)', () => {
  it('§4 — 좌석 순서와 첫 딜러는 시드로 무작위, 시작 칩, 리바이 0, 첫 핸드 시작', () => {
    const seatings = new Set<string>();
    const dealers = new Set<number>();
    for (let i = 0; i < 30; i++) {
      const s = start({ mode: 'holdem' }, 4, `seat-${i}`);
      seatings.add(s.seats.map((x) => x.id).join());
      dealers.add(s.hand!.dealerSeat);
      expect(s.seats.every((x) => x.rebuys === 0 && x.status === 'playing')).toBe(true);
      expect(s.seats.reduce((t, x) => t + x.stack, 0) + 15).toBe(4000);
      expect(s.hand!.handNo).toBe(1);
    }
    expect(seatings.size).toBeGreaterThan(10);
    expect(dealers.size).toBe(4);
    expect(JSON.stringify(start({ mode: 'holdem' }, 4, 'x'))).toBe(JSON.stringify(start({ mode: 'holdem' }, 4, 'x')));
  });

  it('§5.1 — dealerRule: rotate는 다음 좌석, winner는 직전 핸드의 가장 큰 팟 승자', () => {
    let s = start({ mode: 'fiveDraw' }, 3);
    const d1 = s.hand!.dealerSeat;
    s = readyAll(foldOut(s));
    expect(s.hand!.dealerSeat).toBe((d1 + 1) % 3);
    let w = start({ mode: 'fiveDraw', dealerRule: 'winner' }, 3);
    const [A, B, C] = order(w);
    w = act(w, A, { type: 'k.die' });
    w = act(w, B, { type: 'k.ping' });
    w = act(w, C, { type: 'k.die' });
    w = readyAll(w);
    expect(w.seats[w.hand!.dealerSeat].id).toBe(B);
  });
});
