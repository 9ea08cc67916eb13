/**
 * What the test hook reports about the poker table: every control's
 * rectangle in canvas pixels and the facts a player reads off the screen.
 */
import type { ResultPanel } from '../../table-kit/overlays.ts';
import type { TableFrame } from '../../table-kit/source.ts';
import type { Button } from '../../table-kit/widgets.ts';
import type { ActionButton, BarState } from './actions.ts';
import type { PokerLayout } from './layout.ts';
import type { Rect } from '../../table-kit/rect.ts';
import type { Named, ScenePlaces } from '../../table-kit/overlay-report.ts';
import { potPlaces } from './pot-places.ts';
import { chipsOnTable, opponentsOf, potTotal, type PokerView } from './model.ts';
import type { MyCard } from './table-parts.ts';
import { handEndLines, statusLine } from './status.ts';
import { roundTitle } from './story.ts';
import { rankTable, usedColumns } from './panels.ts';

export interface PokerSnapshotParts {
  layout: PokerLayout | null;
  frame: TableFrame<PokerView> | null;
  view: PokerView | null;
  buttons: { b: Button; a: ActionButton }[];
  mine: MyCard[];
  ui: BarState;
  busy: boolean;
  connection: string;
  frames: number;
  prompt: string;
  result: ResultPanel;
  toasts: string[];
  menu: { rules: Button; leave: Button };
  /** The story model (story.ts) of every seat, as the seats draw it. */
  story: unknown[];
  clock: unknown;
  /** The countdown text on screen now (seat ring or the status-line pill). */
  clockShown: string | null;
  chipMoves: unknown[];
  flips: unknown[];
  /** Where the toasts stand (overlays.ts Toasts.place). */
  toastArea?: Rect | null;
  /** The open NL/PL raise slider: its rect, thumb centre and amounts (bar-view.ts). */
  slider?: {
    rect: Rect;
    thumb: { x: number; y: number };
    min: number;
    max: number;
    unit: number;
    value: number;
  } | null;
}

/** Issue 41 §1: the overlays' places and what they must not cover (overlay-report.ts). */
function places(p: PokerSnapshotParts): ScenePlaces | undefined {
  const l = p.layout;
  const v = p.view;
  if (!l || !v) return undefined;
  const solids: Named[] = [];
  const add = (name: string, rect: Rect | null | undefined) => {
    if (rect && rect.w > 0 && rect.h > 0) solids.push({ name, rect: { ...rect } });
  };
  p.mine.forEach((_, i) => add(`card:${i}`, l.cards[i]?.rect));
  const seatIds: string[] = [];
  opponentsOf(v).forEach((s, i) => {
    seatIds.push(s.id);
    add(`seat:${s.id}`, l.seats[i]);
  });
  if (v.viewer !== null) {
    seatIds.push(v.viewer);
    add(`seat:${v.viewer}`, l.me);
  }
  add('pile:pot', l.pot);
  // Whose turn it is ("… 차례") and the shared clock: a toast once stood on it at 1440×900.
  add('label:turn', l.status);
  l.board.forEach((r, i) => add(`community:${i}`, r));
  for (const { b, a } of p.buttons) add(`button:${a.key}`, b.rect);
  add('slider:raise', p.slider?.rect);
  add('button:rules', p.menu.rules.visible ? p.menu.rules.rect : null);
  add('button:leave', p.menu.leave.visible ? p.menu.leave.rect : null);
  return {
    toastArea: p.toastArea ?? null,
    resultSheet: p.result.panelRect,
    // Drawn on the canvas, it lies under a result sheet rather than over it.
    rulesButton: p.menu.rules.visible && !p.result.panelRect ? { ...p.menu.rules.rect } : null,
    solids,
    seatIds,
  };
}

export function pokerSnapshot(p: PokerSnapshotParts): Record<string, unknown> {
  const l = p.layout;
  const v = p.view;
  const h = v?.hand ?? null;
  return {
    scene: 'poker',
    orientation: l?.orientation ?? null,
    width: l?.width ?? 0,
    height: l?.height ?? 0,
    connection: p.connection,
    frames: p.frames,
    seq: p.frame?.seq ?? null,
    role: p.frame?.role ?? null,
    finished: v?.finished ?? false,
    mode: v?.mode ?? null,
    handNo: h?.handNo ?? 0,
    handsPlayed: v?.handsPlayed ?? 0,
    phase: h?.phase ?? null,
    showdown: (h?.showdown?.length ?? 0) > 0,
    myTurn: !!v && v.legalActions.length > 0,
    legal: v?.legalActions.map((a) => a.type) ?? [],
    busy: p.busy,
    prompt: p.prompt,
    pot: v ? potTotal(v) : 0,
    chips: v ? chipsOnTable(v) : null,
    buttons: p.buttons.map(({ b, a }) => ({ ...b.rect, key: a.key, label: b.label_, enabled: b.enabled })),
    slider: p.slider ?? null,
    menu: { rules: { ...p.menu.rules.rect }, leave: { ...p.menu.leave.rect } },
    cards: p.mine.map((c, i) => {
      const slot = l?.cards[i];
      return {
        id: c.id,
        open: c.open,
        rect: slot?.rect ?? null,
        tap: slot ? { x: slot.visible.x + slot.visible.w / 2, y: slot.visible.y + slot.visible.h / 2 } : null,
        selected: c.id !== null && (p.ui.selected.includes(c.id) || p.ui.choice.openId === c.id),
      };
    }),
    seats: v
      ? opponentsOf(v).map((s, i) => ({ id: s.id, name: s.name, stack: s.stack, rect: l?.seats[i] ?? null }))
      : [],
    layoutRects: l,
    // The §9 side panels as drawn: the 족보표's title and rows (PC), 인디언's used-card boxes.
    ranks: l?.ranks && v ? rankTable(v) : null,
    used: l?.used && v?.mode === 'indian' ? usedColumns(v) : null,
    // My own strip: where my emote pops (chat/seat-anchor.ts).
    selfSeat: v?.viewer && l ? { id: v.viewer, rect: l.me } : null,
    // Where bets fly to and wins leave from: the pot row's chip spot, apart from its words.
    potChips: l ? potPlaces(l).chips : null,
    result: p.result.data ? { ...p.result.data, buttons: p.result.buttonRects } : null,
    toasts: p.toasts.slice(-10),
    story: p.story,
    centre: v ? { status: statusLine(v), awards: handEndLines(v), round: roundTitle(v) } : null,
    clock: p.clock,
    clockShown: p.clockShown,
    chipMoves: p.chipMoves,
    flips: p.flips,
    places: places(p),
  };
}
