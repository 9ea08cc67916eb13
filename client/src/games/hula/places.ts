/**
 * Issue 41 §1, for the test hook: where the 훌라 table's overlays stand (toast
 * area, result sheet) and what they must not cover — my hand's cards, the
 * melds on the table, the opponents' badges, both piles and every shown
 * button — in canvas pixels (overlay-report.ts). Pure and read-only.
 */
import type { Named, ScenePlaces } from '../../table-kit/overlay-report.ts';
import type { Rect } from '../../table-kit/rect.ts';
import type { Button } from '../../table-kit/widgets.ts';
import type { HulaLayout } from './layout.ts';

export interface HulaPlaceParts {
  layout: HulaLayout | null;
  viewer: string | null;
  handCount: number;
  melds: { id: number; rect: Rect }[];
  opponents: { id: string; rect: Rect }[];
  buttons: Record<string, Button>;
  toastArea: Rect;
  resultSheet: Rect | null;
}

export function hulaPlaces(p: HulaPlaceParts): ScenePlaces | undefined {
  const l = p.layout;
  if (!l) return undefined;
  const solids: Named[] = [];
  const add = (name: string, rect: Rect | null | undefined) => {
    if (rect && rect.w > 0 && rect.h > 0) solids.push({ name, rect: { ...rect } });
  };
  const { cardW, cardH, slots } = l.hand;
  slots.slice(0, p.handCount).forEach((s, i) => add(`card:${i}`, { x: s.x, y: s.y, w: cardW, h: cardH }));
  for (const m of p.melds) add(`meld:${m.id}`, m.rect);
  for (const o of p.opponents) add(`seat:${o.id}`, o.rect);
  add('pile:stock', l.stock);
  add('pile:discard', l.discard);
  for (const [k, b] of Object.entries(p.buttons)) if (b.visible) add(`button:${k}`, b.rect);
  return {
    toastArea: p.toastArea,
    resultSheet: p.resultSheet,
    rulesButton: null,
    solids,
    seatIds: [...p.opponents.map((o) => o.id), ...(p.viewer ? [p.viewer] : [])],
  };
}
