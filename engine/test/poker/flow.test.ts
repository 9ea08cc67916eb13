import { describe, expect, it } from 'vitest';
import { poker } from '../../src/games/poker/index.ts';
import {
  act,
  actEv,
  checkDown,
  checkRound,
  legalTypes,
  order,
  readyAll,
  rej,
  rig,
  rigSeven,
  setStacks,
  stack,
  start,
  T0,
  timeout,
  viewOf,
} from './helpers.ts';
import { allCards } from '../../src/games/poker/sim.ts';
import type { PokerState } from '../../src/games/poker/types.ts';

const ids = (s: PokerState) => allCards(s).map((c) => c.id);

describe('공통 핸드 흐름 (§5.1)', () => {
  it('§5.1 — 앤티는 committedRound가 아닌 판돈으로 바로 가고, 블라인드는 라운드 베팅에 들어감', () => {
    const s = start({ mode: 'sevenPoker' }, 3);
    for (const id of order(s)) {
      expect(s.hand!.players[id].committedTotal).toBe(10);
      expect(s.hand!.players[id].committedRound).toBe(0);
    }
    expect(s.hand!.pots).toEqual([{ amount: 30, eligible: order(s) }]);
    const h = start({ mode: 'holdem' }, 3).hand!;
    expect(h.pots[0].amount).toBe(0);
    expect(h.players[h.seatOrder[0]].committedRound).toBe(5);
    expect(h.players[h.seatOrder[1]].committedRound).toBe(10);
  });

  it('§5.1 — 카드는 딜러 다음 좌석부터 한 장씩 돌리고 덱은 핸드 시드로 섞은 순서 그대로', async () => {
    const { deriveSeed } = await import('../../src/core/commit.ts');
    const { Rng } = await import('../../src/core/rng.ts');
    const { deck52 } = await import('../../src/games/poker/cards.ts');
    const s = start({ mode: 'holdem' }, 3, 'deal-order');
    const deck = Rng.fromSeed(deriveSeed('deal-order', 'hand:1')).shuffle(deck52());
    const [a, b, c] = order(s);
    expect(s.hand!.players[a].hole).toEqual([deck[0], deck[3]]);
    expect(s.hand!.players[b].hole).toEqual([deck[1], deck[4]]);
    expect(s.hand!.players[c].hole).toEqual([deck[2], deck[5]]);
    expect(s.hand!.deck).toEqual(deck.slice(6));
  });

  it('§5.1 — 강제 베팅보다 칩이 적으면 전부 내고 올인', () => {
    let s = start({ mode: 'badugi' }, 3);
    const [A, , C] = order(s);
    s = setStacks(readyAll(checkDown(s)), {}, A);
    // Play the hand out quickly, then give A only 4 chips before the next hand.
    while (s.hand!.phase !== 'handEnd') {
      if (s.hand!.phase === 'draw') for (const id of order(s)) s = act(s, id, { type: 'draw', cardIds: [] });
      s = checkDown(s);
    }
    s = setStacks(s, { [A]: 4 }, C);
    s = readyAll(s);
    const h = s.hand!;
    expect(h.handNo).toBe(2);
    expect(h.players[A].committedTotal).toBe(4);
    expect(h.players[A].allIn).toBe(true);
    expect(h.pots[0]).toEqual({ amount: 12, eligible: order(s) });
  });

  it('§5.1 — 한 명만 남으면 카드 공개 없이 모든 팟을 가져감', () => {
    let s = start({ mode: 'fiveDraw' }, 3);
    const [A, B, C] = order(s);
    s = act(s, A, { type: 'k.ping' });
    s = act(s, B, { type: 'k.die' });
    s = act(s, C, { type: 'k.die' });
    expect(s.hand!.phase).toBe('handEnd');
    expect(s.hand!.showdown).toBeNull();
    expect(stack(s, A)).toBe(1020);
    expect(
      viewOf(s, B)
        .hand!.players.find((p) => p.id === A)!
        .hole.every((c) => 'hidden' in c),
    ).toBe(true);
  });

  it('§5.1 — 핸드 종료: 전원 "다음 판" 또는 4초 후 다음 핸드', () => {
    let s = start({ mode: 'fiveDraw' }, 2);
    const [A, B] = order(s);
    s = act(s, A, { type: 'k.die' });
    expect(poker.deadline(s)).toBe(T0 + 1000 + 4000);
    s = act(s, A, { type: 'ready' });
    expect(rej(s, A, { type: 'ready' })).toBe('이미 준비했어요');
    expect(s.hand!.handNo).toBe(1);
    s = act(s, B, { type: 'ready' });
    expect(s.hand!.handNo).toBe(2);
    s = act(s, order(s)[0], { type: 'k.die' });
    s = timeout(s);
    expect(s.hand!.handNo).toBe(3);
  });
});

