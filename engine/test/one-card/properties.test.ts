/**
 * Properties over many seeded bot games: secrecy for every viewer and the
 * spectator, determinism, purity, the simulator and record verification.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { oneCard } from '../../src/games/one-card/index.ts';
import { oneCardSim } from '../../src/games/one-card/sim.ts';
import type { OneCardState } from '../../src/games/one-card/types.ts';
import { findLeaks, findStateLeaks, hiddenSet } from '../../src/sim/secrecy.ts';
import { runSim, simPlayers } from '../../src/sim/runner.ts';
import { verifyRecord, type GameRecord, type RecordedStep } from '../../src/record/record.ts';
import { Rng, type GameEvent, type PlayerId } from '../../src/core/index.ts';
import { deepFreeze, options } from './helpers.ts';

const VARIANTS: Record<string, unknown>[] = [
  {},
  { mode: 'uno-style' },
  { multiPlay: true, kEffect: 'skip-two', lastCardRule: 'special', playAfterDraw: true },
  { mode: 'uno-style', unoWild4Rule: 'challenge', unoStacking: true, bankruptLimit: 20 },
  { endCondition: 'last-standing', bankruptLimit: 15, afterJoker: 'any' },
  { mode: 'uno-style', unoWild4Rule: 'challenge', endCondition: 'last-standing' },
];

interface Step {
  before: OneCardState;
  after: OneCardState;
  events: GameEvent[];
  recorded: RecordedStep;
}

/** One bot game (with a few timeouts), yielding every transition. */
function* playGame(seed: number, variant: Record<string, unknown>, n: number): Generator<Step> {
  const o = options(variant);
  const players = simPlayers(n);
  const rng = Rng.fromSeed(`prop:${seed}`);
  let state = oneCard.setup({ seed: `prop-${seed}`, players, options: o, now: 1_800_000_000_000 });
  for (let i = 0; i < 3000 && !oneCard.result(state); i++) {
    const moves: { actor: PlayerId; action: unknown }[] = [];
    for (const p of players) {
      const a = oneCard.bot(oneCard.view(state, p.id), rng);
      if (a) moves.push({ actor: p.id, action: a });
    }
    let r;
    let recorded: RecordedStep;
    if (moves.length === 0 || rng.float() < 0.03) {
      const now = oneCard.deadline(state)!;
      r = oneCard.onTimeout(state, now);
      recorded = { timeout: true, now };
    } else {
      const m = moves[rng.int(moves.length)];
      const now = state.turnStartedAt + 100 + rng.int(1000);
      r = oneCard.apply(state, m.actor, m.action, now);
      recorded = { actor: m.actor, action: m.action, now };
    }
    if (!r.ok) throw new Error(`seed ${seed}: ${r.reason} ${JSON.stringify(recorded)}`);
    yield { before: state, after: r.state, events: r.events, recorded };
    state = r.state;
  }
  if (!oneCard.result(state)) throw new Error(`seed ${seed} did not finish`);
}

describe('secrecy (§8.3) over 300 seeds × every viewer', () => {
  it('§8.3 — no view or event (as filtered) identifies a hidden card, the draw pile, the RNG state or the seed', () => {
    let checked = 0;
    let reveals = 0;
    const leaks: string[] = [];
    for (let seed = 0; seed < 300; seed++) {
      const variant = VARIANTS[seed % VARIANTS.length];
      const n = 2 + (seed % 5);
      const viewers: (PlayerId | null)[] = [...simPlayers(n).map((p) => p.id), null];
      let stepNo = 0;
      for (const { after, events } of playGame(seed, variant, n)) {
        // Every third state is inspected fully; events of every step are.
        const full = stepNo++ % 3 === 0;
        const finished = oneCard.result(after) !== null;
        for (const viewer of viewers) {
          const hidden = hiddenSet(oneCardSim, after, viewer);
          if (full || finished) {
            const v = oneCard.view(after, viewer);
            for (const l of findLeaks(oneCardSim, hidden, v)) leaks.push(`seed ${seed} view ${viewer}: ${l}`);
            for (const l of findStateLeaks(v, finished ? '' : after.seed, after.rng))
              leaks.push(`seed ${seed} view: ${l}`);
            checked++;
          }
          for (const e of events) {
            const seen = oneCard.eventView(e, viewer);
            if (!seen) continue;
            for (const l of findLeaks(oneCardSim, hidden, seen))
              leaks.push(`seed ${seed} event ${e.type} → ${viewer}: ${l}`);
            if (e.type === 'cardsDrawn' && viewer !== e.player) expect(seen.cards).toBeUndefined();
            if (e.type === 'challengeReveal') {
              expect(viewer).toBe(e.to);
              reveals++;
            }
          }
        }
      }
    }
    expect(leaks.slice(0, 5)).toEqual([]);
    expect(checked).toBeGreaterThan(10_000);
    expect(reveals).toBeGreaterThan(10);
  });
});

