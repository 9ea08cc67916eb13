/**
 * Turn clocks move in steps: at most CLOCK_STEPS of their whole time, and (given the whole time) at
 * most one a second. A step of a long clock is about a pixel along the rings and bars they draw, so
 * the motion looks as smooth as an exact fraction — but the picture changes a bounded number of times
 * instead of every animation frame, and a frame whose picture did not change is not drawn at all
 * (render-pace.ts): a 30-second turn redraws once a second, not 60 times (issue 41: a still table
 * whose only motion is a turn clock draws at most once a second).
 */
export const CLOCK_STEPS = 120;

/** `frac` (1 → 0) rounded to the clock's steps; `totalMs`, when known, caps them at one a second. */
export function clockStep(frac: number, totalMs?: number): number {
  const steps = totalMs === undefined ? CLOCK_STEPS : Math.max(1, Math.min(CLOCK_STEPS, Math.round(totalMs / 1000)));
  return Math.round(frac * steps) / steps;
}