describe('텍사스 홀덤 (§5.4.1)', () => {
  it('§5.4.1 — 번 카드 1장 후 플랍 3장, 턴·리버 각각 번 1장 + 1장, 쇼다운은 7장 중 아무 5장', () => {
    let s = start({ mode: 'holdem' }, 2);
    const [BB, D] = order(s);
    s = rig(s, { hole: { [BB]: 'Ac 3d', [D]: 'Qh Jh' }, deck: '2c Ks Kd 7c 3c 4h 4c 2s' });
    s = act(s, D, { type: 'nl.call' });
    s = act(s, BB, { type: 'nl.check' });
    expect(s.hand!.board.map((c) => c.rank)).toEqual([13, 13, 7]);
    expect(s.hand!.muck).toHaveLength(1);
    s = checkDown(s);
    s = checkDown(s);
    s = checkDown(s);
    expect(s.hand!.muck).toHaveLength(3);
    expect(s.hand!.phase).toBe('handEnd');
    expect(s.hand!.showdown!.map((e) => e.handName)).toEqual(['원페어', '원페어']);
    expect(stack(s, BB)).toBe(1010);
  });

  it('§10 — 홀덤 분할: 보드 플레이 동점 시 균등 분할, 홀수 칩은 딜러 다음 좌석 쪽 승자', () => {
    let s = start({ mode: 'holdem' }, 3);
    const [SB, BB, D] = order(s);
    s = rig(s, { hole: { [SB]: '2c 3d', [BB]: 'Kc 3h', [D]: 'Qh Jh' }, deck: '2h 9s 9d 8c 4c 8h 5c As' });
    s = act(s, D, { type: 'nl.call' });
    s = act(s, SB, { type: 'nl.fold' });
    s = act(s, BB, { type: 'nl.check' });
    s = checkDown(checkDown(checkDown(s)));
    expect(s.hand!.phase).toBe('handEnd');
    // Pot 25 (5 from the folded small blind): BB sits nearer the dealer's left and gets the odd chip.
    expect(s.hand!.awards).toEqual([
      { potIndex: 0, to: BB, amount: 13 },
      { potIndex: 0, to: D, amount: 12 },
    ]);
  });
});

