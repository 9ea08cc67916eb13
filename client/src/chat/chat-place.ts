/**
 * Where the table wants its chat button and chat lines (issue 41 §1): each
 * table scene reserves a square for the round chat button in its top bar and
 * a band for the floating lines (its toast area), and publishes them here in
 * page pixels on every layout. The chat overlay (DOM, created by whoever
 * opened the table) follows them, so no CSS offset has to agree with what the
 * canvas draws. Before any table publishes — or after it has left — the
 * overlay keeps its stylesheet place.
 */
import type { Rect } from '../table-kit/rect.ts';

export interface ChatPlace {
  /** The round chat button (page px). */
  button: Rect;
  /** Where the last chat lines may float (page px). */
  feed: Rect;
}

type Listener = (p: ChatPlace | null) => void;

let place: ChatPlace | null = null;
/** The button as the table laid it out (canvas px), for sheets that must keep clear of it. */
let canvasButton: Rect | null = null;
const listeners = new Set<Listener>();

/** Publishes the table's places, given in canvas (world = CSS) pixels of `canvas` as it sits on the page. */
export function setChatPlace(canvas: HTMLCanvasElement, button: Rect, feed: Rect): void {
  const c = canvas.getBoundingClientRect();
  const shift = (r: Rect): Rect => ({ x: c.left + r.x, y: c.top + r.y, w: r.w, h: r.h });
  place = { button: shift(button), feed: shift(feed) };
  canvasButton = { ...button };
  for (const l of listeners) l(place);
}

/** The table has gone: the overlay goes back to its stylesheet place. */
export function clearChatPlace(): void {
  place = null;
  canvasButton = null;
  for (const l of listeners) l(null);
}

/** Calls `fn` now and on every change; returns the way to stop. */
export function followChatPlace(fn: Listener): () => void {
  listeners.add(fn);
  fn(place);
  return () => listeners.delete(fn);
}

/** The places the open table published (page px), or null. */
export function currentChatPlace(): ChatPlace | null {
  return place;
}

/**
 * Where a sheet spanning the columns [x, x + w] of a canvas `height` tall may start (canvas px), at `top` or
 * lower: below the chat button when the button sits in those columns in the upper half (a top bar's square,
 * or 훌라's spot beside the piles), so a result sheet never covers it — players still chat after a game.
 */
export function clearOfChatButton(x: number, w: number, top: number, height: number): number {
  const b = canvasButton;
  if (!b || b.x >= x + w || b.x + b.w <= x || b.y > height / 2) return top;
  return Math.max(top, b.y + b.h + 8);
}
