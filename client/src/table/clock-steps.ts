/**
 * Turn clocks move in 1/120 steps of their whole time. A step is about a pixel along the rings and
 * bars they draw, so the motion looks as smooth as an exact fraction — but the picture changes
 * 120 times per turn instead of every animation frame, and a frame whose picture did not change
 * is not drawn at all (render-pace.ts): a 30-second turn redraws 4 times a second, not 60.
 */
export const CLOCK_STEPS = 120;

export function clockStep(frac: number): number {
  return Math.round(frac * CLOCK_STEPS) / CLOCK_STEPS;
}
