import { describe, expect, it } from 'vitest';
import { act, legal, legalTypes, order, pot, rej, setStacks, start } from './helpers.ts';

describe('노리밋 / 팟리밋 (§5.3)', () => {
  it('§10 — NL: BB 10, A 30 레이즈 후 B의 nl.raise {to:45} 거부(최소 50), {to:50} 허용', () => {
    let s = start({ mode: 'holdem' }, 4);
    const [, , A, B] = order(s);
    expect(s.hand!.betting!.toAct).toBe(A);
    s = act(s, A, { type: 'nl.raise', to: 30 });
    expect(legal(s, B, 'nl.raise').min).toBe(50);
    expect(rej(s, B, { type: 'nl.raise', to: 45 })).toBe('최소 레이즈는 50이에요');
    s = act(s, B, { type: 'nl.raise', to: 50 });
    expect(s.hand!.betting!.currentBet).toBe(50);
    expect(s.publicLog.at(-1)).toMatchObject({ player: B, text: '레이즈', amount: 50 });
    expect(s.hand!.betting!.lastRaiseSize).toBe(20);
  });

  it('issue 15 — the log writes a raise as its raise-to total, like its button, also from a blind', () => {
    let s = start({ mode: 'holdem' }, 4);
    const [SB, BB, A, B] = order(s);
    s = act(s, A, { type: 'nl.call' });
    s = act(s, B, { type: 'nl.call' });
    const before = s.hand!.players[SB].committedRound;
    expect(before).toBeGreaterThan(0);
    s = act(s, SB, { type: 'nl.raise', to: 40 });
    // The small blind added 40 − its blind, but the line says 40, as "레이즈 확인 (40)" did.
    expect(s.publicLog.at(-1)).toMatchObject({ player: SB, text: '레이즈', amount: 40 });
    // A call logs what it paid: the big blind adds 40 minus its blind.
    const bb = s.hand!.players[BB].committedRound;
    s = act(s, BB, { type: 'nl.call' });
    expect(s.publicLog.at(-1)).toMatchObject({ player: BB, text: '콜', amount: 40 - bb });
  });

  it('§10 — NL 불완전 올인: A 벳 100, B 레이즈 300, C 올인 350(불완전) — clarification 9대로 A는 다시 레이즈할 수 있고 B는 콜/폴드만', () => {
    let s = start({ mode: 'holdem' }, 3);
    const [A, B, C] = order(s); // A = SB, B = BB, C = dealer
    s = act(s, C, { type: 'nl.call' });
    s = act(s, A, { type: 'nl.call' });
    s = act(s, B, { type: 'nl.check' });
    expect(s.hand!.board).toHaveLength(3);
    s = setStacks(s, { [C]: 350 }, A);
    s = act(s, A, { type: 'nl.raise', to: 100 });
    s = act(s, B, { type: 'nl.raise', to: 300 });
    s = act(s, C, { type: 'nl.allIn' });
    expect(s.hand!.betting!.currentBet).toBe(350);
    expect(s.hand!.betting!.lastRaiseSize).toBe(200);
    // A acted before B's full raise, so the betting is open again for A.
    expect(legalTypes(s, A)).toEqual(expect.arrayContaining(['nl.fold', 'nl.call', 'nl.raise']));
    s = act(s, A, { type: 'nl.call' });
    // B only faces C's incomplete raise since B's own action.
    expect(legalTypes(s, B).sort()).toEqual(['nl.call', 'nl.fold']);
    expect(rej(s, B, { type: 'nl.raise', to: 600 })).toBe('이번 라운드에서는 더 올릴 수 없어요(콜 또는 다이만 가능)');
    expect(rej(s, B, { type: 'nl.allIn' })).toBe('이번 라운드에서는 더 올릴 수 없어요(콜 또는 다이만 가능)');
    s = act(s, B, { type: 'nl.call' });
    expect(s.hand!.board).toHaveLength(4);
  });

  it('clarification 9 — 불완전 레이즈는 이미 행동했고 그 뒤 풀 레이즈를 맞지 않은 사람에게만 재개되지 않음', () => {
    let s = start({ mode: 'holdem' }, 4);
    const [SB, BB, U, D] = order(s);
    for (const id of [U, D, SB]) s = act(s, id, { type: 'nl.call' });
    s = act(s, BB, { type: 'nl.check' });
    s = setStacks(s, { [BB]: 130 }, D);
    s = act(s, SB, { type: 'nl.raise', to: 100 }); // bet
    s = act(s, BB, { type: 'nl.allIn' }); // 130: +30 < 100, incomplete
    expect(s.hand!.betting!.lastRaiseSize).toBe(100);
    // U has not acted yet: a normal raise is open, minimum 130 + 100.
    expect(legal(s, U, 'nl.raise').min).toBe(230);
    s = act(s, U, { type: 'nl.call' });
    s = act(s, D, { type: 'nl.call' });
    // SB acted and since then faced only the incomplete raise.
    expect(legalTypes(s, SB).sort()).toEqual(['nl.call', 'nl.fold']);
  });

  it('§10 — PL: 판돈 100, 상대 벳 20일 때 최대 to=160, 161 거부 (clarification 11: 이번 라운드 벳 포함)', () => {
    let s = start({ mode: 'omaha' }, 2);
    expect(s.betting).toBe('potLimit');
    const [BB, D] = order(s);
    expect(s.hand!.betting!.toAct).toBe(D);
    expect(legal(s, D, 'nl.raise').max).toBe(30);
    s = act(s, D, { type: 'nl.raise', to: 30 });
    s = act(s, BB, { type: 'nl.raise', to: 50 });
    s = act(s, D, { type: 'nl.call' });
    expect(pot(s)).toBe(100);
    expect(s.hand!.betting!.toAct).toBe(BB);
    s = act(s, BB, { type: 'nl.raise', to: 20 });
    expect(legal(s, D, 'nl.raise').max).toBe(160);
    expect(rej(s, D, { type: 'nl.raise', to: 161 })).toBe('최대 160까지 올릴 수 있어요');
    s = act(s, D, { type: 'nl.raise', to: 160 });
    expect(pot(s)).toBe(280);
  });

  it('clarification 11 — 팟리밋의 pot에는 이번 라운드에 이미 걸린 벳과 콜이 모두 들어감', () => {
    let s = start({ mode: 'omaha' }, 3);
    const [SB, BB, D] = order(s);
    s = act(s, D, { type: 'nl.call' });
    s = act(s, SB, { type: 'nl.call' });
    s = act(s, BB, { type: 'nl.check' });
    expect(pot(s)).toBe(30);
    s = act(s, SB, { type: 'nl.raise', to: 20 });
    s = act(s, BB, { type: 'nl.call' });
    // Middle: 30 settled + 20 + 20 this round = 70; D calls 20 first → max raise-to 20 + 70 + 20 = 110.
    expect(legal(s, D, 'nl.raise').max).toBe(110);
    expect(rej(s, D, { type: 'nl.raise', to: 111 })).toBe('최대 110까지 올릴 수 있어요');
  });

  it('clarification 12 — PL 올인은 committedRound + stack 전체를 팟리밋 최대와 비교', () => {
    let s = start({ mode: 'omaha' }, 3);
    const [SB, BB, D] = order(s);
    // D: pot 15, toCall 10 → cap 10 + 15 + 10 = 35.
    expect(legal(s, D, 'nl.raise').max).toBe(35);
    expect(rej(s, D, { type: 'nl.allIn' })).toBe('팟리밋이라 올인할 수 없어요. 최대 35까지 레이즈할 수 있어요');
    const short = setStacks(s, { [D]: 30 }, SB);
    expect(legal(short, D, 'nl.allIn')).toEqual({ type: 'nl.allIn', amount: 30, to: 30 });
    s = act(short, D, { type: 'nl.allIn' });
    expect(s.hand!.players[D].allIn).toBe(true);
    expect(s.hand!.betting!.currentBet).toBe(30);
    expect(legalTypes(s, SB)).toContain('nl.raise');
    void BB;
  });

  it('clarification 13 — 레이즈 증가분은 baseUnit보다 작아지지 않음(작은 올인 벳 이후에도)', () => {
    let s = start({ mode: 'holdem' }, 3);
    const [A, B, C] = order(s);
    s = act(s, C, { type: 'nl.call' });
    s = act(s, A, { type: 'nl.call' });
    s = act(s, B, { type: 'nl.check' });
    s = setStacks(s, { [A]: 4 }, C);
    s = act(s, A, { type: 'nl.allIn' }); // a 4-chip bet, below the 10 minimum
    expect(s.hand!.betting!.currentBet).toBe(4);
    expect(legal(s, B, 'nl.raise').min).toBe(14);
    expect(rej(s, B, { type: 'nl.raise', to: 8 })).toBe('최소 레이즈는 14이에요');
  });

  it('§5.3 — 최소 벳은 baseUnit이고 currentBet=0에서 레이즈는 "벳"으로 표시', () => {
    let s = start({ mode: 'holdem' }, 3);
    const [A, B, C] = order(s);
    s = act(s, C, { type: 'nl.call' });
    s = act(s, A, { type: 'nl.call' });
    s = act(s, B, { type: 'nl.check' });
    expect(legal(s, A, 'nl.raise')).toEqual({ type: 'nl.raise', min: 10, max: 990, bet: true });
    expect(rej(s, A, { type: 'nl.raise', to: 9 })).toBe('최소 레이즈는 10이에요');
    s = act(s, A, { type: 'nl.raise', to: 10 });
    expect(s.hand!.players[A].lastAction).toBe('벳');
  });

  it('§5.3 — 프리플랍 BB 옵션: 아무도 레이즈하지 않으면 BB가 체크 또는 레이즈', () => {
    let s = start({ mode: 'holdem' }, 3);
    const [SB, BB, D] = order(s);
    s = act(s, D, { type: 'nl.call' });
    s = act(s, SB, { type: 'nl.call' });
    expect(s.hand!.betting!.toAct).toBe(BB);
    expect(legalTypes(s, BB)).toEqual(['nl.fold', 'nl.check', 'nl.raise', 'nl.allIn']);
    s = act(s, BB, { type: 'nl.raise', to: 30 });
    expect(s.hand!.betting!.toAct).toBe(D);
  });

  it('§10 — 헤즈업 홀덤: 딜러가 SB이고 프리플랍 먼저 행동, 플랍부터는 BB가 먼저', () => {
    let s = start({ mode: 'holdem' }, 2);
    const [BB, D] = order(s);
    const h = s.hand!;
    expect(s.seats[h.dealerSeat].id).toBe(D);
    expect(s.seats[h.sbSeat!].id).toBe(D);
    expect(s.seats[h.bbSeat!].id).toBe(BB);
    expect(h.players[D].committedRound).toBe(5);
    expect(h.players[BB].committedRound).toBe(10);
    expect(h.betting!.toAct).toBe(D);
    s = act(s, D, { type: 'nl.call' });
    s = act(s, BB, { type: 'nl.check' });
    expect(s.hand!.board).toHaveLength(3);
    expect(s.hand!.betting!.toAct).toBe(BB);
  });

  it('§5.3 — 플랍 이후는 딜러 다음 좌석의 남은 사람부터', () => {
    let s = start({ mode: 'holdem' }, 4);
    const [SB, BB, U, D] = order(s);
    s = act(s, U, { type: 'nl.call' });
    s = act(s, D, { type: 'nl.call' });
    s = act(s, SB, { type: 'nl.fold' });
    s = act(s, BB, { type: 'nl.check' });
    expect(s.hand!.betting!.toAct).toBe(BB);
    expect(s.hand!.betting!.order).toEqual([BB, U, D]);
  });

  it('§8.5 — NL 시간 초과: toCall=0이면 체크, 아니면 폴드', async () => {
    const { timeout } = await import('./helpers.ts');
    let s = start({ mode: 'holdem' }, 3);
    const [SB, BB, D] = order(s);
    s = timeout(s);
    expect(s.hand!.players[D].folded).toBe(true);
    s = act(s, SB, { type: 'nl.call' });
    s = timeout(s);
    expect(s.hand!.players[BB].folded).toBe(false);
    expect(s.hand!.board).toHaveLength(3);
  });
});