describe('determinism and purity', () => {
  const hash = (s: unknown) => createHash('sha256').update(JSON.stringify(s)).digest('hex');

  it('same seed + same action list ⇒ byte-identical state after every step', () => {
    for (const [seed, variant] of [
      [11, VARIANTS[0]],
      [12, VARIANTS[3]],
      [13, VARIANTS[2]],
    ] as const) {
      const steps = [...playGame(seed, variant, 4)];
      let state = oneCard.setup({
        seed: `prop-${seed}`,
        players: simPlayers(4),
        options: options(variant),
        now: 1_800_000_000_000,
      });
      expect(hash(state)).toBe(hash(steps[0].before));
      for (const st of steps) {
        const r =
          'timeout' in st.recorded
            ? oneCard.onTimeout(state, st.recorded.now)
            : oneCard.apply(state, st.recorded.actor, st.recorded.action, st.recorded.now);
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        state = r.state;
        expect(hash(state)).toBe(hash(st.after));
      }
      expect(JSON.parse(JSON.stringify(state))).toEqual(state);
    }
  });

  it('apply and onTimeout never mutate a deep-frozen input state', () => {
    let transitions = 0;
    for (let seed = 20; seed < 32; seed++) {
      for (const st of playGame(seed, VARIANTS[seed % VARIANTS.length], 3 + (seed % 3))) {
        const frozen = deepFreeze(structuredClone(st.before));
        const snap = JSON.stringify(frozen);
        const r =
          'timeout' in st.recorded
            ? oneCard.onTimeout(frozen, st.recorded.now)
            : oneCard.apply(frozen, st.recorded.actor, st.recorded.action, st.recorded.now);
        expect(r.ok).toBe(true);
        expect(JSON.stringify(frozen)).toBe(snap);
        if (r.ok) expect(JSON.stringify(r.state)).toBe(JSON.stringify(st.after));
        transitions++;
      }
    }
    expect(transitions).toBeGreaterThan(500);
  });
});

describe('simulator and records', () => {
  for (const [mode, players, extra] of [
    ['classic', 4, {}],
    ['uno-style', 6, { unoWild4Rule: 'challenge', unoStacking: true }],
  ] as const) {
    it(`simulator: 150 ${mode} games finish with zero violations, leaks and accepted illegal input`, () => {
      const report = runSim({
        adapter: oneCardSim,
        options: { mode, ...extra },
        players,
        games: 150,
        seed: `vitest-${mode}`,
      });
      expect(report.samples).toEqual([]);
      expect(report).toMatchObject({ finished: 150, invariantViolations: 0, leaks: 0, illegalAccepted: 0 });
      expect(report.illegalProbes).toBeGreaterThan(1000);
      expect(report.timeouts).toBeGreaterThan(0);
    });
  }

  it('record → verifyRecord round trip; a tampered record fails', () => {
    const records: GameRecord[] = [];
    runSim({
      adapter: oneCardSim,
      options: { mode: 'uno-style', unoTargetScore: 500, carryScores: { p1: 100 } },
      players: 3,
      games: 6,
      seed: 'rec',
      onRecord: (r) => records.push(JSON.parse(JSON.stringify(r))),
    });
    runSim({
      adapter: oneCardSim,
      options: { multiPlay: true },
      players: 5,
      games: 6,
      seed: 'rec2',
      onRecord: (r) => records.push(JSON.parse(JSON.stringify(r))),
    });
    expect(records).toHaveLength(12);
    for (const rec of records) {
      const out = verifyRecord(oneCard, rec);
      expect(out.problems).toEqual([]);
      expect(out.steps).toBe(rec.actions.length);
      expect(out.result?.seed).toBe(rec.seed);
    }
    const bad = { ...records[0], seed: 'forged' };
    expect(verifyRecord(oneCard, bad).ok).toBe(false);
    const cut = { ...records[1], actions: records[1].actions.slice(0, -1) };
    expect(verifyRecord(oneCard, cut).ok).toBe(false);
  });
});