describe('7포커 (§5.4.3)', () => {
  it('§10 — 7포커 초이스 동시 진행: 한 명만 골랐을 때 다른 사람 화면에 그 사람의 오픈 카드가 안 보이고 전원 완료 후 동시 공개', () => {
    let s = start({ mode: 'sevenPoker' }, 3);
    const [A, B, C] = order(s);
    expect(s.hand!.phase).toBe('choice');
    const cards = s.hand!.players[A].choice!;
    s = act(s, A, { type: 'choose', discardId: cards[0].id, openId: cards[1].id });
    for (const viewer of [B, C, null]) {
      const pa = viewOf(s, viewer).hand!.players.find((p) => p.id === A)!;
      expect(pa.up).toEqual([]);
      expect(pa.choiceDone).toBe(true);
      expect(pa.choice!.every((c) => 'hidden' in c && !('id' in c))).toBe(true);
      expect(JSON.stringify(viewOf(s, viewer))).not.toContain(`"id":${cards[1].id},`);
    }
    expect(rej(s, A, { type: 'choose', discardId: cards[2].id, openId: cards[3].id })).toBe('이미 골랐어요');
    s = act(s, B, {
      type: 'choose',
      discardId: s.hand!.players[B].choice![0].id,
      openId: s.hand!.players[B].choice![1].id,
    });
    const r = actEv(s, C, {
      type: 'choose',
      discardId: s.hand!.players[C].choice![0].id,
      openId: s.hand!.players[C].choice![1].id,
    });
    s = r.state;
    const reveal = r.events.find((e) => e.type === 'choiceReveal') as any;
    expect(reveal.open.map((o: any) => o.player)).toEqual([A, B, C]);
    expect(s.hand!.players[A].up[0]).toEqual(cards[1]);
    // 3구 betting does not exist: the 4th card is already dealt and betting starts.
    expect(s.hand!.players[A].up).toHaveLength(2);
    expect(s.hand!.players[A].hole).toHaveLength(2);
    expect(s.hand!.phase).toBe('betting');
    // The discard is shown to its owner only.
    expect(viewOf(s, A).hand!.players.find((p) => p.id === A)!.discarded).toEqual(cards[0]);
    expect(viewOf(s, B).hand!.players.find((p) => p.id === A)!.discarded).toBeNull();
    expect(JSON.stringify(viewOf(s, B))).not.toContain(`"id":${cards[0].id},`);
  });

  it('§10 — 7포커 보스: 오픈 카드 원페어가 탑보다 먼저 행동, 같은 숫자면 무늬로', () => {
    let s = start({ mode: 'sevenPoker' }, 3);
    const [A, B, C] = order(s);
    s = rigSeven(s, {
      [A]: { choice: '2c As 3d 4h', streets: 'Kd 5c 6c 9c' },
      [B]: { choice: '2d 8s 3s 4s', streets: '8d 5d 6d 9d' },
      [C]: { choice: '2h Qs 3h 4d', streets: 'Js 5h 6h 9h' },
    });
    expect(s.hand!.boss).toBe(B);
    expect(s.hand!.betting!.toAct).toBe(B);
    expect(s.hand!.betting!.order).toEqual([B, C, A]);
    let t = start({ mode: 'sevenPoker' }, 3, 'boss-2');
    const [X, Y, Z] = order(t);
    t = rigSeven(t, {
      [X]: { choice: '2c 7d 3d 4h', streets: '7h 5c 6c 9c' },
      [Y]: { choice: '2d 7c 3s 4s', streets: '7s Kd 6d 9d' },
      [Z]: { choice: '2h Qs 3h 4d', streets: 'Js 5h 6h 9h' },
    });
    expect(t.hand!.boss).toBe(Y);
    t = checkRound(t);
    // Street 5: X 7-7 + 5 vs Y 7-7 + K — both a pair of sevens; Y holds 7♠ so stays boss.
    expect(t.hand!.boss).toBe(Y);
    expect(Z).toBeDefined();
  });

  it('§5.4.3 — 4구·5구·6구 오픈, 7구 히든, 쇼다운은 7장 중 최고 5장(한국식 족보)', () => {
    let s = start({ mode: 'sevenPoker' }, 2);
    const [A, B] = order(s);
    s = rigSeven(s, {
      [A]: { choice: '2c 7s 7c 4h', streets: 'Kd 5c 6c 9c' },
      [B]: { choice: '2d 7d 7h 4s', streets: '8d Ad Qh Jc' },
    });
    s = checkRound(s);
    expect(s.hand!.players[A].up).toHaveLength(3);
    s = checkRound(checkRound(s));
    expect(s.hand!.players[A].up).toHaveLength(4);
    expect(s.hand!.players[A].hole).toHaveLength(3);
    s = checkRound(s);
    expect(s.hand!.phase).toBe('handEnd');
    expect(s.hand!.showdown!.map((e) => e.handName)).toEqual(['원페어', '원페어']);
    expect(s.hand!.awards![0].to).toBe(A);
  });

  it('§5.4.3 — 다이한 사람의 히든 카드는 공개하지 않고 오픈 카드는 그대로', () => {
    let s = start({ mode: 'sevenPoker' }, 3);
    const [A, B, C] = order(s);
    s = rigSeven(s, {
      [A]: { choice: '2c As 3d 4h', streets: 'Kd 5c 6c 9c' },
      [B]: { choice: '2d 8s 3s 4s', streets: '8d 5d 6d 9d' },
      [C]: { choice: '2h Qs 3h 4d', streets: 'Js 5h 6h 9h' },
    });
    s = act(s, B, { type: 'k.ping' });
    s = act(s, C, { type: 'k.die' });
    const pc = viewOf(s, A).hand!.players.find((p) => p.id === C)!;
    expect(pc.up.map((c) => c.rank)).toEqual([12, 11]);
    expect(pc.hole.every((c) => 'hidden' in c)).toBe(true);
  });
});

