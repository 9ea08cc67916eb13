/** docs/games/hula.md §10 checklist, items 24–39: settlement, 박, fees, 배판, rounds, timers, AI substitute, leaving. */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/rng.ts';
import { hula, substituteAction, substituteDue } from '../../src/games/hula/index.ts';
import { settle, nextBonus, type Contestant } from '../../src/games/hula/scoring.ts';
import { TIMERS } from '../../src/games/hula/timers.ts';
import type { HulaState } from '../../src/games/hula/types.ts';
import { T0, cards, findEvent, handIds, ids, no, ok, options, players, position, timeout } from './helpers.ts';

const act = (seat: number) => ({ kind: 'act', seat, deadline: T0 + 15_000, via: 'stock', thankYouFrom: null }) as const;
const line = (s: HulaState, p: string) => s.lastRound!.lines.find((l) => l.player === p)!;
const who = (hands: string[], extra: Partial<Contestant>[] = []): Contestant[] =>
  hands.map((h, i) => ({ seat: i, id: ids[i], hand: cards(h), registered: true, hadTurn: true, ...extra[i] }));
const noBonus = { owner: null, multiplier: 1, streak: 0 };

describe('§10 훌라 checklist — settlement, timers, leaving', () => {
  it('§10 — 24. settlement table: 2인 200 / 3인 100·300 / 4인 100·200·300 / 5인 100·200·300·400', () => {
    const expected: Record<number, number[]> = { 2: [200], 3: [100, 300], 4: [100, 200, 300], 5: [100, 200, 300, 400] };
    for (let n = 2; n <= 5; n++) {
      const hands = ['H1', 'C2', 'C3', 'C4', 'C5'].slice(0, n);
      const st = settle(who(hands), { type: 'exhaustion', seat: 0 }, options(), noBonus, n);
      expect(st.summary.lines.slice(1).map((l) => l.due)).toEqual(expected[n]);
      expect(st.summary.lines.slice(1).map((l) => l.rank)).toEqual(expected[n].map((_, i) => i + 2));
    }
  });

  it('§10 — 25. 박 stack: unregistered + 방삐리 + one 7 = ×8 (5인 last place 400 → 3,200)', () => {
    const s = position({
      hands: ['H1', 'H2 H3', 'D10', 'C12 C13', 'S7 S9 S10 S11 S12 S13 D13'],
      registered: [true, true, true, true, false],
      hadTurn: [true, true, true, true, true],
    });
    const done = ok(s, 'p1', { type: 'stop' }).state;
    const p5 = line(done, 'p5');
    expect(p5.rank).toBe(5);
    expect(p5.multipliers).toEqual([
      { code: 'seven', factor: 2 },
      { code: 'unregistered', factor: 2 },
      { code: 'fullHand', factor: 2 },
    ]);
    expect(p5.due).toBe(3200);
  });

  it('§10 — 26. 7박 ×4 for two 7s, ×8 for three; no 미등록박 or 방삐리 for someone whose turn never came', () => {
    const st = settle(
      who(
        ['H1', 'D7 C7 C2 C3 C4 C5 C6', 'S7 H7 D7'],
        [{}, { registered: false, hadTurn: false }, { registered: false, hadTurn: true }],
      ),
      { type: 'stop', seat: 0 },
      options(),
      noBonus,
      3,
    );
    const [, second, third] = st.summary.lines;
    // p3 holds 42 points at the stop (three 7s at 14), p2 holds 48: p3 is 2nd.
    expect([second.player, third.player]).toEqual(['p3', 'p2']);
    expect(second.multipliers).toEqual([
      { code: 'seven', factor: 8 },
      { code: 'unregistered', factor: 2 },
    ]);
    expect(third.multipliers).toEqual([{ code: 'seven', factor: 4 }]);
    expect([second.due, third.due]).toEqual([100 * 16, 300 * 4]);
  });

  it('§10 — 27. 땡큐 훌라: 훌라 ×2 · two 7s ×4 · unregistered ×2 · 방삐리 ×2 · 땡큐박 ×2 = ×64', () => {
    const s = position({
      hands: ['S7 C7 D2 D4 D6 D8 D10 H9', 'H10 H11', 'C1'],
      registered: [false, true, true],
      hadTurn: [true, true, true],
      phase: act(0),
    });
    const asked = ok(s, 'p1', { type: 'discard', cardId: 'H9' }).state;
    const done = ok(asked, 'p2', { type: 'thankYou', cardIds: ['H10', 'H11'] }).state;
    const p1 = line(done, 'p1');
    expect(p1.multipliers.reduce((a, m) => a * m.factor, 1)).toBe(64);
    expect(p1.multipliers.map((m) => m.code)).toEqual(['hulaWin', 'seven', 'unregistered', 'fullHand', 'thankYou']);
    expect(p1).toMatchObject({ rank: 3, due: 300 * 64 });
    expect(line(done, 'p3').due).toBe(200);
    expect(done.lastRound).toMatchObject({ gross: 19_400, fee: 970 });
  });

  it('§10 — 28. 조커박: a joker holder is last even with the lowest score, and pays ×3', () => {
    const s = position({
      mode: 'joker',
      hands: ['H5 D5 C5', 'X1', 'S13 H13 D12 C12'],
      registered: [true, true, true],
      hadTurn: [true, true, true],
      phase: act(0),
    });
    const done = ok(s, 'p1', { type: 'meld', cardIds: ['H5', 'D5', 'C5'] }).state;
    expect(line(done, 'p3')).toMatchObject({ rank: 2, due: 200 });
    expect(line(done, 'p2')).toMatchObject({ rank: 3, score: 20, due: 300 * 2 * 3 });
    expect(line(done, 'p2').multipliers.map((m) => m.code)).toEqual(['hulaWin', 'joker']);
  });

  it('§10 — 29. fees: 5% normal and 10% special by default, rounded down, the room options honoured; points + fees always sum to 0', () => {
    const hands = ['H1', 'C2 C3', 'C4 C5 C6'];
    const normal = settle(who(hands), { type: 'stop', seat: 0 }, options({ baseUnit: 10 }), noBonus, 3);
    expect([normal.summary.gross, normal.summary.fee]).toEqual([40, 2]);
    const special = settle(
      who(hands),
      { type: 'special', seat: 0, special: 'soka' },
      options({ baseUnit: 10 }),
      noBonus,
      3,
    );
    expect([special.summary.gross, special.summary.fee]).toEqual([160, 16]);
    const custom = settle(who(hands), { type: 'stop', seat: 0 }, options({ feeNormal: 10 }), noBonus, 3);
    expect(custom.summary.fee).toBe(40);
    const none = settle(who(hands), { type: 'stop', seat: 0 }, options({ feeNormal: 0 }), noBonus, 3);
    expect(none.summary.fee).toBe(0);
    const rng = Rng.fromSeed('fees');
    let s = hula.setup({ seed: 'fees', players: players(4), options: options({ rounds: 3 }), now: T0 });
    let now = T0;
    while (!hula.result(s)) {
      const acts = s.players.map((p) => [p.id, hula.bot(hula.view(s, p.id), rng)] as const).filter(([, a]) => a);
      now += 200;
      const r = acts.length ? hula.apply(s, acts[0][0], acts[0][1], now) : hula.onTimeout(s, (now = hula.deadline(s)!));
      if (!r.ok) throw new Error(r.reason);
      s = r.state;
      expect(s.seats.reduce((a, x) => a + x.points, 0) + s.feeTotal).toBe(0);
    }
    expect(s.history).toHaveLength(3);
  });

  it('§10 — 30. 배판: a 훌라 winner who wins again is settled at ×2; someone else winning settles at ×1 and takes ownership', () => {
    const first = nextBonus(noBonus, 'p1', 'hula');
    expect(first).toEqual({ owner: 'p1', multiplier: 2, streak: 1 });
    const hands = ['H1', 'C2 C3', 'C4 C5 C6'];
    const again = settle(who(hands), { type: 'stop', seat: 0 }, options(), first, 3);
    expect(again.summary.bonusApplied).toBe(2);
    expect(again.summary.lines.slice(1).map((l) => l.due)).toEqual([200, 600]);
    expect(again.summary.lines[1].multipliers).toEqual([{ code: 'bonus', factor: 2 }]);
    expect(again.bonusAfter).toEqual({ owner: 'p1', multiplier: 3, streak: 2 });
    const other = settle(who(hands), { type: 'stop', seat: 1 }, options(), first, 3);
    // p2 stops with 5 against p1's 1: the stop fails, p1 (the owner) wins, and the bonus multiplies the 1.5× payment too.
    expect(other.summary).toMatchObject({ winner: 'p1', stopFailed: true, bonusApplied: 2, gross: 1.5 * (200 + 600) });
    const lost = settle(who(['C4 C5 C6', 'H1', 'C2 C3']), { type: 'hula', seat: 1 }, options(), first, 3);
    expect(lost.summary.bonusApplied).toBe(1);
    expect(lost.bonusAfter).toEqual({ owner: 'p2', multiplier: 2, streak: 1 });
  });

  it('§10 — 31. 배판: stop wins add one from the second in a row, special wins at once, capped at 5; off means ×1', () => {
    let b = nextBonus(noBonus, 'p1', 'stop');
    expect(b).toEqual({ owner: 'p1', multiplier: 1, streak: 1 });
    b = nextBonus(b, 'p1', 'exhaustion');
    expect(b).toEqual({ owner: 'p1', multiplier: 2, streak: 2 });
    expect(nextBonus(noBonus, 'p2', 'special')).toEqual({ owner: 'p2', multiplier: 2, streak: 1 });
    for (let i = 0; i < 6; i++) b = nextBonus(b, 'p1', 'hula');
    expect(b.multiplier).toBe(5);
    const off = settle(who(['H1', 'C2 C3']), { type: 'hula', seat: 0 }, options({ bonus: false }), b, 2);
    expect(off.summary.bonusApplied).toBe(1);
    expect(off.bonusAfter.multiplier).toBe(1);
  });

  it('§10 — 32. rounds: the game runs `rounds` rounds, the last winner leads, the result screen waits for ready or 5 s, then result()', () => {
    let s = position({ hands: ['H5 D5 C5', 'C1 C2 C3', 'D2 D3 D4'], phase: act(0), opts: { rounds: 3 } });
    s = ok(s, 'p1', { type: 'meld', cardIds: ['H5', 'D5', 'C5'] }).state;
    expect(s.phase.kind).toBe('roundEnd');
    expect(hula.result(s)).toBeNull();
    expect(hula.view(s, 'p2').lastRound!.lines).toHaveLength(3);
    s = ok(s, 'p1', { type: 'ready' }).state;
    expect(no(s, 'p1', { type: 'ready' })).toBe('이미 준비했어요');
    s = ok(s, 'p2', { type: 'ready' }).state;
    const started = ok(s, 'p3', { type: 'ready' });
    expect(findEvent(started.events, 'roundStart')).toMatchObject({ round: 2, first: 'p1' });
    expect(started.state.phase).toMatchObject({ kind: 'draw', seat: 0 });
    expect(hula.view(started.state, 'p2').lastRound).toBeNull();
    const viaTimer = timeout(s, T0 + 1000 + 5000 + 500);
    expect(viaTimer.state.round).toBe(2);
    // Skip ahead: the last (third) round ends the game.
    const r2 = { ...started.state, round: 3, hands: [cards('S9 S10 S11'), ...started.state.hands.slice(1)] };
    const drawn = ok(r2, 'p1', { type: 'draw', from: 'stock' }, T0 + 3000).state;
    const last = ok(drawn, 'p1', { type: 'meld', cardIds: ['S9', 'S10', 'S11'] }, T0 + 4000).state;
    const lastCard = handIds(last, 0)[0];
    const end = ok(last, 'p1', { type: 'discard', cardId: lastCard }, T0 + 5000).state;
    expect(end.phase.kind).toBe('finished');
    const res = hula.result(end)!;
    expect(res.seed).toBe('fixture');
    expect(res.ranking[0]).toMatchObject({ player: 'p1', rank: 1 });
    expect((res.rounds as unknown[]).length).toBe(2);
    expect(res.summary).toContain('2판 종료');
  });

  it('§10 — 33. timeout before drawing: automatic draw from the stock, then a fresh 15 s to discard (draw timer 15 s / 7 s)', () => {
    for (const mode of ['monster', 'joker'] as const) {
      const s = position({ mode, hands: ['H5 D5 C5', 'C1 C2 C3'], stock: 'S9 S10' });
      expect(hula.deadline(s)).toBe(T0 + TIMERS[mode].drawMs + 500);
      const r = timeout(s);
      expect(handIds(r.state, 0)).toContain('S9');
      expect(r.state.phase).toMatchObject({ kind: 'act', deadline: T0 + TIMERS[mode].drawMs + 500 + 15_000 });
      expect(findEvent(r.events, 'timeout')).toMatchObject({ player: 'p1', phase: 'draw' });
    }
  });

  it('§10 — 34. timeout after drawing: the highest card (never a joker) is discarded', () => {
    const s = position({ mode: 'joker', hands: ['X1 H13 S13 D4 S7', 'C1 C2 C3'], phase: act(0) });
    const r = timeout(s);
    expect(findEvent(r.events, 'discarded')).toMatchObject({ player: 'p1', auto: true, card: { id: 'S13' } });
    expect(handIds(r.state, 0)).toEqual(['X1', 'H13', 'D4', 'S7']);
  });

  it('§10 — 35. grace: actions up to deadline + 0.5 s count; later ones are refused; onTimeout waits for deadline + 0.5 s', () => {
    const s = position({ hands: ['H5 D5 C5', 'C1 C2 C3'] });
    const dl = T0 + TIMERS.monster.drawMs;
    expect(hula.view(s, 'p1').deadline).toBe(dl);
    ok(s, 'p1', { type: 'draw', from: 'stock' }, dl + 500);
    expect(no(s, 'p1', { type: 'draw', from: 'stock' }, dl + 501)).toBe('시간이 지났어요');
    const early = hula.onTimeout(s, dl + 499);
    expect(early.ok ? '' : early.reason).toBe('아직 시간이 남아 있어요');
    expect(hula.onTimeout(s, dl + 500).ok).toBe(true);
  });

  it('§10 — 36. two timeouts in a row reserve a leave, one direct action cancels it; reserved players stand up at the next deal; under 2 players ends the game', () => {
    const s = position({ hands: ['H5 D5 C5 S9', 'C1 C2 C3', 'D2 D3 D4'] });
    const one = timeout(s).state;
    expect(one.seats[0]).toMatchObject({ timeoutsInRow: 1, leave: null });
    const two = timeout(one);
    expect(two.state.seats[0]).toMatchObject({ timeoutsInRow: 2, leave: 'timeouts' });
    expect(findEvent(two.events, 'leaveReserved')).toMatchObject({ player: 'p1', reason: 'timeouts' });
    const back = { ...one, phase: act(0) } as HulaState;
    const direct = ok(back, 'p1', { type: 'discard', cardId: 'S9' });
    expect(direct.state.seats[0]).toMatchObject({ timeoutsInRow: 0 });
    const reserved = { ...two.state, seats: two.state.seats.map((x) => x) };
    const cancel = ok(
      { ...reserved, phase: { kind: 'thankYouAsk', discarder: 0, order: [1, 2], index: 0, deadline: T0 + 40_000 } },
      'p2',
      { type: 'pass' },
      T0 + 39_000,
    );
    expect(cancel.state.seats[0].leave).toBe('timeouts'); // someone else acting does not cancel it
    // Next deal: p3 stands up and two keep playing.
    let t = position({ hands: ['H5 D5 C5', 'C1 C2 C3', 'D2 D3 D4'], phase: act(0), opts: { rounds: 3 } });
    t = { ...t, seats: t.seats.map((x, i) => (i === 2 ? { ...x, leave: 'timeouts' as const } : x)) };
    t = ok(t, 'p1', { type: 'meld', cardIds: ['H5', 'D5', 'C5'] }).state;
    const next = timeout(t);
    expect(findEvent(next.events, 'left')).toMatchObject({ player: 'p3' });
    expect(next.state.inRound).toEqual([true, true, false]);
    expect(next.state.hands[2]).toEqual([]);
    expect(no(next.state, 'p3', { type: 'ready' }, T0 + 7000)).toBe('이미 나간 플레이어예요');
    // With two players, one leaving ends the game.
    let u = position({ hands: ['H5 D5 C5', 'C1 C2 C3'], phase: act(0), opts: { rounds: 3 } });
    u = { ...u, seats: u.seats.map((x, i) => (i === 1 ? { ...x, leave: 'requested' as const } : x)) };
    u = timeout(ok(u, 'p1', { type: 'meld', cardIds: ['H5', 'D5', 'C5'] }).state).state;
    expect(u.phase.kind).toBe('finished');
    expect(hula.result(u)!.ranking.find((r) => r.player === 'p2')).toMatchObject({ left: true });
  });

  it('§10 — 37. watchdog: onTimeout 60 s into any phase forces the turn over in one step', () => {
    const s = position({ hands: ['H5 D5 C5 S9', 'C1 C2 C3', 'D2 D3 D4'] });
    const forced = hula.onTimeout(s, T0 + 60_000);
    if (!forced.ok) throw new Error(forced.reason);
    expect(findEvent(forced.events, 'watchdog')).toMatchObject({ phase: 'draw' });
    expect(forced.state.hands[0]).toHaveLength(4);
    expect(forced.state.phase).toMatchObject({ kind: 'thankYouAsk', discarder: 0 });
    expect(no(s, 'p1', { type: 'draw', from: 'stock' }, T0 + 60_000)).toBe('시간이 지났어요');
    const ask = forced.state;
    const skipped = hula.onTimeout(ask, ask.turnStartedAt + 60_000);
    if (!skipped.ok) throw new Error(skipped.reason);
    expect(skipped.state.phase).toMatchObject({ kind: 'draw', seat: 1 });
    const end = position({ hands: ['H5 D5 C5', 'C1 C2 C3'], phase: act(0) });
    const roundEnd = ok(end, 'p1', { type: 'meld', cardIds: ['H5', 'D5', 'C5'] }).state;
    const dealt = hula.onTimeout(roundEnd, roundEnd.turnStartedAt + 60_000);
    expect(dealt.ok && dealt.state.round).toBe(2);
  });

  it('§10 — 38. AI substitute: nothing before 5 s, then draw → highest discard, passes 땡큐 checks; its actions keep the timeout count and the reservation', () => {
    let s = position({ hands: ['H5 D5 C5 S13', 'C1 C2 C3', 'D2 D3 D4'], stock: 'H12 S2' });
    s = {
      ...s,
      seats: s.seats.map((x, i) => (i === 0 ? { ...x, timeoutsInRow: 1, leave: 'disconnected' as const } : x)),
    };
    expect(substituteDue(s, 'p1')).toBe(T0 + 5000);
    expect(substituteAction(s, 'p1', T0 + 4999)).toBeNull();
    expect(substituteAction(s, 'p2', T0 + 9000)).toBeNull();
    const a1 = substituteAction(s, 'p1', T0 + 5000)!;
    expect(a1).toEqual({ type: 'draw', from: 'stock', substitute: true });
    s = ok(s, 'p1', a1, T0 + 5000).state;
    const a2 = substituteAction(s, 'p1', T0 + 5001)!;
    expect(a2).toEqual({ type: 'discard', cardId: 'S13', substitute: true });
    s = ok(s, 'p1', a2, T0 + 5001).state;
    expect(s.seats[0]).toMatchObject({ timeoutsInRow: 1, leave: 'disconnected' });
    expect(substituteAction(s, 'p2', T0 + 5002)).toEqual({ type: 'pass', substitute: true });
    // The player's own action (reconnected) clears both.
    const own = ok(
      { ...s, phase: act(0) } as HulaState,
      'p1',
      { type: 'meld', cardIds: ['H5', 'D5', 'C5'] },
      T0 + 6000,
    );
    expect(own.state.seats[0]).toMatchObject({ timeoutsInRow: 0, leave: null });
  });

  it('§10 — 39. reserveLeave: a requested leave survives play, an automatic one is cancelled by a direct action; duplicates refused', () => {
    const s = position({ hands: ['H5 D5 C5 S9', 'C1 C2 C3'] });
    const req = ok(s, 'p1', { type: 'reserveLeave', on: true }).state;
    expect(req.seats[0].leave).toBe('requested');
    expect(no(req, 'p1', { type: 'reserveLeave', on: true })).toBe('이미 나가기를 예약했어요');
    expect(ok(req, 'p1', { type: 'draw', from: 'stock' }).state.seats[0].leave).toBe('requested');
    expect(ok(req, 'p1', { type: 'reserveLeave', on: false }).state.seats[0].leave).toBeNull();
    expect(no(s, 'p1', { type: 'reserveLeave', on: false })).toBe('나가기 예약이 없어요');
    const auto = ok(s, 'p1', { type: 'reserveLeave', on: true, auto: true }).state;
    expect(auto.seats[0].leave).toBe('disconnected');
    const played = ok(auto, 'p1', { type: 'draw', from: 'stock' });
    expect(played.state.seats[0].leave).toBeNull();
    expect(findEvent(played.events, 'leaveCancelled')).toMatchObject({ player: 'p1' });
  });
});
