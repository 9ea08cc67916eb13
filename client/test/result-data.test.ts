/**
 * The result screen's rows and seed check from real finished games: the
 * engine's own bots play both modes to the end, then the client builds what
 * it shows from the final view and result.
 */
import { describe, expect, it } from 'vitest';
import { Rng, oneCard, type OneCardOptions, type OneCardState, type OneCardView } from '@joke/engine/client';
import { resultData } from '../src/games/one-card/result-rows.ts';
import { verifySeed } from '../src/table-kit/seed-check.ts';

const players = [
  { id: 'a', name: '민수' },
  { id: 'b', name: '지영' },
  { id: 'c', name: '현우' },
];

function playOut(mode: 'classic' | 'uno-style', seed: string): OneCardState {
  const options = oneCard.optionsSchema.parse({ mode, handSize: 5 }) as OneCardOptions;
  let s = oneCard.setup({ seed, players, options, now: 0 }) as OneCardState;
  const rng = Rng.fromSeed(seed, 'test-bots');
  for (let step = 0; step < 5000 && s.phase.kind !== 'finished'; step++) {
    let moved = false;
    for (const p of s.seats) {
      const a = oneCard.bot(oneCard.view(s, p) as OneCardView, rng);
      if (!a) continue;
      const r = oneCard.apply(s, p, a, step);
      if (r.ok) {
        s = r.state as OneCardState;
        moved = true;
        break;
      }
    }
    if (!moved) {
      const r = oneCard.onTimeout(s, Number.MAX_SAFE_INTEGER);
      if (!r.ok) throw new Error('stuck');
      s = r.state as OneCardState;
    }
  }
  expect(s.phase.kind).toBe('finished');
  return s;
}

describe('result screen data', () => {
  it('§6/§8.6 — classic: every seat ranked with state, cards and card points; the seed matches the commitment', () => {
    const s = playOut('classic', 'result-classic');
    const data = resultData(oneCard.view(s, 'a') as OneCardView, oneCard.result(s));
    expect(data.rows).toHaveLength(3);
    expect(data.rows.filter((r) => r.me).map((r) => r.name)).toEqual(['민수']);
    expect(data.rows[0].rank).toBe(1);
    expect(data.rows.map((r) => r.rank)).toEqual([...data.rows.map((r) => r.rank)].sort((x, y) => x - y));
    for (const r of data.rows) expect(['완료', '남음', '파산']).toContain(r.state);
    expect(data.scoreLabel).toBe('카드 점수');
    expect(data.summary).toMatch(/님/);
    expect(verifySeed(data.seed, data.seedCommit)).toBe(true);
    expect(verifySeed(`${data.seed}x`, data.seedCommit)).toBe(false);
    expect(verifySeed('', data.seedCommit)).toBe(false);
  });

  it('§6 — colour cards: the winner shows the points won this round, the others 0', () => {
    const s = playOut('uno-style', 'result-colour');
    const res = oneCard.result(s)!;
    const data = resultData(oneCard.view(s, null) as OneCardView, res);
    expect(data.scoreLabel).toBe('이번 판 점수');
    expect(data.rows.every((r) => !r.me)).toBe(true);
    // No bankruptcy in colour cards by default, so someone went out first.
    const winner = data.rows.find((r) => r.rank === 1 && r.state === '완료')!;
    expect(winner).toBeDefined();
    expect(winner.points).toBeGreaterThan(0);
    expect(data.rows.filter((r) => r !== winner).every((r) => r.points === 0)).toBe(true);
  });
});
