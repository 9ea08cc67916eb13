/**
 * The fair-play rules on a small seeded simulated room: the scripted colluding pair (soft play + chip
 * dumping) is flagged within 1000 hands together, and honest pairs are flagged at under 1 %.
 * (`npm run fairplay-bench` measures the same at a larger volume.)
 */
import { describe, expect, it } from 'vitest';
import { runBench } from '../../src/fairplay/bench.ts';
import { handsOfRecord } from '../../src/fairplay/hands.ts';
import { Rng } from '../../src/core/rng.ts';
import { playGame } from '../../src/fairplay/world.ts';
import type { HandFacts } from '../../src/fairplay/hands.ts';
import { binomLower, binomUpper, flagAccount, gameDelta } from '../../src/fairplay/stats.ts';

describe('fair-play signals', () => {
  it('reads every hand of a record, chips conserved', () => {
    const rec = playGame('t', ['a', 'b', 'c'], new Map(), Rng.fromSeed('t'));
    const { hands, problem } = handsOfRecord(rec);
    expect(problem).toBeNull();
    expect(hands.length).toBeGreaterThan(0);
    for (const h of hands) {
      const moved = h.flows.reduce((s, f) => s + f.amount, 0);
      const lost = -Object.values(h.net).reduce((s, v) => s + Math.min(0, v), 0);
      const won = Object.values(h.net).reduce((s, v) => s + Math.max(0, v), 0);
      if (won > 0) expect(moved).toBeCloseTo(lost, 6);
    }
    expect(handsOfRecord({ ...rec, game: 'hula' }).hands).toEqual([]);
  });

  it('binomial tails', () => {
    expect(binomLower(10, 0, 0.5)).toBeCloseTo(1 / 1024, 9);
    expect(binomUpper(10, 10, 0.5)).toBeCloseTo(1 / 1024, 9);
    expect(binomLower(10, 10, 0.3)).toBeCloseTo(1, 9);
  });

  it('flags near-constant think times (a bot-like account), not human-like ones', () => {
    const rng = Rng.fromSeed('timing');
    const hands: HandFacts[] = Array.from({ length: 60 }, (_, i) => ({
      handNo: i + 1,
      baseUnit: 10,
      players: ['bot', 'human'],
      net: { bot: 0, human: 0 },
      flows: [],
      decisions: [
        { actor: 'bot', facing: null, kind: 'check', strong: false, thinkMs: 1500 + rng.int(100) },
        {
          actor: 'human',
          facing: null,
          kind: 'check',
          strong: false,
          thinkMs: Math.round(400 + 6000 * rng.float() ** 2),
        },
      ],
    }));
    const accounts = new Map(gameDelta(hands).accounts.map((t) => [t.player, t]));
    expect(flagAccount(accounts.get('bot')!)?.botTiming?.decisions).toBe(60);
    expect(flagAccount(accounts.get('human')!)).toBeNull();
  });

  it('flags the colluding pair, not the honest ones', () => {
    const r = runBench({ trials: 1, games: 40, honest: 12, within: 1000, seed: 'test' });
    console.log(JSON.stringify(r));
    expect(r.detectionRate).toBe(1);
    expect(r.falsePairFlagRate).toBeLessThan(0.01);
    expect(r.falseAccountFlagRate).toBeLessThan(0.05);
  });
});
