/**
 * Waiting in the gateway's tests: `until` polls a condition of this process's state (what a test cannot
 * await as an event) with a bound; `sleep` paces what a test produces. Neither is a fixed wait before
 * an assertion. No state.
 */
/** Resolves after `ms` (pacing, and `until`'s poll interval). */
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `cond` until it holds; throws after `timeoutMs` (generous: a loaded box is slow, never wrong). */
export async function until(cond: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}
