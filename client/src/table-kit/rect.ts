/**
 * The rectangle every table's pure layout speaks in (canvas CSS pixels, origin top-left) and the
 * checks the layout tests and the test hook's overlay report make with it. Pure, no state.
 */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

export function inside(a: Rect, outer: Rect): boolean {
  return a.x >= outer.x && a.y >= outer.y && a.x + a.w <= outer.x + outer.w && a.y + a.h <= outer.y + outer.h;
}

/** A Rect from a DOMRect or Phaser bounds ({x, y, width, height}). */
export function boundsRect(b: { x: number; y: number; width: number; height: number }): Rect {
  return { x: b.x, y: b.y, w: b.width, h: b.height };
}
