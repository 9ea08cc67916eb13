/** §5.4 bankruptcy, §5.5 draw-pile rebuild, §6 results, §8.5 timers, §8.6 result. */
import { describe, expect, it } from 'vitest';
import { oneCard } from '../../src/games/one-card/index.ts';
import { seedCommitment } from '../../src/core/index.ts';
import { act, codeOf, NOW, ok, play, rejects, rig } from './helpers.ts';

const FIFTEEN = ['C4', 'C5', 'C6', 'C8', 'C9', 'C10', 'D4', 'D5', 'D6', 'D8', 'D9', 'D10', 'S4', 'S5', 'S6'];

describe('§5.4 bankruptcy', () => {
  it('§5.4 — bankruptLimit none: hands may grow without limit', () => {
    const s = rig({ bankruptLimit: null }, 3, {
      hands: { p1: FIFTEEN },
      discard: ['H8', 'SA'],
      pendingAttack: 10,
      current: 'p1',
    });
    const r = ok(act(s, 'p1', { type: 'draw' })).state;
    expect([r.status.p1, r.hands.p1.length]).toEqual(['playing', 25]);
  });

  it('§5.4 — in a 3-player game a bankruptcy leaves two, who play on; the bankrupt rank last', () => {
    const s = rig({}, 3, {
      hands: { p1: FIFTEEN, p2: ['S4', 'C5'], p3: ['S5', 'C7'] },
      discard: ['H8', 'SA'],
      pendingAttack: 5,
      current: 'p1',
    });
    const s1 = ok(act(s, 'p1', { type: 'draw' })).state;
    expect(s1.phase.kind).toBe('turn');
    const s2 = ok(play(s1, 'p2', ['S4'])).state;
    expect(s2.current).toBe('p3');
    const s3 = ok(play(s2, 'p3', ['S5'])).state;
    expect(s3.current).toBe('p2');
    const end = ok(play(s3, 'p2', ['C5'])).state;
    const res = oneCard.result(end)!;
    expect(res.ranking.map((e) => [e.player, e.rank, e.status])).toEqual([
      ['p2', 1, 'out'],
      ['p3', 2, 'playing'],
      ['p1', 3, 'bankrupt'],
    ]);
    expect(res.summary).toContain('파산: 민수 님');
  });
});

describe('§5.5 draw pile', () => {
  it('§5.5 — the rebuild uses the seeded RNG: same state, same new pile', () => {
    const s = rig({}, 3, {
      hands: { p1: ['C9'] },
      discard: ['H4', 'H5', 'H6', 'H9', 'H10', 'C4'],
      pile: [],
      current: 'p1',
    });
    const a = ok(act(s, 'p1', { type: 'draw' })).state;
    const b = ok(act(s, 'p1', { type: 'draw' })).state;
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.rng).not.toEqual(s.rng);
    expect(a.discard.map(codeOf)).toEqual(['C4']);
  });

  it('§5.5 — with nothing left anywhere, a draw takes nothing and the game goes on', () => {
    const s = rig({}, 3, { hands: { p1: ['C9'] }, discard: ['H4'], pile: [], current: 'p1' });
    const r = ok(act(s, 'p1', { type: 'draw' }));
    expect(r.state.hands.p1).toHaveLength(1);
    expect(r.state.current).toBe('p2');
    expect(r.events.find((e) => e.type === 'cardsDrawn')).toMatchObject({ count: 0 });
  });
});

