/**
 * The no-limit / pot-limit raise slider (poker §9): where the panel's pieces
 * go and how a point on the track maps to a raise-to amount. Pure, so a unit
 * test can pin the mapping and the layout test can check the track against
 * the other controls. Amounts come from the view's legal `nl.raise` (min and
 * max already hold the pot-limit cap and the player's stack); this file only
 * snaps to the table's base unit and never leaves [min, max]. A degenerate
 * range (min === max) maps every point to that one amount.
 */
import type { Rect } from '../../table-kit/rect.ts';
import { grid } from './layout.ts';

export interface RaiseSlider {
  min: number;
  max: number;
  /** The table's base unit: the slider's step. */
  unit: number;
  value: number;
}

/** The amount at `frac` (0 = left end, 1 = right end): the ends are exact, the rest snaps to the unit. */
export function sliderAmount(s: Pick<RaiseSlider, 'min' | 'max' | 'unit'>, frac: number): number {
  const f = Math.max(0, Math.min(1, Number.isFinite(frac) ? frac : 0));
  if (s.max <= s.min || f === 0) return s.min;
  if (f === 1) return s.max;
  const unit = Math.max(1, s.unit);
  const snapped = Math.round((s.min + f * (s.max - s.min)) / unit) * unit;
  return Math.max(s.min, Math.min(s.max, snapped));
}

/** Where `amount` sits on the track (0..1), clamped. */
export function sliderFrac(s: Pick<RaiseSlider, 'min' | 'max'>, amount: number): number {
  if (s.max <= s.min) return 1;
  return Math.max(0, Math.min(1, (amount - s.min) / (s.max - s.min)));
}

/** The thumb's radius on a track `h` tall: big enough to grab on a phone, inside the row. */
export function thumbRadius(h: number): number {
  return Math.max(8, Math.min(18, h / 2 - 4));
}

/** The part of the slider rect the thumb's centre runs along (inset so the thumb stays inside). */
export function trackSpan(r: Rect): { x0: number; x1: number; y: number } {
  const rad = thumbRadius(r.h);
  return { x0: r.x + rad, x1: r.x + r.w - rad, y: r.y + r.h / 2 };
}

/** The amount under the page x of a pointer on the slider rect `r`. */
export function amountAtX(s: Pick<RaiseSlider, 'min' | 'max' | 'unit'>, r: Rect, x: number): number {
  const t = trackSpan(r);
  return sliderAmount(s, t.x1 > t.x0 ? (x - t.x0) / (t.x1 - t.x0) : 1);
}

/**
 * The open raise panel in the bar's three rows: `− [slider] +` on top, the quick
 * buttons under it, then 취소 and a wide confirm. `quick` buttons share the
 * middle row; `cells` is in the bar's button order: minus, plus, quick…, cancel, confirm.
 */
export function raisePanelRects(actions: Rect, rows: number, quick: number): { slider: Rect; cells: Rect[] } {
  const gap = 8;
  const rowH = (actions.h - (rows - 1) * gap) / rows;
  // The panel takes the bar's last three rows (all of it in every layout today).
  const used = Math.min(rows, 3);
  const top = actions.y + actions.h - used * rowH - (used - 1) * gap;
  const row = (i: number): Rect => ({ x: actions.x, y: top + i * (rowH + gap), w: actions.w, h: rowH });
  const four = grid(row(0), 4, 4, 1, gap);
  const slider = { x: four[1].x, y: four[1].y, w: four[2].x + four[2].w - four[1].x, h: rowH };
  const presets = grid(row(1), quick, Math.max(1, quick), 1, gap);
  const last = grid(row(2), 4, 4, 1, gap);
  const confirm = { x: last[1].x, y: last[1].y, w: last[3].x + last[3].w - last[1].x, h: rowH };
  return { slider, cells: [four[0], four[3], ...presets, last[0], confirm] };
}
