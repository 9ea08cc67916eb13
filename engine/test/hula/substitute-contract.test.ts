/** §8.6 through the engine contract: `hula.substitute` and `hula.runtimeOnlyFields`, as the room worker uses them. */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/index.ts';
import type { RecordedStep } from '../../src/record/record.ts';
import { hula, substituteAction, substituteDue } from '../../src/games/hula/index.ts';
import type { HulaMode, HulaState } from '../../src/games/hula/types.ts';
import { expectReplays, options, players, T0 } from './helpers.ts';

const sub = hula.substitute!;

describe('§8.6 substitute on the GameDefinition', () => {
  it('§8.6 — the contract’s substitute is substituteDue / substituteAction', () => {
    expect(sub.due).toBe(substituteDue);
    expect(sub.action).toBe(substituteAction);
  });

  it('§8.6 — runtimeOnlyFields are the substitute and automatic-leave markers, and apply still accepts them', () => {
    expect([...hula.runtimeOnlyFields!].sort()).toEqual(['auto', 'substitute']);
    for (const a of [
      { type: 'draw', from: 'stock', substitute: true },
      { type: 'pass', substitute: true },
      { type: 'reserveLeave', on: true, auto: true },
    ])
      expect(hula.actionSchema.safeParse(a).success).toBe(true);
  });

  it.each<HulaMode>(['monster', 'joker'])(
    '§8.6 — %s: a player disconnected all game is moved by the substitute at `due`, never times out, and the record replays',
    (mode) => {
      const rng = Rng.fromSeed(`substitute-${mode}`);
      const seed = `substitute-seed-${mode}`;
      const opts = options({ mode });
      let s: HulaState = hula.setup({ seed, players: players(3), options: opts, now: T0 });
      let now = T0;
      const actions: RecordedStep[] = [];
      const byKind: Record<string, number> = {};
      for (let i = 0; i < 20_000 && !hula.result(s); i++) {
        const d = hula.deadline(s);
        const due = sub.due(s, 'p1');
        if (due !== null && (d === null || due <= d)) {
          now = Math.max(now, due);
          expect(sub.action(s, 'p1', due - 1)).toBeNull();
          const a = sub.action(s, 'p1', now);
          expect(a).not.toBeNull();
          const r = hula.apply(s, 'p1', a, now);
          if (!r.ok) throw new Error(`substitute move refused: ${r.reason} (${JSON.stringify(a)})`);
          expect(r.events.some((e) => e.type === 'timeout' && e.player === 'p1')).toBe(false);
          s = r.state;
          actions.push({ actor: 'p1', action: a, now });
          byKind[a!.type] = (byKind[a!.type] ?? 0) + 1;
          continue;
        }
        const moves = ['p2', 'p3'].map((p) => ({ p, a: hula.bot(hula.view(s, p), rng) })).filter((m) => m.a !== null);
        if (moves.length === 0) {
          now = Math.max(now, d!);
          const r = hula.onTimeout(s, now);
          if (!r.ok) throw new Error(r.reason);
          expect(r.events.some((e) => e.type === 'timeout' && e.player === 'p1')).toBe(false);
          s = r.state;
          actions.push({ timeout: true, now });
          continue;
        }
        const m = moves[rng.int(moves.length)];
        now += 50 + rng.int(1500);
        if (d !== null && now >= d) now = d - 1;
        const r = hula.apply(s, m.p, m.a, now);
        if (!r.ok) throw new Error(`bot move refused: ${r.reason}`);
        s = r.state;
        actions.push({ actor: m.p, action: m.a, now });
      }
      expect(hula.result(s)).not.toBeNull();
      // The note's policy: draw from the stock, discard the highest card, pass every 땡큐, ready at once.
      expect(byKind.draw).toBeGreaterThan(0);
      expect(byKind.discard).toBeGreaterThan(0);
      expect(Object.keys(byKind).every((k) => ['draw', 'discard', 'pass', 'ready'].includes(k))).toBe(true);
      expect(s.seats[0].timeoutsInRow).toBe(0);
      expectReplays(s, opts, 3, seed, actions);
    },
  );
});