describe('7포커 하이로우 (§5.4.4, §6.6)', () => {
  const plans = (A: string, B: string, C: string) => ({
    // A: full house (high); B: 7-top low; C: flush with an 8 low (swing).
    [A]: { choice: '2c Ks Kd 9h', streets: 'Kh 9c 3d Qd' },
    [B]: { choice: 'Kc As 2d 3s', streets: '4c 7d Jc Qs' },
    [C]: { choice: 'Tc 2h 3h 5h', streets: '8h Th Js Jd' },
  });

  it('§10 — 하이로우 스윙 실패: 스윙이 하이에서 지면 제외되고 하이 승자·로우 승자가 반분', () => {
    let s = start({ mode: 'sevenHiLo' }, 3);
    const [A, B, C] = order(s);
    s = checkDown(rigSeven(s, plans(A, B, C)));
    while (s.hand!.phase === 'betting') s = checkDown(s);
    expect(s.hand!.phase).toBe('declare');
    s = act(s, A, { type: 'declare', side: 'high' });
    // Declarations stay secret until everyone has declared.
    expect(viewOf(s, B).hand!.players.find((p) => p.id === A)!.declare).toBeNull();
    expect(viewOf(s, A).hand!.players.find((p) => p.id === A)!.declare).toBe('high');
    s = act(s, B, { type: 'declare', side: 'low' });
    s = act(s, C, { type: 'declare', side: 'swing' });
    expect(s.hand!.phase).toBe('handEnd');
    const entries = Object.fromEntries(s.hand!.showdown!.map((e) => [e.id, e]));
    expect(entries[A].handName).toBe('풀하우스');
    expect(entries[C].handName).toBe('플러시');
    expect(entries[B].lowName).toBe('7탑 로우');
    expect(s.hand!.awards).toEqual([
      { potIndex: 0, to: A, amount: 15, side: 'high' },
      { potIndex: 0, to: B, amount: 15, side: 'low' },
    ]);
  });

  it('§10 — 하이로우: 로우 선언자가 없으면 하이 승자가 전부', () => {
    let s = start({ mode: 'sevenHiLo' }, 3);
    const [A, B, C] = order(s);
    s = rigSeven(s, plans(A, B, C));
    while (s.hand!.phase === 'betting') s = checkDown(s);
    s = act(s, A, { type: 'declare', side: 'high' });
    s = act(s, B, { type: 'declare', side: 'high' });
    s = act(s, C, { type: 'declare', side: 'swing' });
    expect(s.hand!.awards).toEqual([{ potIndex: 0, to: A, amount: 30, side: 'high' }]);
  });

  it('§6.6 — 스윙이 하이와 로우 모두 엄격히 이기면 팟 전부(스쿱)', () => {
    let s = start({ mode: 'sevenHiLo' }, 3);
    const [A, B, C] = order(s);
    s = rigSeven(s, {
      [A]: { choice: '2c Ks Kd 9h', streets: 'Qh 9c 3d Qd' },
      [B]: { choice: 'Kc Jd Js 8s', streets: '4c 7d Jc Qs' },
      [C]: { choice: 'Tc Ah 2h 3h', streets: '4h 5h 7s 9d' },
    });
    while (s.hand!.phase === 'betting') s = checkDown(s);
    s = act(s, A, { type: 'declare', side: 'high' });
    s = act(s, B, { type: 'declare', side: 'low' });
    s = act(s, C, { type: 'declare', side: 'swing' });
    expect(s.hand!.awards).toEqual([{ potIndex: 0, to: C, amount: 30, side: 'scoop' }]);
  });

  it('§10 — 하이로우 홀수 칩: 팟 101 → 하이 51, 로우 50', () => {
    let s = start({ mode: 'sevenHiLo' }, 3);
    const [A, B, C] = order(s);
    s = rigSeven(s, plans(A, B, C));
    while (s.hand!.phase === 'betting') s = checkDown(s);
    // Make the contributions 34 + 34 + 33 = 101 (pots are always rebuilt from contributions).
    s = structuredClone(s);
    for (const [id, extra] of [
      [A, 24],
      [B, 24],
      [C, 23],
    ] as const) {
      s.hand!.players[id].committedTotal += extra;
      s.seats.find((x) => x.id === id)!.stack -= extra;
    }
    s.hand!.pots = [{ amount: 101, eligible: [A, B, C] }];
    s = act(s, A, { type: 'declare', side: 'high' });
    s = act(s, B, { type: 'declare', side: 'low' });
    s = act(s, C, { type: 'declare', side: 'high' });
    expect(s.hand!.awards).toEqual([
      { potIndex: 0, to: A, amount: 51, side: 'high' },
      { potIndex: 0, to: B, amount: 50, side: 'low' },
    ]);
  });

  it('§5.4.4 — 남은 사람이 1명이면 선언 없이 가져가고, 올인한 사람도 선언함', () => {
    let s = start({ mode: 'sevenHiLo' }, 2);
    const [A, B] = order(s);
    s = rigSeven(s, {
      [A]: { choice: '2c Ks Kd 9h', streets: 'Kh 9c 3d Qd' },
      [B]: { choice: 'Kc As 2d 3s', streets: '4c 7d Jc Qs' },
    });
    s = setStacks(s, { [B]: 5 }, A);
    s = act(s, s.hand!.betting!.toAct!, { type: 'k.ping' });
    s = act(s, s.hand!.betting!.toAct!, { type: 'k.call' });
    expect(s.hand!.players[B].allIn).toBe(true);
    expect(s.hand!.phase).toBe('declare');
    expect(legalTypes(s, B)).toEqual(['declare']);
    // Both choices made by the clock; the first player to bet dies: no declaration, the other takes the pot.
    let t = timeout(start({ mode: 'sevenHiLo' }, 2));
    t = act(t, t.hand!.betting!.toAct!, { type: 'k.die' });
    expect(t.hand!.phase).toBe('handEnd');
    expect(t.hand!.showdown).toBeNull();
    expect(Object.values(t.hand!.players).every((p) => p.declare === null)).toBe(true);
  });
});

