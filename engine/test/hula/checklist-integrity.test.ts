/** docs/games/hula.md §10 checklist, items 40–45: secrecy, bad input, determinism, purity, simulator, bot. */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Rng } from '../../src/core/rng.ts';
import { sha256Bytes } from '../../src/core/commit.ts';
import type { GameEvent, PlayerId } from '../../src/core/types.ts';
import { hula } from '../../src/games/hula/index.ts';
import { actionSchema } from '../../src/games/hula/actions.ts';
import { COMMON_REASONS } from '../../src/core/reject.ts';
import { hulaSim } from '../../src/games/hula/sim.ts';
import type { HulaState } from '../../src/games/hula/types.ts';
import { verifyRecord, type RecordedStep } from '../../src/record/record.ts';
import { findLeaks, findStateLeaks, hiddenSet } from '../../src/sim/secrecy.ts';
import { runSim } from '../../src/sim/runner.ts';
import { T0, deepFreeze, no, options, players, position } from './helpers.ts';

/** Plays one bot game, calling `each` with every state and the events that produced it. */
function play(
  seed: string,
  n: number,
  opts: Record<string, unknown>,
  each: (s: HulaState, events: GameEvent[]) => void = () => {},
): { state: HulaState; steps: RecordedStep[] } {
  const rng = Rng.fromSeed(`bot:${seed}`);
  let s = hula.setup({ seed, players: players(n), options: hula.optionsSchema.parse(opts), now: T0 });
  let now = T0;
  const steps: RecordedStep[] = [];
  each(s, []);
  for (let i = 0; i < 20_000 && !hula.result(s); i++) {
    const cands: { p: PlayerId; a: unknown }[] = [];
    for (const p of s.players) {
      const a = hula.bot(hula.view(s, p.id), rng);
      if (a) cands.push({ p: p.id, a });
    }
    const dl = hula.deadline(s);
    let r;
    if (cands.length === 0 || rng.float() < 0.03) {
      now = Math.max(now, dl!);
      r = hula.onTimeout(s, now);
      steps.push({ timeout: true, now });
    } else {
      const c = cands[rng.int(cands.length)];
      now += 30 + rng.int(900);
      if (dl !== null && now >= dl) now = dl - 1;
      r = hula.apply(s, c.p, c.a, now);
      steps.push({ actor: c.p, action: c.a, now });
    }
    if (!r.ok) throw new Error(`${seed}: ${r.reason}`);
    s = r.state;
    each(s, r.events);
  }
  return { state: s, steps };
}

