/**
 * What the test hook reports about the table: every control's rectangle in
 * canvas pixels plus the facts a player reads off the screen. Read-only.
 */
import { cardLabel, type OneCardView } from '../../cards/model.ts';
import { reducedMotion } from '../../settings.ts';
import type { CenterView } from './center-view.ts';
import type { Controls } from './controls.ts';
import type { HandView } from './hand-view.ts';
import { slotBounds, type TableLayout } from './layout.ts';
import type { Rect } from '../../table-kit/rect.ts';
import type { Named, ScenePlaces } from '../../table-kit/overlay-report.ts';
import type { ResultPanel } from '../../table-kit/overlays.ts';
import type { Picker } from './picker.ts';
import type { SeatBadge } from './seat-badge.ts';
import type { TableFrame } from '../../table-kit/source.ts';
import type { Button } from '../../table-kit/widgets.ts';

export interface SnapshotParts {
  layout: TableLayout | null;
  frame: TableFrame<OneCardView> | null;
  controls: Controls | null;
  connection: string;
  banner: string | null;
  bannerLog: string[];
  framesSeen: number;
  busy: boolean;
  shaking: boolean;
  status: string;
  hint: string;
  center: CenterView;
  hand: ReturnType<HandView['snapshot']>;
  buttons: Record<string, Button>;
  seats: SeatBadge[];
  me: SeatBadge | null;
  picker: Picker;
  result: ResultPanel;
  toasts: string[];
  /** Where the toasts stand (overlays.ts Toasts.place). */
  toastArea?: Rect | null;
}

/** Issue 41 §1: the overlays' places and what they must not cover (overlay-report.ts). */
function places(p: SnapshotParts): ScenePlaces | undefined {
  const l = p.layout;
  if (!l) return undefined;
  const solids: Named[] = [];
  const add = (name: string, rect: Rect | null | undefined) => {
    if (rect && rect.w > 0 && rect.h > 0) solids.push({ name, rect: { ...rect } });
  };
  l.cards.forEach((c, i) => add(`card:${i}`, slotBounds(c, l.cardW, l.cardH)));
  const seatIds: string[] = [];
  for (const b of [...p.seats, ...(p.me ? [p.me] : [])]) {
    if (!b.info) continue;
    seatIds.push(b.info.id);
    add(`seat:${b.info.id}`, b.rect);
  }
  if (p.frame) {
    add('pile:draw', l.drawPile);
    add('pile:discard', l.discard);
    add('pile:direction', l.direction);
    if (p.center.declaredLabel()) add('pile:declared', l.declared);
    if (p.center.attackLabel()) add('pile:attack', l.attack);
  }
  for (const [k, b] of Object.entries(p.buttons)) if (b.visible) add(`button:${k}`, b.rect);
  return {
    toastArea: p.toastArea ?? null,
    resultSheet: p.result.panelRect,
    // Drawn on the canvas, it lies under a result sheet rather than over it.
    rulesButton: p.buttons.rules?.visible && !p.result.panelRect ? { ...p.buttons.rules.rect } : null,
    solids,
    seatIds,
  };
}

export function tableSnapshot(p: SnapshotParts): Record<string, unknown> {
  const l = p.layout;
  const f = p.frame;
  const btn = (b: Button) => ({ ...b.rect, enabled: b.enabled, visible: b.visible, label: b.label_, on: b.on });
  return {
    scene: 'table',
    orientation: l?.orientation ?? null,
    width: l?.width ?? 0,
    height: l?.height ?? 0,
    connection: p.connection,
    banner: p.banner,
    bannerLog: p.bannerLog.slice(-10),
    frames: p.framesSeen,
    seq: f?.seq ?? null,
    role: f?.role ?? null,
    finished: f?.view.finished ?? false,
    myTurn: p.controls?.myTurn ?? false,
    busy: p.busy,
    shaking: p.shaking,
    reducedMotion: reducedMotion(),
    status: p.status,
    hint: p.hint,
    attack: p.center.attackLabel(),
    attackCounts: p.center.attackCounts,
    declared: p.center.declaredLabel(),
    cardSize: l ? { w: l.cardW, h: l.cardH } : null,
    cards: p.hand.map(({ id, card, state }) => ({
      id,
      label: cardLabel(card),
      legal: state.legal,
      selected: state.selected,
      visible: state.slot.visible,
      // Inside the uncovered part of the card, near its top where the index is.
      tap: {
        x: state.slot.visible.x + state.slot.visible.w / 2,
        y: state.slot.visible.y + Math.min(state.slot.visible.h / 2, 24),
      },
    })),
    buttons: Object.fromEntries(Object.entries(p.buttons).map(([k, b]) => [k, btn(b)])),
    opponents: p.seats.map((b) => ({ ...b.info, rect: b.rect })),
    me: p.me ? { ...p.me.info, rect: p.me.rect } : null,
    piles: l ? { draw: l.drawPile, discard: l.discard, direction: l.direction, declared: l.declared } : null,
    picker: p.picker.open ? { kind: p.picker.kind, options: p.picker.options, cancel: p.picker.cancelRect } : null,
    result: p.result.data ? { ...p.result.data, buttons: p.result.buttonRects } : null,
    toasts: p.toasts.slice(-10),
    places: places(p),
  };
}
