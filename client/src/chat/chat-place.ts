/**
 * Where the table wants its chat button and chat lines (issue 41 §1): each
 * table scene reserves a square for the round chat button in its top bar and
 * a band for the floating lines (its toast area), and publishes them here in
 * page pixels on every layout. The chat overlay (DOM, created by whoever
 * opened the table) follows them, so no CSS offset has to agree with what the
 * canvas draws. Before any table publishes — or after it has left — the
 * overlay keeps its stylesheet place.
 */
import type { Rect } from '../table/layout.ts';

export interface ChatPlace {
  /** The round chat button (page px). */
  button: Rect;
  /** Where the last chat lines may float (page px). */
  feed: Rect;
}

type Listener = (p: ChatPlace | null) => void;

let place: ChatPlace | null = null;
const listeners = new Set<Listener>();

/** Publishes the table's places, given in canvas (world = CSS) pixels of `canvas` as it sits on the page. */
export function setChatPlace(canvas: HTMLCanvasElement, button: Rect, feed: Rect): void {
  const c = canvas.getBoundingClientRect();
  const shift = (r: Rect): Rect => ({ x: c.left + r.x, y: c.top + r.y, w: r.w, h: r.h });
  place = { button: shift(button), feed: shift(feed) };
  for (const l of listeners) l(place);
}

/** The table has gone: the overlay goes back to its stylesheet place. */
export function clearChatPlace(): void {
  place = null;
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
