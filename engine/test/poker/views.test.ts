import { describe, expect, it } from 'vitest';
import { poker } from '../../src/games/poker/index.ts';
import { Rng } from '../../src/core/rng.ts';
import { runSim } from '../../src/sim/runner.ts';
import { pokerSim } from '../../src/games/poker/sim.ts';
import { act, order, rej, start, T0, viewOf } from './helpers.ts';
import { gameFor, play, MODES } from './play.ts';

describe('공개/비공개 정보 (§8.3)', () => {
  it('§8.3 — 비공개 카드 자리는 id 없는 {hidden: true}만 보내고 장수는 그대로', () => {
    const s = start({ mode: 'holdem' }, 3);
    const [A, B] = order(s);
    const other = viewOf(s, A).hand!.players.find((p) => p.id === B)!;
    expect(other.hole).toEqual([{ hidden: true }, { hidden: true }]);
    const spectator = viewOf(s, null).hand!.players;
    expect(spectator.every((p) => p.hole.every((c) => JSON.stringify(c) === '{"hidden":true}'))).toBe(true);
    expect(viewOf(s, A).hand!.players.find((p) => p.id === A)!.hole).toEqual(s.hand!.players[A].hole);
    expect(viewOf(s, A).hand!.deckCount).toBe(52 - 6);
    expect(JSON.stringify(viewOf(s, null))).not.toContain('"deck":');
  });

  it('§8.3 — 덱·번 카드·교환으로 버린 카드는 누구에게도 안 보임', () => {
    let s = start({ mode: 'badugi' }, 2);
    const [A, B] = order(s);
    s = act(s, A, { type: 'k.check' });
    s = act(s, B, { type: 'k.check' });
    const gone = s.hand!.players[A].hole.slice(0, 2);
    s = act(s, A, { type: 'draw', cardIds: gone.map((c) => c.id) });
    s = act(s, B, { type: 'draw', cardIds: [] });
    for (const viewer of [A, B, null]) {
      const json = JSON.stringify(viewOf(s, viewer));
      for (const c of [...gone, ...s.hand!.deck]) expect(json).not.toContain(`"id":${c.id},"rank"`);
    }
  });

  it('§8.3 — legalActions는 본인 차례에만, 한국식은 정확한 낼 금액, NL은 레이즈 최소/최대', () => {
    const k = start({ mode: 'badugi' }, 3);
    const [A, B] = order(k);
    expect(viewOf(k, B).legalActions).toEqual([]);
    expect(viewOf(k, null).legalActions).toEqual([]);
    expect(viewOf(k, A).legalActions).toEqual([
      { type: 'k.die', amount: 0, allIn: false },
      { type: 'k.check', amount: 0, allIn: false },
      { type: 'k.ping', amount: 10, allIn: false },
      { type: 'k.quarter', amount: 10, allIn: false },
      { type: 'k.half', amount: 15, allIn: false },
    ]);
    const n = start({ mode: 'holdem' }, 3);
    const D = order(n)[2];
    expect(viewOf(n, D).legalActions).toEqual([
      { type: 'nl.fold', amount: 0, allIn: false },
      { type: 'nl.call', amount: 10, allIn: false },
      { type: 'nl.raise', min: 20, max: 1000, bet: false },
      { type: 'nl.allIn', amount: 1000, to: 1000 },
    ]);
  });

  it('§8.3 — 모든 view에 게임 시드 커밋과 핸드 시드 커밋, hints면 내 족보 이름', () => {
    const s = start({ mode: 'sevenPoker' }, 2);
    for (const v of [...order(s), null]) {
      const view = viewOf(s, v);
      expect(view.seedCommit).toBe(s.seedCommit);
      expect(view.hand!.seedCommit).toBe(s.hand!.seedCommit);
    }
    expect(viewOf(s, order(s)[0]).myHand!.name).toMatch(/탑|원페어|투페어|트리플|포카드/);
    expect(viewOf(s, null).myHand).toBeNull();
    expect(viewOf(start({ mode: 'sevenPoker', hints: false }, 2), 'p1').myHand).toBeNull();
  });

  it('§8.3 — 이벤트에는 비밀이 없음: 분배 이벤트는 장수만, 오픈 카드만 값', () => {
    let s = start({ mode: 'sevenPoker' }, 2);
    const [A, B] = order(s);
    const ca = s.hand!.players[A].choice!;
    s = act(s, A, { type: 'choose', discardId: ca[0].id, openId: ca[1].id });
    const cb = s.hand!.players[B].choice!;
    const r = poker.apply(s, B, { type: 'choose', discardId: cb[0].id, openId: cb[1].id }, T0 + 5);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const dealt = r.events.filter((e) => e.type === 'dealt');
    expect(dealt).toHaveLength(2);
    for (const e of dealt) expect(e.faceUp).toEqual(r.state.hand!.players[e.to as string].up[1]);
    const json = JSON.stringify(r.events);
    for (const c of [ca[0], cb[0], ...r.state.hand!.players[A].hole, ...r.state.hand!.players[B].hole])
      expect(json).not.toContain(`"id":${c.id},"rank"`);
  });
});