describe('바둑이 (§5.4.5)', () => {
  it('§5.4.5 — 베팅 4번과 교환 3번(아침/점심/저녁), 교환 장수는 공개', () => {
    let s = start({ mode: 'badugi' }, 3);
    const [A, B, C] = order(s);
    let draws = 0;
    while (s.hand!.phase !== 'handEnd') {
      s = checkDown(s);
      if (s.hand!.phase === 'draw') {
        draws++;
        const cards = s.hand!.players[A].hole;
        s = act(s, A, { type: 'draw', cardIds: [cards[0].id] });
        expect(viewOf(s, B).hand!.players.find((p) => p.id === A)!.drawDone).toBe(true);
        s = act(s, B, { type: 'draw', cardIds: [] });
        s = act(s, C, { type: 'draw', cardIds: s.hand!.players[C].hole.map((c) => c.id) });
      }
    }
    expect(draws).toBe(3);
    expect(viewOf(s, B).hand!.players.map((p) => p.drawCounts)).toEqual([
      [1, 1, 1],
      [0, 0, 0],
      [4, 4, 4],
    ]);
  });

  it('§10 — 바둑이 덱 부족: 6인 박스 반복 시 버린 카드 재섞기 후 정확한 장수 지급, 카드 중복 없음(52장 보존)', () => {
    let s = start({ mode: 'badugi' }, 6);
    const all = ids(s).sort((a, b) => a - b);
    expect(all).toEqual(Array.from({ length: 52 }, (_, i) => i));
    let reshuffles = 0;
    while (s.hand!.phase !== 'handEnd') {
      s = checkDown(s);
      if (s.hand!.phase !== 'draw') continue;
      for (const id of order(s)) {
        const r = actEv(s, id, { type: 'draw', cardIds: s.hand!.players[id].hole.map((c) => c.id) });
        s = r.state;
        const ex = r.events.find((e) => e.type === 'exchanged') as any;
        if (ex) reshuffles += ex.reshuffled;
      }
      for (const id of order(s)) expect(s.hand!.players[id].hole).toHaveLength(4);
      expect(ids(s).sort((a, b) => a - b)).toEqual(all);
    }
    expect(reshuffles).toBeGreaterThanOrEqual(2);
  });

  it('§5.4.5 — 덱과 이전 버린 카드로도 모자라면 이번 교환에서 버린 카드까지 섞음', () => {
    let s = start({ mode: 'fiveDraw' }, 6);
    s = checkDown(s);
    for (const id of order(s)) s = act(s, id, { type: 'draw', cardIds: s.hand!.players[id].hole.map((c) => c.id) });
    // 22 left in the deck, no earlier discards: 8 of the 30 replacements come from this exchange's discards.
    for (const id of order(s)) expect(s.hand!.players[id].hole).toHaveLength(5);
    expect(new Set(ids(s)).size).toBe(52);
    expect(s.hand!.muck).toHaveLength(0);
    expect(s.hand!.deck).toHaveLength(22);
  });
});

