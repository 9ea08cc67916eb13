/**
 * poker §9 NL/PL: the raise slider. The mapping from a point on the track to
 * a raise-to amount (exact ends, base-unit snapping, never outside the legal
 * range), the pot-limit cap taken from a real engine view (the engine accepts
 * every amount the slider can give and refuses one unit above its end). The
 * panel's rectangles on every screen are checked in poker-layout.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { poker, simPlayers } from '@joke/engine/client';
import { actionBar, emptyBarState, pressUi } from '../src/games/poker/actions.ts';
import { amountAtX, sliderAmount, sliderFrac, trackSpan } from '../src/games/poker/raise-slider.ts';
import type { PokerView } from '../src/games/poker/model.ts';

const FRACS = Array.from({ length: 101 }, (_, i) => i / 100);

describe('poker §9 NL/PL 슬라이더: position ↔ amount', () => {
  it('the ends are the legal minimum and maximum, exactly', () => {
    const s = { min: 40, max: 1_337, unit: 20 };
    expect(sliderAmount(s, 0)).toBe(40);
    expect(sliderAmount(s, 1)).toBe(1_337);
    // Beyond the track (a drag past either end) stays at the ends.
    expect(sliderAmount(s, -0.5)).toBe(40);
    expect(sliderAmount(s, 7)).toBe(1_337);
    expect(sliderFrac(s, 40)).toBe(0);
    expect(sliderFrac(s, 1_337)).toBe(1);
  });

  it('between the ends every amount is a multiple of the base unit, in range, and never goes down', () => {
    const s = { min: 30, max: 2_000, unit: 20 };
    let prev = -Infinity;
    const seen = new Set<number>();
    for (const f of FRACS) {
      const a = sliderAmount(s, f);
      expect(a).toBeGreaterThanOrEqual(s.min);
      expect(a).toBeLessThanOrEqual(s.max);
      expect(a).toBeGreaterThanOrEqual(prev);
      prev = a;
      if (f > 0 && f < 1) expect(a % 20, `amount ${a} at ${f}`).toBe(0);
      seen.add(a);
    }
    // The track reaches many amounts, not only the two ends.
    expect(seen.size).toBeGreaterThan(50);
    // A thumb put at an amount's place gives that amount back.
    for (const a of [40, 500, 1_000, 1_980]) expect(sliderAmount(s, sliderFrac(s, a))).toBe(a);
  });

  it('a one-amount range (all-in is the only raise) gives that amount anywhere', () => {
    const s = { min: 750, max: 750, unit: 10 };
    for (const f of [0, 0.3, 1]) expect(sliderAmount(s, f)).toBe(750);
    expect(sliderFrac(s, 750)).toBe(1);
  });

  it('a pointer x maps through the inset track: the thumb centre at either end gives min / max', () => {
    const r = { x: 100, y: 700, w: 180, h: 56 };
    const t = trackSpan(r);
    const s = { min: 20, max: 1_000, unit: 10 };
    expect(t.x0).toBeGreaterThan(r.x);
    expect(t.x1).toBeLessThan(r.x + r.w);
    expect(amountAtX(s, r, t.x0)).toBe(20);
    expect(amountAtX(s, r, r.x)).toBe(20);
    expect(amountAtX(s, r, t.x1)).toBe(1_000);
    expect(amountAtX(s, r, r.x + r.w + 50)).toBe(1_000);
    expect(amountAtX(s, r, (t.x0 + t.x1) / 2)).toBe(510);
  });

  for (const [mode, betting] of [
    ['omaha', 'potLimit'],
    ['holdem', 'noLimit'],
  ] as const)
    it(`${mode} ${betting}: the slider spans the engine's raise range, every amount it gives is accepted`, () => {
      const players = simPlayers(4);
      const options = poker.optionsSchema.parse({ mode, betting, handLimit: 10 });
      const now = 1_800_000_000_000;
      let s = poker.setup({ seed: `slider-${mode}`, players, options, now });
      let checked = 0;
      let capped = 0;
      // Walk a few decisions (each player raising the minimum) so the pot, and the pot-limit cap, grow.
      for (let step = 0; step < 6; step++) {
        const who = players.find((p) => poker.view(s, p.id).legalActions.some((a) => a.type === 'nl.raise'));
        if (!who) break;
        const v: PokerView = poker.view(s, who.id);
        const raise = v.legalActions.find((a) => a.type === 'nl.raise');
        if (!raise || raise.type !== 'nl.raise') break;
        const open = actionBar(v, emptyBarState()).buttons.find((b) => b.key === 'raise')!;
        const ui = pressUi(v, emptyBarState(), open);
        const slider = actionBar(v, ui).slider!;
        expect(slider.min).toBe(raise.min);
        expect(slider.max).toBe(raise.max);
        expect(slider.unit).toBe(v.baseUnit);
        if (betting === 'potLimit') {
          // The cap: the engine refuses one unit more than the slider's right end.
          const over = poker.apply(s, who.id, { type: 'nl.raise', to: slider.max + v.baseUnit }, now + 1);
          const stack = v.seats.find((x) => x.id === who.id)!.stack;
          if (slider.max + v.baseUnit <= stack) {
            expect(over.ok, 'one unit over the pot limit').toBe(false);
            capped++;
          }
        }
        for (const f of [0, 0.13, 0.5, 0.77, 1]) {
          const to = sliderAmount(slider, f);
          // The confirm button sends what the slider shows.
          const bar = actionBar(v, { ...ui, raiseTo: to });
          const confirm = bar.buttons.find((b) => b.key === 'confirmRaise')!;
          expect(confirm.action).toEqual({ type: 'nl.raise', to });
          expect(confirm.label).toContain(to.toLocaleString('ko-KR'));
          expect(bar.slider!.value).toBe(to);
          const r = poker.apply(s, who.id, confirm.action!, now + 1);
          expect(r.ok, `raise to ${to} at ${f}: ${r.ok ? '' : r.reason}`).toBe(true);
          checked++;
        }
        // −/+ and the quick buttons move the slider's value too.
        const plus = actionBar(v, ui).buttons.find((b) => b.key === 'plus')!;
        if (plus.enabled)
          expect(actionBar(v, pressUi(v, ui, plus)).slider!.value).toBe(Math.min(raise.max, raise.min + v.baseUnit));
        const pot = actionBar(v, ui).buttons.find((b) => b.key === 'preset2')!;
        expect(actionBar(v, pressUi(v, ui, pot)).slider!.value).toBe((pot.ui as { raiseTo: number }).raiseTo);
        const r = poker.apply(s, who.id, { type: 'nl.raise', to: raise.min }, now + 1);
        if (!r.ok) break;
        s = r.state;
      }
      expect(checked).toBeGreaterThanOrEqual(10);
      // The pot-limit case did meet a cap below the stack (the check above is not vacuous).
      if (betting === 'potLimit') expect(capped).toBeGreaterThan(0);
    });
});