describe('§10 훌라 checklist — integrity', () => {
  it('§10 — 40. secrecy over 300 seeds × every viewer: no hidden card, seed or RNG state in any view or event; seed only in the result', () => {
    let checked = 0;
    for (let i = 0; i < 300; i++) {
      const n = 2 + (i % 4);
      const mode = i % 2 ? 'joker' : 'monster';
      const viewers: (PlayerId | null)[] = [...players(n).map((p) => p.id), null];
      const { state } = play(`secret${i}`, n, { mode, rounds: i % 10 === 0 ? 3 : 1 }, (s, events) => {
        const over = hula.result(s) !== null;
        for (const v of viewers) {
          const hidden = hiddenSet(hulaSim, s, v);
          const view = hula.view(s, v);
          expect(findLeaks(hulaSim, hidden, view)).toEqual([]);
          expect(findStateLeaks(view, s.seed, s.rng)).toEqual([]);
          expect(view.seedCommit).toBe(s.seedCommit);
          for (const e of events) {
            const seen = hula.eventView(e, v);
            if (!seen) continue;
            expect(findLeaks(hulaSim, hidden, seen)).toEqual([]);
            expect(findStateLeaks(seen, over ? '' : s.seed, s.rng)).toEqual([]);
          }
          checked++;
        }
      });
      expect(hula.result(state)!.seed).toBe(`secret${i}`);
    }
    expect(checked).toBeGreaterThan(10_000);
  });

  it('§10 — 41. bad input is refused with the state untouched; actionSchema and apply agree on shapes', () => {
    const s = position({ hands: ['H5 D5 C5 S9', 'C1 C2 C3 C4'] });
    expect(no(s, 'p2', { type: 'draw', from: 'stock' })).toBe('지금은 내 차례가 아니에요');
    expect(no(s, 'intruder', { type: 'draw', from: 'stock' })).toBe('이 게임의 참가자가 아니에요');
    for (const bad of [
      null,
      42,
      'draw',
      [],
      {},
      { type: 'draw' },
      { type: 'draw', from: 'stock', x: 1 },
      { type: 'fly' },
    ])
      expect(no(s, 'p1', bad)).toBe('잘못된 요청이에요');
    const drawn = hula.apply(s, 'p1', { type: 'draw', from: 'stock' }, T0 + 100);
    if (!drawn.ok) throw new Error(drawn.reason);
    expect(no(drawn.state, 'p1', { type: 'discard', cardId: 'C1' })).toBe('손에 없는 카드예요');
    expect(no(drawn.state, 'p1', { type: 'meld', cardIds: ['H5', 'H5', 'D5'] })).toBe('같은 카드를 두 번 골랐어요');
    const discarded = hula.apply(drawn.state, 'p1', { type: 'discard', cardId: 'S9' }, T0 + 200);
    if (!discarded.ok) throw new Error(discarded.reason);
    expect(no(discarded.state, 'p1', { type: 'discard', cardId: 'S9' })).toBe('지금은 등록하거나 버릴 수 없어요');
    const samples: unknown[] = [
      { type: 'draw', from: 'stock' },
      { type: 'draw', from: 'stock', substitute: true },
      { type: 'draw', from: 'stock', substitute: 'yes' },
      { type: 'meld', cardIds: ['S1'] },
      { type: 'meld', cardIds: [] },
      { type: 'meld', cardIds: ['S1', 3] },
      { type: 'layOff', cardIds: ['S1'], meldId: 2, end: 'low' },
      { type: 'layOff', cardIds: ['S1'], meldId: 1.5 },
      { type: 'layOff', cardIds: ['S1'], end: 'middle' },
      { type: 'discard', cardId: '' },
      { type: 'discard', cardId: 'TOOLONGID' },
      { type: 'thankYou', cardIds: ['S1', 'S2'] },
      { type: 'reserveLeave', on: true, auto: true },
      { type: 'reserveLeave', on: 'yes' },
      { type: 'reserveLeave', on: true, substitute: true },
      { type: 'stop' },
      { type: 'pass', extra: 1 },
    ];
    // apply() parses with actionSchema itself: it calls a shape malformed exactly when the schema refuses it.
    const malformed = (x: unknown) => {
      const r = hula.apply(s, 'p1', x, T0 + 1000);
      return !r.ok && r.reason === COMMON_REASONS.malformed;
    };
    const agree = (x: unknown) => expect(malformed(x)).toBe(!actionSchema.safeParse(x).success);
    for (const x of samples) agree(x);
    fc.assert(
      fc.property(
        fc.oneof(
          fc.anything(),
          fc.record(
            {
              type: fc.constantFrom(
                'draw',
                'meld',
                'layOff',
                'discard',
                'stop',
                'special',
                'thankYou',
                'pass',
                'ready',
                'reserveLeave',
              ),
              from: fc.option(fc.constantFrom('stock', 'discard', 'x'), { nil: undefined }),
              cardIds: fc.option(fc.array(fc.string({ maxLength: 9 }), { maxLength: 14 }), { nil: undefined }),
              cardId: fc.option(fc.string({ maxLength: 9 }), { nil: undefined }),
              on: fc.option(fc.boolean(), { nil: undefined }),
            },
            { requiredKeys: ['type'] },
          ),
        ),
        (x) => {
          agree(x);
        },
      ),
      { numRuns: 2000, seed: 7 },
    );
  });

  it('§10 — 42. determinism: replaying the same seed and (action, time) steps gives the same state hash at every step and a verified record', () => {
    const hashes: string[] = [];
    const { state, steps } = play('replay', 4, { mode: 'joker', rounds: 3 }, (s) =>
      hashes.push(Buffer.from(sha256Bytes(JSON.stringify(s))).toString('hex')),
    );
    let s = hula.setup({
      seed: 'replay',
      players: players(4),
      options: options({ mode: 'joker', rounds: 3 }),
      now: T0,
    });
    expect(Buffer.from(sha256Bytes(JSON.stringify(s))).toString('hex')).toBe(hashes[0]);
    steps.forEach((st, i) => {
      const r = 'timeout' in st ? hula.onTimeout(s, st.now) : hula.apply(s, st.actor, st.action, st.now);
      if (!r.ok) throw new Error(r.reason);
      s = r.state;
      expect(Buffer.from(sha256Bytes(JSON.stringify(s))).toString('hex')).toBe(hashes[i + 1]);
    });
    const out = verifyRecord(hula, {
      game: 'hula',
      options: { mode: 'joker', rounds: 3 },
      players: players(4),
      startedAt: T0,
      seedCommit: state.seedCommit,
      rulesVersion: state.rulesVersion,
      seed: 'replay',
      actions: steps,
      result: hula.result(state),
    });
    expect(out.problems).toEqual([]);
    expect(out.ok).toBe(true);
  });

  it('§10 — 43. purity: apply and onTimeout on deep-frozen states neither throw nor change their input', () => {
    for (const mode of ['monster', 'joker']) {
      let prev: HulaState | null = null;
      play(`pure-${mode}`, 5, { mode, rounds: 3 }, (s) => {
        if (prev) {
          const json = JSON.stringify(prev);
          for (const p of prev.players) {
            const a = hula.bot(hula.view(prev, p.id), Rng.fromSeed('x'));
            if (a) hula.apply(prev, p.id, a, prev.turnStartedAt + 100);
            hula.apply(prev, p.id, { type: 'discard', cardId: 'S1' }, prev.turnStartedAt + 100);
          }
          const d = hula.deadline(prev);
          if (d !== null) hula.onTimeout(prev, d);
          expect(JSON.stringify(prev)).toBe(json);
        }
        prev = deepFreeze(s);
      });
    }
  });

  it('§10 — 44. simulator: 괴물 and 조커 at 2 and 5 players finish every game with no violation, leak or accepted illegal input', () => {
    for (const mode of ['monster', 'joker'])
      for (const n of [2, 5]) {
        const r = runSim({
          adapter: hulaSim,
          options: { mode, rounds: 3 },
          players: n,
          games: 12,
          seed: `t-${mode}-${n}`,
        });
        expect({
          mode,
          n,
          v: r.invariantViolations,
          l: r.leaks,
          i: r.illegalAccepted,
          f: r.finished,
          s: r.samples,
        }).toEqual({
          mode,
          n,
          v: 0,
          l: 0,
          i: 0,
          f: 12,
          s: [],
        });
        expect(r.illegalProbes).toBeGreaterThan(100);
      }
  });

  it('§10 — 45. bot: from its own view it registers what it can, takes a 땡큐 it can use, and stops with a low hand', () => {
    const rng = Rng.fromSeed('bot');
    const meldable = position({
      hands: ['H5 D5 C5 S9 S13', 'C1 C2 C3 C4'],
      phase: { kind: 'act', seat: 0, deadline: T0 + 15_000, via: 'stock', thankYouFrom: null },
    });
    expect(hula.bot(hula.view(meldable, 'p1'), rng)).toEqual({ type: 'meld', cardIds: ['H5', 'D5', 'C5'] });
    expect(hula.bot(hula.view(meldable, 'p2'), rng)).toBeNull();
    const loose = position({
      hands: ['S9 S13 D2', 'C1 C2 C3 C4'],
      phase: { kind: 'act', seat: 0, deadline: T0 + 15_000, via: 'stock', thankYouFrom: null },
    });
    expect(hula.bot(hula.view(loose, 'p1'), rng)).toEqual({ type: 'discard', cardId: 'S13' });
    const ask = position({
      hands: ['S2 S4', 'H10 H11 C3', 'D2 D4'],
      discard: 'H9',
      phase: { kind: 'thankYouAsk', discarder: 0, order: [1, 2], index: 0, deadline: T0 + 5000 },
    });
    expect(hula.bot(hula.view(ask, 'p2'), rng)).toEqual({ type: 'thankYou', cardIds: ['H10', 'H11'] });
    const cannot = { ...ask, phase: { ...ask.phase, index: 1 } } as HulaState;
    expect(hula.bot(hula.view(cannot, 'p3'), rng)).toEqual({ type: 'pass' });
    // 조커 race: a bot that cannot use the card passes at once (nobody waits out the window for it);
    // the discarder and a bot that already answered do nothing.
    const race = position({
      mode: 'joker',
      hands: ['S2 S4', 'H10 H11 C3', 'D2 D4'],
      discard: 'H9',
      phase: { kind: 'thankYouRace', discarder: 0, deadline: T0 + 7000, claims: [], windowEnd: null, passed: [] },
    });
    expect(hula.bot(hula.view(race, 'p3'), rng)).toEqual({ type: 'pass' });
    expect(hula.bot(hula.view(race, 'p1'), rng)).toBeNull();
    const answered = { ...race, phase: { ...race.phase, passed: [2] } } as HulaState;
    expect(hula.bot(hula.view(answered, 'p3'), rng)).toBeNull();
    const presses = Array.from({ length: 50 }, () => hula.bot(hula.view(race, 'p2'), rng));
    expect(presses.some((a) => a?.type === 'thankYou')).toBe(true);
    expect(presses.every((a) => a === null || a.type === 'thankYou')).toBe(true);
    const reg = [true, true, true];
    const low = position({ hands: ['H1 C2', 'C5 C6 C8 C9 C10', 'D5 D6 D8 D9 D10'], registered: reg });
    expect(hula.bot(hula.view(low, 'p1'), rng)).toEqual({ type: 'stop' });
    // The same 3 points unregistered is 소카, worth four times a stop.
    expect(hula.bot(hula.view({ ...low, registered: [false, true, true] }, 'p1'), rng)).toEqual({ type: 'special' });
    const high = position({ hands: ['H12 C13', 'C5 C6 C8 C9 C10', 'D5 D6 D8 D9 D10'], registered: reg });
    expect(hula.bot(hula.view(high, 'p1'), rng)).toEqual({ type: 'draw', from: 'stock' });
    const useful = position({
      hands: ['H10 H11 S12', 'C5 C6 C8 C9 C10', 'D5 D6 D8 D9 D10'],
      discard: 'H9',
      registered: reg,
    });
    expect(hula.bot(hula.view(useful, 'p1'), rng)).toEqual({ type: 'draw', from: 'discard' });
  });
});