describe('5카드 드로우 (§5.4.6)', () => {
  it('§10 — 드로우 three: A 없이 4장 교환 거부, A를 남기고 4장 교환 허용', () => {
    let s = start({ mode: 'fiveDraw', drawLimit: 'three' }, 2);
    const [A, B] = order(s);
    s = rig(s, { hole: { [A]: 'As 3d 5h 7c 9s', [B]: 'Kd 2c 4h 6s 8d' } });
    s = checkDown(s);
    expect(s.hand!.phase).toBe('draw');
    const a = s.hand!.players[A].hole.map((c) => c.id);
    const b = s.hand!.players[B].hole.map((c) => c.id);
    expect(rej(s, B, { type: 'draw', cardIds: b.slice(0, 4) })).toBe('A를 남길 때만 4장까지 바꿀 수 있어요');
    expect(rej(s, A, { type: 'draw', cardIds: a.slice(0, 4) })).toBe('A를 남길 때만 4장까지 바꿀 수 있어요');
    expect(rej(s, A, { type: 'draw', cardIds: a })).toBe('최대 3장까지 바꿀 수 있어요');
    expect(viewOf(s, A).legalActions).toEqual([{ type: 'draw', max: 3, maxWithAce: 4 }]);
    s = act(s, A, { type: 'draw', cardIds: a.slice(1) });
    s = act(s, B, { type: 'draw', cardIds: b.slice(0, 3) });
    expect(s.hand!.players[A].hole[0].rank).toBe(14);
    expect(s.hand!.players[A].drawCounts).toEqual([4]);
    const any = start({ mode: 'fiveDraw' }, 2);
    const t = checkDown(any);
    const [P, Q] = order(t);
    const u = act(t, P, { type: 'draw', cardIds: t.hand!.players[P].hole.map((c) => c.id) });
    expect(act(u, Q, { type: 'draw', cardIds: [] }).hand!.players[P].drawCounts).toEqual([5]);
  });
});

describe('올인과 사이드 팟 (§5.5)', () => {
  it('§10 — 사이드 팟: A 100 올인 / B 300 올인 / C 500 → 메인 300(ABC), 사이드 400(BC), C에게 200 반환, A 최강이면 A 300', () => {
    let s = start({ mode: 'holdem' }, 3);
    const [A, B, C] = order(s); // A = SB, B = BB, C = dealer (acts first)
    s = setStacks(s, { [A]: 95, [B]: 290 }, C);
    s = rig(s, { hole: { [A]: 'As Ad', [B]: 'Ks Kd', [C]: '7c 2d' }, deck: '3c Ah 9s 4d 5c Jc 6c 8h' });
    const before = stack(s, C);
    s = act(s, C, { type: 'nl.raise', to: 500 });
    s = act(s, A, { type: 'nl.allIn' });
    const r = actEv(s, B, { type: 'nl.allIn' });
    s = r.state;
    expect(r.events).toContainEqual({ type: 'returned', player: C, amount: 200 });
    expect(s.hand!.phase).toBe('handEnd');
    expect(s.hand!.awards).toEqual([
      { potIndex: 1, to: B, amount: 400 },
      { potIndex: 0, to: A, amount: 300 },
    ]);
    expect(stack(s, C)).toBe(before - 300);
  });

  it('§5.5 — 다이한 사람의 칩은 그 레벨 팟에 남고, 자격자가 1명뿐인 팟은 쇼다운 없이 돌려줌', async () => {
    const { computePots } = await import('../../src/games/poker/pots.ts');
    const h: any = {
      seatOrder: ['a', 'b', 'c', 'd'],
      players: {
        a: { committedTotal: 50, committedRound: 0, folded: false, allIn: true },
        b: { committedTotal: 120, committedRound: 0, folded: false, allIn: false },
        c: { committedTotal: 80, committedRound: 0, folded: true, allIn: false },
        d: { committedTotal: 120, committedRound: 0, folded: false, allIn: false },
      },
    };
    expect(computePots(h)).toEqual([
      { amount: 200, eligible: ['a', 'b', 'd'] },
      { amount: 170, eligible: ['b', 'd'] },
    ]);
    let s = start({ mode: 'holdem' }, 3);
    const [SB, BB, D] = order(s);
    s = setStacks(s, { [SB]: 45 }, D);
    s = act(s, D, { type: 'nl.raise', to: 200 });
    s = act(s, SB, { type: 'nl.allIn' });
    s = act(s, BB, { type: 'nl.fold' });
    // Main pot: 50 × 2 + BB's 10; the rest of D's raise comes back as uncalled.
    expect(s.hand!.phase).toBe('handEnd');
    expect(s.hand!.awards!.reduce((t, a) => t + a.amount, 0)).toBe(110);
  });
});

