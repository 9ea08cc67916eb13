/**
 * For the test hook (issue 41 §1 "a layout that never covers"): where every
 * overlay sits and what it must never cover, all in canvas CSS pixels (the
 * coordinates every other rectangle of `layout()` uses). Read-only.
 *
 * Overlays are the chat button and (when open) its panel, the toast area,
 * the emote bubble of every seat, the result sheet and the rules button; the
 * things they must not cover ("solids") are the cards, seats, piles,
 * community cards and buttons each table scene lists in its snapshot (포커
 * adds its turn label). The
 * DOM overlays are measured on the page, so a CSS offset that disagrees with
 * the canvas shows up here. Nothing here fails: a missing element is null.
 */
import type Phaser from 'phaser';
import { emoteRect } from '../chat/seat-anchor.ts';
import type { Rect } from './rect.ts';

export interface Named {
  name: string;
  rect: Rect;
}

export interface OverlayReport {
  overlays: Named[];
  solids: Named[];
  /** The result sheet is up: it is modal (dims the table), so only what floats over it is checked against it. */
  modal: boolean;
  /** The chat panel is open as a sheet over the dimmed table (a phone with no height to spare for its band). */
  chatModal: boolean;
}

/** What a scene adds to its snapshot for this report (canvas px). */
export interface ScenePlaces {
  toastArea: Rect | null;
  resultSheet: Rect | null;
  /** The scene's own rules button when it draws one on the canvas (the HTML one is measured here). */
  rulesButton: Rect | null;
  solids: Named[];
  /** Every seat an emote can come from (the viewer's own included). */
  seatIds: string[];
}

function pageRect(sel: string, canvas: DOMRect): Rect | null {
  const e = document.querySelector<HTMLElement>(sel);
  if (!e || e.hidden || e.closest('[hidden]')) return null;
  const b = e.getBoundingClientRect();
  if (b.width === 0 || b.height === 0) return null;
  return { x: b.left - canvas.left, y: b.top - canvas.top, w: b.width, h: b.height };
}

export function overlayReport(game: Phaser.Game, places: ScenePlaces | undefined): OverlayReport | null {
  if (!places) return null;
  const canvas = game.canvas.getBoundingClientRect();
  const overlays: Named[] = [];
  const add = (name: string, rect: Rect | null) => {
    if (rect && rect.w > 0 && rect.h > 0) overlays.push({ name, rect });
  };
  add('chatButton', pageRect('[data-testid=chat-toggle]', canvas));
  add('chatPanel', pageRect('[data-testid=chat-panel]', canvas));
  add('toastArea', places.toastArea);
  for (const id of places.seatIds) {
    const r = emoteRect(game, id);
    add(`emote:${id}`, { x: r.x - canvas.left, y: r.y - canvas.top, w: r.w, h: r.h });
  }
  add('resultSheet', places.resultSheet);
  add('rulesButton', pageRect('[data-testid=table-rules]', canvas) ?? places.rulesButton);
  const chatModal = !!document.querySelector('[data-testid=chat-panel].modal:not([hidden])');
  return { overlays, solids: places.solids, modal: places.resultSheet !== null, chatModal };
}
