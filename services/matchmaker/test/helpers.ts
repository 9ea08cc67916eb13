/** What the matchmaker test files share: the test game, a quiet logger, waiting (real and fake time), and cleanup after each test. */
import { afterEach } from 'vitest';
import { pino } from 'pino';
import { raceGame } from '../../room-worker/test/fixtures/race-game.ts';

export const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
export const games = { race: raceGame };
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// The bound only ends a hang: what is awaited is a condition, and on a loaded box it can take seconds.
export async function until(cond: () => boolean | Promise<boolean>, ms = 20_000, what = 'condition') {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

/**
 * When an interval set at fake time `start` every `period` ms first fires after `t` (a FakeClock fires it
 * at start + k·period exactly): the dead check, the orphan sweep, the probe and the rebalance rounds.
 */
export const tickAfter = (start: number, period: number, t: number): number =>
  start + period * (Math.floor((t - start) / period) + 1);

/** Fake time forward until a condition holds (one copy, beside FakeClock). */
export { advanceUntil } from '@joke/bus/clock';

/** Registers this file's cleanup list; each test pushes what it started, undone in reverse after it. */
export function cleanupAfterEach(): (() => Promise<void> | void)[] {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c();
  });
  return cleanup;
}