describe('§6 results', () => {
  it('§6 — first-out: the rest rank by fewer cards, then lower points; equal is a tie; bankrupt last, later bankruptcy first', () => {
    const s = rig({}, 5, {
      hands: { p1: ['H9'], p2: ['S4', 'S5'], p3: ['SK', 'D3'], p4: ['D4', 'C5'], p5: [] },
      status: { p1: 'playing', p2: 'playing', p3: 'playing', p4: 'playing', p5: 'bankrupt' },
      bankruptOrder: ['p5'],
      discard: ['H8'],
      current: 'p1',
    });
    const end = ok(play(s, 'p1', ['H9'])).state;
    const res = oneCard.result(end)!;
    expect(res.ranking.map((e) => [e.player, e.rank, e.cardsLeft, e.points])).toEqual([
      ['p1', 1, 0, 0],
      ['p2', 2, 2, 9],
      ['p4', 2, 2, 9],
      ['p3', 4, 2, 13],
      ['p5', 5, 0, 0],
    ]);
    expect(res.winners).toEqual(['p1']);
    expect(res.summary).toBe('민수 님이 가장 먼저 카드를 모두 냈어요! 파산: 동현 님.');
  });

  it('§6 — card points: numbers at face value, J/Q/K 10, A 1, jokers 20', () => {
    const s = rig({}, 2, {
      hands: { p1: ['H9'], p2: ['SA', 'SJ', 'SQ', 'SK', 'BJ', 'CJ', 'S7'] },
      discard: ['H8'],
      current: 'p1',
    });
    const res = oneCard.result(ok(play(s, 'p1', ['H9'])).state)!;
    expect(res.ranking[1].points).toBe(1 + 10 + 10 + 10 + 20 + 20 + 7);
  });

  it('§6 — last-standing: places follow the order players went out; the last one left is last among the non-bankrupt', () => {
    const o = { endCondition: 'last-standing' };
    const s = rig(o, 3, {
      hands: { p1: ['H9'], p2: ['H4', 'C5'], p3: ['H5', 'C6', 'S7'] },
      discard: ['H8'],
      current: 'p1',
    });
    const s1 = ok(play(s, 'p1', ['H9'])).state;
    expect(s1.phase.kind).toBe('turn');
    expect(s1.current).toBe('p2');
    const s2 = ok(play(s1, 'p2', ['H4'])).state;
    const s3 = ok(play(s2, 'p3', ['H5'])).state;
    expect(s3.current).toBe('p2');
    const end = ok(play(s3, 'p2', ['C5'])).state;
    const res = oneCard.result(end)!;
    expect(res.ranking.map((e) => [e.player, e.rank])).toEqual([
      ['p1', 1],
      ['p2', 2],
      ['p3', 3],
    ]);
    expect(res.summary).toBe('민수 님이 가장 먼저 카드를 모두 냈어요! 꼴찌는 철수 님이에요.');
  });

  it('§6 — uno-style target score: carried scores add up and reaching the target wins the match', () => {
    const o = { mode: 'uno-style', unoTargetScore: 200, carryScores: { p1: 150, p2: 120 } };
    const s = rig(o, 3, { hands: { p1: ['R9'], p2: ['W', 'G5'], p3: ['Y0'] }, discard: ['R5'], current: 'p1' });
    expect(s.scores).toEqual({ p1: 150, p2: 120, p3: 0 });
    const res = oneCard.result(ok(play(s, 'p1', ['R9'])).state)!;
    expect(res.scores).toEqual({ p1: 205, p2: 120, p3: 0 });
    expect(res.matchWinner).toBe('p1');
    expect(res.ranking[0]).toMatchObject({ score: 55, totalScore: 205 });
    expect(res.summary).toContain('최종 우승');
    const short = rig({ ...o, carryScores: { p1: 10 } }, 3, {
      hands: { p1: ['R9'], p2: ['G5'] },
      discard: ['R5'],
      current: 'p1',
    });
    const r2 = oneCard.result(ok(play(short, 'p1', ['R9'])).state)!;
    expect(r2.matchWinner).toBeNull();
    expect(r2.summary).toContain('목표 200점');
  });

  it('§8.6 — the result reveals the seed, which matches the commitment shown from the start', () => {
    const s = rig({}, 2, { hands: { p1: ['H9'], p2: ['S4'] }, discard: ['H8'], current: 'p1' });
    expect(oneCard.result(s)).toBeNull();
    const res = oneCard.result(ok(play(s, 'p1', ['H9'])).state)!;
    expect(res.seed).toBe('seed');
    expect(seedCommitment(res.seed)).toBe(s.seedCommit);
    expect(oneCard.view(s, null).seedCommit).toBe(seedCommitment('seed'));
  });

  it('§8.6 — a finished game refuses every action', () => {
    const s = rig({}, 2, { hands: { p1: ['H9'], p2: ['S4'] }, discard: ['H8'], current: 'p1' });
    const end = ok(play(s, 'p1', ['H9'])).state;
    rejects(end, (x) => act(x, 'p2', { type: 'draw' }), '게임이 이미 끝났어요');
    rejects(end, (x) => oneCard.onTimeout(x, NOW + 10 ** 9), '게임이 이미 끝났어요');
    expect(oneCard.deadline(end)).toBeNull();
  });
});

describe('§8.5 timers', () => {
  it('§8.5 — deadline = turnStartedAt + turnSeconds × 1000, restarted by each new turn', () => {
    const s = rig({ turnSeconds: 30 }, 3, { hands: { p1: ['H5', 'C9'] }, discard: ['H8'], current: 'p1' });
    expect(oneCard.deadline(s)).toBe(NOW + 30_000);
    const r = oneCard.apply(s, 'p1', { type: 'play', cardIds: [s.hands.p1[0].id] }, NOW + 7_000);
    expect(r.ok && oneCard.deadline(r.state)).toBe(NOW + 37_000);
  });

  it('§8.5 — a normal-turn timeout draws one card (never plays) and counts timeoutsInRow; acting resets it', () => {
    const s = rig({ playAfterDraw: true }, 2, {
      hands: { p1: ['H5', 'C9'], p2: ['H4', 'S9'] },
      discard: ['H8'],
      pile: ['H6', 'H7', 'H8'],
      current: 'p1',
    });
    const t1 = ok(oneCard.onTimeout(s, NOW + 20_000)).state;
    expect([t1.hands.p1.length, t1.current, t1.phase.kind, t1.timeoutsInRow.p1]).toEqual([3, 'p2', 'turn', 1]);
    const t2 = ok(oneCard.onTimeout(t1, oneCard.deadline(t1)!)).state;
    const t3 = ok(oneCard.onTimeout(t2, oneCard.deadline(t2)!)).state;
    const t4 = ok(oneCard.onTimeout(t3, oneCard.deadline(t3)!)).state;
    const t5 = ok(oneCard.onTimeout(t4, oneCard.deadline(t4)!)).state;
    expect(t5.timeoutsInRow).toEqual({ p1: 3, p2: 2 });
    expect(oneCard.view(t5, null).timeoutsInRow.p1).toBe(3);
    const back = oneCard.apply(t5, 'p2', { type: 'draw' }, oneCard.deadline(t5)! - 1);
    expect(back.ok && back.state.timeoutsInRow.p2).toBe(0);
  });
});
