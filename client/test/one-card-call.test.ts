/**
 * When the round 원카드 button offers 잡기 (issue 15): only while the view
 * shows a window nobody has called yet. Checked on real engine states, and
 * against the engine itself: over whole bot games, the button is enabled for
 * a viewer exactly when the engine would accept that viewer's press.
 */
import { describe, expect, it } from 'vitest';
import {
  Rng,
  oneCard,
  type OneCardCard as Card,
  type OneCardOptions,
  type OneCardState,
  type OneCardView,
} from '@joke/engine/client';
import { oneCardCall, openWindow } from '../src/games/one-card/one-card-call.ts';

const players = ['a', 'b', 'c'].map((id) => ({ id, name: id }));
const std = (id: string, suit: 'S' | 'H' | 'D' | 'C', rank: number): Card => ({ id, kind: 'std', suit, rank });
const view = (s: OneCardState, who: string | null) => oneCard.view(s, who) as OneCardView;

function table(mode: 'classic' | 'uno-style', extra: Partial<OneCardOptions> = {}, seed = 'call'): OneCardState {
  const options = oneCard.optionsSchema.parse({ mode, ...extra }) as OneCardOptions;
  return structuredClone(oneCard.setup({ seed, players, options, now: 1_000 })) as OneCardState;
}

/** b plays its ♥5 onto ♥4 and keeps one card, without calling. */
function bDownToOne(): OneCardState {
  const s = table('classic', { autoDeclare: false });
  s.current = 'b';
  s.discard = [std('top', 'H', 4)];
  s.hands.b = [std('h5', 'H', 5), std('s9', 'S', 9)];
  const r = oneCard.apply(s, 'b', { type: 'play', cardIds: ['h5'] }, 2_000);
  if (!r.ok) throw new Error(r.reason);
  return r.state;
}

describe('원카드 잡기 follows the view (issue 15)', () => {
  it('§5.3 (../shared/specs/one-card.md) — 잡기 is offered while the window is open and uncalled, and goes the moment the owner calls', () => {
    const open = bDownToOne();
    expect(oneCardCall(view(open, 'a'))).toMatchObject({ enabled: true, catch: true, shake: true, target: 'b' });
    expect(oneCardCall(view(open, 'a')).label).toContain('잡기');
    expect(oneCardCall(view(open, 'b'))).toMatchObject({ enabled: true, catch: false, label: '원카드!' });
    expect(oneCardCall(view(open, null))).toMatchObject({ enabled: false, catch: false });

    const called = oneCard.apply(open, 'b', { type: 'declareOneCard' }, 2_100);
    if (!called.ok) throw new Error(called.reason);
    const after = oneCardCall(view(called.state, 'a'));
    expect(after).toMatchObject({ enabled: false, catch: false, shake: false, target: null });
    expect(after.label).not.toContain('잡기');
    // What pressing it anyway would have earned.
    const late = oneCard.apply(called.state, 'a', { type: 'declareOneCard' }, 2_200);
    expect(late).toMatchObject({ ok: false, reason: '이미 원카드를 외쳤어요' });
  });

  it('§5.3 (../shared/specs/one-card.md) — a play that calls with it never offers 잡기, and one press per window is enough', () => {
    const s = table('classic', { autoDeclare: false });
    s.current = 'b';
    s.discard = [std('top', 'H', 4)];
    s.hands.b = [std('h5', 'H', 5), std('s9', 'S', 9)];
    const r = oneCard.apply(s, 'b', { type: 'play', cardIds: ['h5'], declareOneCard: true }, 2_000);
    if (!r.ok) throw new Error(r.reason);
    expect(oneCardCall(view(r.state, 'a'))).toMatchObject({ enabled: false, catch: false });

    const open = bDownToOne();
    const w = openWindow(view(open, 'a'))!;
    // Pressed for this window and waiting for the answer: nothing more to press, still shown as 잡기.
    expect(oneCardCall(view(open, 'a'), w.openedSeq)).toMatchObject({ enabled: false, catch: true });
    // An earlier window's press does not hold this one back.
    expect(oneCardCall(view(open, 'a'), w.openedSeq - 1).enabled).toBe(true);
  });

  it('§5.3 (../shared/specs/one-card.md) — over whole bot games the button is enabled exactly when the engine accepts the press', () => {
    let offered = 0;
    let called = 0;
    for (const [mode, seed] of [
      ['classic', 'g1'],
      ['classic', 'g2'],
      ['uno-style', 'g3'],
    ] as const) {
      let s = table(mode, { autoDeclare: false, handSize: 5 }, seed);
      const rng = Rng.fromSeed(seed, 'bot');
      for (let step = 0; step < 400 && s.phase.kind !== 'finished'; step++) {
        for (const p of s.seats) {
          const shown = oneCardCall(view(s, p)).enabled;
          const accepted = oneCard.apply(s, p, { type: 'declareOneCard' }, 5_000 + step).ok;
          expect(shown, `${mode} ${seed} step ${step} viewer ${p}`).toBe(accepted);
          if (shown) offered++;
        }
        if (s.oneCardWindow?.declared) called++;
        // Every other open window is called by its owner, so called windows come up too.
        const w = s.oneCardWindow;
        if (w && !w.declared && step % 2 === 0) {
          const r = oneCard.apply(s, w.player, { type: 'declareOneCard' }, 5_000 + step);
          if (r.ok) s = r.state;
          continue;
        }
        // The player to move acts as a bot would, but never calls (that is left to the line above).
        const mover = s.phase.kind === 'wild4Response' ? s.phase.target : s.current;
        let a = oneCard.bot(view(s, mover), rng) ?? { type: 'draw' };
        if (a.type === 'declareOneCard') a = { type: 'draw' };
        if (a.type === 'play') a = { ...a, declareOneCard: false };
        const r = oneCard.apply(s, mover, a, 5_000 + step);
        if (r.ok) s = r.state;
        else {
          const t = oneCard.onTimeout(s, 10_000_000 + step);
          if (!t.ok) throw new Error(t.reason);
          s = t.state;
        }
      }
    }
    // The games really went through open windows and called ones (the check was not vacuous).
    expect(offered).toBeGreaterThan(0);
    expect(called).toBeGreaterThan(0);
  });
});
