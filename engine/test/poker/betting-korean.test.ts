import { describe, expect, it } from 'vitest';
import { act, legal, legalTypes, order, pot, rej, stack, start, T0, timeout } from './helpers.ts';
import { poker } from '../../src/games/poker/index.ts';

const NO_MORE = '이번 라운드에서는 더 올릴 수 없어요(콜 또는 다이만 가능)';

describe('한국식 판돈 베팅 (§5.2)', () => {
  it('§10 — 한국식 5.2 예시: 앤티 40 → 삥 10 → 하프 40 → 따당 80 → 다이 → 콜 70 → 콜 40, 팟 280에서 라운드 종료', () => {
    let s = start({ mode: 'badugi', baseUnit: 10, koreanMaxRaise: 'half' }, 4);
    const [A, B, C, D] = order(s);
    expect(s.hand!.betting!.toAct).toBe(A);
    expect(pot(s)).toBe(40);
    s = act(s, A, { type: 'k.ping' });
    expect(pot(s)).toBe(50);
    expect(s.hand!.betting!.currentBet).toBe(10);
    expect(legal(s, B, 'k.half').amount).toBe(40);
    s = act(s, B, { type: 'k.half' });
    expect(pot(s)).toBe(90);
    expect(s.hand!.betting!.currentBet).toBe(40);
    expect(legal(s, C, 'k.ddadang').amount).toBe(80);
    s = act(s, C, { type: 'k.ddadang' });
    expect(pot(s)).toBe(170);
    s = act(s, D, { type: 'k.die' });
    expect(legalTypes(s, A).sort()).toEqual(['k.call', 'k.die']);
    expect(legal(s, A, 'k.call').amount).toBe(70);
    s = act(s, A, { type: 'k.call' });
    expect(pot(s)).toBe(240);
    expect(legalTypes(s, B).sort()).toEqual(['k.call', 'k.die']);
    s = act(s, B, { type: 'k.call' });
    expect(pot(s)).toBe(280);
    expect(s.hand!.phase).toBe('draw');
    expect(s.hand!.pots.reduce((t, p) => t + p.amount, 0)).toBe(280);
    for (const id of [A, B, C]) expect(s.hand!.players[id].committedTotal).toBe(90);
  });

  it('§10 — 한국식: 콜 또는 체크한 플레이어가 같은 라운드에서 k.half를 보내면 거부', () => {
    let s = start({ mode: 'badugi' }, 4);
    const [A, B, C, D] = order(s);
    s = act(s, A, { type: 'k.check' });
    s = act(s, B, { type: 'k.ping' });
    s = act(s, C, { type: 'k.call' });
    s = act(s, D, { type: 'k.half' });
    expect(rej(s, A, { type: 'k.half' })).toBe(NO_MORE);
    s = act(s, A, { type: 'k.call' });
    s = act(s, B, { type: 'k.call' });
    expect(rej(s, C, { type: 'k.half' })).toBe(NO_MORE);
    expect(legalTypes(s, C).sort()).toEqual(['k.call', 'k.die']);
  });

  it('§10 — 한국식: 보스 체크 후 다음 사람 삥 가능, 이후 보스는 콜/다이만 가능', () => {
    let s = start({ mode: 'fiveDraw' }, 3);
    const [A, B, C] = order(s);
    s = act(s, A, { type: 'k.check' });
    expect(legalTypes(s, B)).toContain('k.ping');
    expect(legalTypes(s, B)).toContain('k.check');
    s = act(s, B, { type: 'k.ping' });
    s = act(s, C, { type: 'k.call' });
    expect(s.hand!.betting!.toAct).toBe(A);
    expect(legalTypes(s, A).sort()).toEqual(['k.call', 'k.die']);
    expect(rej(s, A, { type: 'k.ping' })).toBe('이미 누가 걸어서 삥을 할 수 없어요');
  });

  it('§10 — 한국식: 전원 체크 시 베팅 없이 다음 카드로 진행', () => {
    let s = start({ mode: 'badugi' }, 4);
    for (const id of order(s)) s = act(s, id, { type: 'k.check' });
    expect(s.hand!.phase).toBe('draw');
    expect(pot(s)).toBe(40);
    for (const id of order(s)) expect(s.hand!.players[id].committedTotal).toBe(10);
  });

  it('§10 — 한국식 koreanMaxRaise=half에서 k.full 거부', () => {
    const s = start({ mode: 'badugi', koreanMaxRaise: 'half' }, 3);
    const A = order(s)[0];
    expect(rej(s, A, { type: 'k.full' })).toBe('이 방은 하프까지만 올릴 수 있어요');
    expect(legalTypes(s, A)).not.toContain('k.full');
    const full = start({ mode: 'badugi', koreanMaxRaise: 'full' }, 3);
    expect(legal(full, order(full)[0], 'k.full').amount).toBe(30);
  });

  it('§5.2 — 쿼터/하프/풀 금액은 콜 후 판돈 기준이고 추가분은 최소 baseUnit', () => {
    let s = start({ mode: 'badugi', koreanMaxRaise: 'full', baseUnit: 10 }, 4);
    const [A, B] = order(s);
    // opened=false: floor(40/4)=10, floor(40/2)=20, 40.
    expect(legal(s, A, 'k.quarter').amount).toBe(10);
    expect(legal(s, A, 'k.half').amount).toBe(20);
    expect(legal(s, A, 'k.full').amount).toBe(40);
    s = act(s, A, { type: 'k.ping' });
    // toCall 10, pot 50: 10 + floor(60/4)=25, 10 + 30 = 40, 10 + 60 = 70, 따당 20.
    expect(legal(s, B, 'k.quarter').amount).toBe(25);
    expect(legal(s, B, 'k.half').amount).toBe(40);
    expect(legal(s, B, 'k.full').amount).toBe(70);
    expect(legal(s, B, 'k.ddadang').amount).toBe(20);
    const tiny = start({ mode: 'badugi', baseUnit: 50, startingChips: 1000 }, 2);
    // pot 100: quarter = floor(100/4) = 25 < baseUnit 50, so it is raised to 50.
    expect(legal(tiny, order(tiny)[0], 'k.quarter').amount).toBe(50);
  });

  it('§5.2 — 올인: 스택보다 큰 금액은 올인, toCall보다 적으면 부분 콜로 사이드 팟', () => {
    let s = start({ mode: 'badugi', koreanMaxRaise: 'full' }, 3);
    const [A, B, C] = order(s);
    s = structuredClone(s);
    // A keeps 60 behind, the rest goes to C (chips conserved).
    const seatA = s.seats.find((x) => x.id === A)!;
    s.seats.find((x) => x.id === C)!.stack += seatA.stack - 60;
    seatA.stack = 60;
    s = act(s, A, { type: 'k.check' });
    s = act(s, B, { type: 'k.full' }); // pot 30 → 30
    s = act(s, C, { type: 'k.full' }); // toCall 30, pot 60: 30 + 90 = 120
    expect(legal(s, A, 'k.call')).toEqual({ type: 'k.call', amount: 60, allIn: true });
    s = act(s, A, { type: 'k.call' });
    expect(s.hand!.players[A].allIn).toBe(true);
    s = act(s, B, { type: 'k.call' });
    expect(s.hand!.phase).toBe('draw');
    // Main pot 30 antes + 3 × 60, side pot 2 × 60 between B and C.
    expect(s.hand!.pots).toEqual([
      { amount: 210, eligible: [A, B, C] },
      { amount: 120, eligible: [B, C] },
    ]);
  });

  it('§5.2 — 올인 금액이 toCall보다 크면 레이즈로 취급되고 다른 사람의 레이즈 가능 여부는 그대로', () => {
    let s = start({ mode: 'badugi' }, 3);
    const [A, B, C] = order(s);
    s = structuredClone(s);
    const seatB = s.seats.find((x) => x.id === B)!;
    s.seats.find((x) => x.id === C)!.stack += seatB.stack - 25;
    seatB.stack = 25;
    s = act(s, A, { type: 'k.ping' });
    expect(legal(s, B, 'k.half')).toEqual({ type: 'k.half', amount: 25, allIn: true });
    s = act(s, B, { type: 'k.half' });
    expect(s.hand!.betting!.currentBet).toBe(25);
    expect(legalTypes(s, C)).toContain('k.half');
    s = act(s, C, { type: 'k.call' });
    expect(legalTypes(s, A).sort()).toEqual(['k.call', 'k.die']);
  });

  it('§10 — 시간 초과: 한국식 베팅에서 toCall>0이면 자동 다이, opened=false면 자동 체크', () => {
    let s = start({ mode: 'badugi' }, 3);
    const [A, B, C] = order(s);
    expect(poker.deadline(s)).toBe(T0 + 20_000);
    s = timeout(s);
    expect(s.hand!.players[A].lastAction).toBe('체크');
    expect(s.hand!.players[A].folded).toBe(false);
    s = act(s, B, { type: 'k.ping' });
    s = timeout(s);
    expect(s.hand!.players[C].folded).toBe(true);
    expect(s.hand!.betting!.toAct).toBe(A);
    expect(stack(s, C)).toBe(990);
  });

  it('§5.2 — 다이는 언제나 가능하고 다이한 사람은 다시 행동할 수 없음', () => {
    let s = start({ mode: 'badugi' }, 3);
    const [A, B] = order(s);
    s = act(s, A, { type: 'k.die' });
    expect(rej(s, A, { type: 'k.call' })).toBe('이번 판에서 이미 다이했어요');
    expect(rej(s, A, { type: 'k.check' })).toBe('이번 판에서 이미 다이했어요');
    expect(s.hand!.betting!.toAct).toBe(B);
  });

  it('§8.2 — 내 차례가 아니거나 다른 베팅 방식의 행동은 거부', () => {
    const s = start({ mode: 'badugi' }, 3);
    const [, B] = order(s);
    expect(rej(s, B, { type: 'k.check' })).toBe('지금은 내 차례가 아니에요');
    expect(rej(s, order(s)[0], { type: 'nl.check' })).toBe('이 방의 베팅 방식에서는 쓸 수 없는 행동이에요');
  });

  it('clarification 10 — 블라인드 위 한국식 베팅: 블라인드가 오프닝 베팅, BB는 옵션(체크/레이즈)을 가짐', () => {
    let s = start({ mode: 'holdem', betting: 'korean' }, 3);
    const [SB, BB, D] = order(s);
    const b = s.hand!.betting!;
    expect(b.opened).toBe(true);
    expect(b.currentBet).toBe(10);
    expect(b.toAct).toBe(D);
    expect(legalTypes(s, D)).not.toContain('k.ping');
    expect(legalTypes(s, D)).not.toContain('k.check');
    s = act(s, D, { type: 'k.call' });
    expect(legal(s, SB, 'k.call').amount).toBe(5);
    s = act(s, SB, { type: 'k.call' });
    expect(s.hand!.betting!.toAct).toBe(BB);
    expect(legalTypes(s, BB).sort()).toEqual(['k.check', 'k.die', 'k.half', 'k.quarter']);
    s = act(s, BB, { type: 'k.check' });
    expect(s.hand!.board).toHaveLength(3);
  });
});