describe('잘못된 입력 (§8.2)', () => {
  it('§8.2 — 형식이 틀린 행동, 모르는 행동자, 범위 밖 값은 한국어 사유로 거부하고 상태는 그대로', () => {
    const s = start({ mode: 'holdem' }, 3);
    const D = order(s)[2];
    for (const bad of [
      null,
      'nl.call',
      42,
      {},
      [],
      { type: 7 },
      { type: 'nope' },
      { type: 'nl.raise' },
      { type: 'nl.raise', to: 'x' },
      { type: 'nl.raise', to: 25.5 },
      { type: 'nl.raise', to: -5 },
      { type: 'nl.call', extra: 1 },
      { type: 'draw', cardIds: [1, 1, 1, 1, 1, 1] },
      { type: 'choose', discardId: 99, openId: 1 },
    ])
      expect(rej(s, D, bad)).toBe('잘못된 요청이에요');
    expect(rej(s, 'intruder', { type: 'nl.call' })).toBe('이 게임의 참가자가 아니에요');
    expect(rej(s, D, { type: 'choose', discardId: 1, openId: 2 })).toBe('지금은 카드를 고를 때가 아니에요');
    expect(rej(s, D, { type: 'draw', cardIds: [] })).toBe('지금은 카드를 바꿀 때가 아니에요');
    expect(rej(s, D, { type: 'declare', side: 'high' })).toBe('지금은 선언할 때가 아니에요');
    expect(rej(s, D, { type: 'ready' })).toBe('아직 판이 끝나지 않았어요');
    expect(rej(s, D, { type: 'rebuy', accept: true })).toBe('지금은 리바이할 때가 아니에요');
    expect(rej(s, D, { type: 'nl.raise', to: 5000 })).toBe('최대 1000까지 올릴 수 있어요');
    const early = poker.onTimeout(s, T0 + 5);
    expect(early).toEqual({ ok: false, reason: '아직 시간이 남아 있어요' });
  });
});

describe('봇 (§8.5 봇, 시뮬레이터)', () => {
  it('봇(쉬움)은 자기 view만으로 두고, 많은 판에서 모든 행동 종류를 씀', () => {
    const used = new Set<string>();
    for (let i = 0; i < 35; i++) {
      // The loose 쉬움 policy is the one that exercises every action type on purpose (bot.ts).
      const g = gameFor(i, { botLevel: 'easy' });
      play(g, (s, events) => {
        for (const e of events) if (e.type === 'action') used.add(e.action as string);
      });
    }
    const all = [
      'k.check',
      'k.ping',
      'k.call',
      'k.ddadang',
      'k.quarter',
      'k.half',
      'k.die',
      'nl.fold',
      'nl.check',
      'nl.call',
      'nl.raise',
      'nl.allIn',
    ];
    for (const t of all) expect([...used]).toContain(t);
    const full = new Set<string>();
    for (let i = 0; i < 10; i++)
      play(
        {
          seed: `full-${i}`,
          options: { mode: 'badugi', koreanMaxRaise: 'full', handLimit: 10, botLevel: 'easy' },
          players: 4,
        },
        (s, events) => {
          for (const e of events) if (e.type === 'action') full.add(e.action as string);
        },
      );
    expect([...full]).toContain('k.full');
  });

  it('봇(쉬움)은 약한 패를 자주 접고 강한 패로 레이즈함', async () => {
    const { bot } = await import('../../src/games/poker/bot.ts');
    const { rig } = await import('./helpers.ts');
    const s0 = start({ mode: 'holdem', botLevel: 'easy' }, 3);
    const D = order(s0)[2];
    const weak = rig(s0, { hole: { [D]: '7c 2d' } });
    const strong = rig(s0, { hole: { [D]: 'As Ad' } });
    const rng = Rng.fromSeed('bot');
    let folds = 0;
    let raises = 0;
    for (let i = 0; i < 400; i++) {
      if (bot(viewOf(weak, D), rng)!.type === 'nl.fold') folds++;
      const a = bot(viewOf(strong, D), rng)!.type;
      if (a === 'nl.raise' || a === 'nl.allIn') raises++;
    }
    expect(folds).toBeGreaterThan(150);
    expect(raises).toBeGreaterThan(250);
    expect(bot(viewOf(s0, null), rng)).toBeNull();
    expect(bot(viewOf(s0, order(s0)[0]), rng)).toBeNull();
  });

  it('시뮬레이터: 모든 모드에서 위반·누출·허용된 잘못된 행동 0, 모든 게임 종료', () => {
    for (const mode of MODES) {
      const r = runSim({
        adapter: pokerSim,
        options: { mode, handLimit: 10 },
        players: 3,
        games: 3,
        seed: `views-${mode}`,
      });
      expect(r.samples).toEqual([]);
      expect([r.finished, r.invariantViolations, r.leaks, r.illegalAccepted]).toEqual([3, 0, 0, 0]);
      expect(r.illegalProbes).toBeGreaterThan(0);
    }
  });
});