describe('인디언 포커 (§5.4.7)', () => {
  it('§10 — 인디언 1장: 본인 view의 자기 이마 카드가 null, 다른 플레이어 view에는 값이 있음, 관전자 view에는 핸드 종료 전 null', () => {
    let s = start({ mode: 'indian' }, 3);
    const [A, B, C] = order(s);
    const card = s.hand!.players[A].forehead!;
    const mine = viewOf(s, A).hand!.players.find((p) => p.id === A)!.forehead;
    expect(mine).toBeNull();
    expect(JSON.stringify(viewOf(s, A))).not.toContain(`"id":${card.id},"rank":${card.rank}`);
    expect(viewOf(s, B).hand!.players.find((p) => p.id === A)!.forehead).toEqual(card);
    expect(viewOf(s, null).hand!.players.find((p) => p.id === A)!.forehead).toBeNull();
    s = act(s, A, { type: 'nl.check' });
    s = act(s, B, { type: 'nl.check' });
    s = act(s, C, { type: 'nl.check' });
    expect(s.hand!.phase).toBe('handEnd');
    expect(viewOf(s, A).hand!.players.find((p) => p.id === A)!.forehead).toEqual(card);
    expect(viewOf(s, null).hand!.players.find((p) => p.id === A)!.forehead).toEqual(card);
  });

  it('§5.4.7 — 2장 모드: 이마 → 1차 베팅 → 손 카드(본인만) → 2차 베팅 → 이마+손으로 판정, 종료 후 다이한 사람 카드까지 공개', () => {
    let s = start({ mode: 'indian', indianCards: 2 }, 3);
    const [A, B, C] = order(s);
    s = act(s, A, { type: 'nl.fold' });
    s = checkRound(s);
    expect(s.hand!.players[B].hole).toHaveLength(1);
    expect(s.hand!.players[A].hole).toHaveLength(0);
    expect(viewOf(s, B).hand!.players.find((p) => p.id === B)!.hole[0]).toHaveProperty('rank');
    expect(viewOf(s, C).hand!.players.find((p) => p.id === B)!.hole[0]).toEqual({ hidden: true });
    s = checkDown(s);
    expect(s.hand!.phase).toBe('handEnd');
    expect(s.hand!.showdown!.every((e) => e.cards.length === 2)).toBe(true);
    expect(viewOf(s, null).hand!.players.find((p) => p.id === A)!.forehead).toHaveProperty('rank');
  });

  it('§10 — 인디언: 10을 단 채 다이 → 벌칙 10×기본 단위가 승자에게, 동점 carry → 다음 핸드 승자가 이월 판돈 획득', () => {
    let s = start({ mode: 'indian', indianReshuffle: 'everyHand' }, 3);
    const [A, B, C] = order(s);
    s = rig(s, { forehead: { [A]: 'Ts', [B]: '7s', [C]: '7h' } });
    s = act(s, A, { type: 'nl.fold' });
    expect(stack(s, A)).toBe(1000 - 10 - 100);
    expect(s.hand!.penalties).toEqual([{ from: A, amount: 100 }]);
    s = act(s, B, { type: 'nl.check' });
    s = act(s, C, { type: 'nl.check' });
    // B and C tie on 7: the 30-chip pot and the 100 penalty carry over.
    expect(s.hand!.awards).toEqual([]);
    expect(s.carryOver).toBe(130);
    expect(viewOf(s, A).carryOver).toBe(130);
    s = readyAll(s);
    expect(s.hand!.handNo).toBe(2);
    const [X, Y, Z] = order(s);
    s = rig(s, { forehead: { [X]: '2s', [Y]: '9h', [Z]: '3h' } });
    s = checkDown(s);
    expect(s.hand!.awards).toEqual([{ potIndex: 0, to: Y, amount: 160 }]);
    expect(s.carryOver).toBe(0);
  });

  it('§6.5 — indianTie=split이거나 마지막 핸드면 동점자끼리 분할', () => {
    let s = start({ mode: 'indian', indianTie: 'split' }, 2);
    const [A, B] = order(s);
    s = rig(s, { forehead: { [A]: '7s', [B]: '7h' } });
    s = checkDown(s);
    expect(s.hand!.awards).toEqual([
      { potIndex: 0, to: A, amount: 10 },
      { potIndex: 0, to: B, amount: 10 },
    ]);
    void B;
  });

  it('§10 — 인디언 whenEmpty: 2인 20장 덱에서 10핸드 후 재섞기, 사용 카드 목록 초기화', async () => {
    const { deriveSeed } = await import('../../src/core/commit.ts');
    let s = start({ mode: 'indian', handLimit: 20 }, 2, 'memory');
    for (let hand = 1; hand <= 10; hand++) {
      expect(s.hand!.handNo).toBe(hand);
      expect(s.indianDeck).toHaveLength(20 - 2 * hand);
      expect(s.indianUsed).toHaveLength(2 * (hand - 1));
      expect(viewOf(s, null).indianUsed).toHaveLength(2 * (hand - 1));
      // Hand 1 shuffled the deck still in use: its seed stays secret at hand end; later hands drew no randomness.
      s = checkDown(s);
      if (hand === 1) expect(s.hand!.seedRevealed).toBeNull();
      else expect(s.hand!.seedRevealed).toBe(deriveSeed('memory', `hand:${hand}`));
      s = readyAll(s);
    }
    expect(s.hand!.handNo).toBe(11);
    expect(s.indianUsed).toHaveLength(0);
    expect(s.indianDeck).toHaveLength(18);
    expect(s.retiredDeckSeed).toEqual({ handNo: 1, seed: deriveSeed('memory', 'hand:1') });
  });
});

describe('초이스·교환·선언 시간 초과 (§8.5)', () => {
  it('§8.5 — 초이스 자동: 가장 낮은 카드를 버리고 남은 것 중 가장 낮은 카드를 오픈', () => {
    let s = start({ mode: 'sevenPoker' }, 2);
    const [A, B] = order(s);
    s = rig(s, { choice: { [A]: 'Kd 5c 5s 9h', [B]: 'Ah 2s 2d Qc' } });
    expect(poker.deadline(s)).toBe(T0 + 30_000);
    s = timeout(s);
    expect(s.hand!.players[A].discarded!.rank).toBe(5);
    expect(s.hand!.players[A].discarded!.suit).toBe('C');
    expect(s.hand!.players[A].up[0].rank).toBe(5);
    expect(s.hand!.players[B].discarded).toMatchObject({ rank: 2, suit: 'D' });
    expect(s.hand!.players[B].up[0]).toMatchObject({ rank: 2, suit: 'S' });
  });

  it('§8.5 — 교환 시간 초과는 패스, 선언 시간 초과는 하이, 핸드 종료는 준비, 리바이는 그만하기', () => {
    let s = start({ mode: 'badugi' }, 2);
    s = checkDown(s);
    const before = s.hand!.players[order(s)[0]].hole;
    s = timeout(s);
    expect(s.hand!.players[order(s)[0]].hole).toEqual(before);
    expect(s.hand!.players[order(s)[0]].drawCounts).toEqual([0]);
    let h = start({ mode: 'sevenHiLo' }, 2);
    h = timeout(h);
    while (h.hand!.phase === 'betting') h = checkDown(h);
    h = timeout(h);
    expect(h.hand!.showdown!.every((e) => e.declare === 'high')).toBe(true);
  });
});
