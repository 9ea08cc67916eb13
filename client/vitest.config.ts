import { mergeConfig } from 'vitest/config';
import { workspaceConfig } from '../vitest.shared.ts';

// Browser tests each start a platform and a Chromium, then mostly wait: on bots' think time, turn
// clocks, the matchmaker's bot fill, Chromium's software rendering. One file at a time kept this lane
// at 12 min of wall time for about 3.5 min of CPU (2026-12-03, quiet box) and made it the longest lane
// of `npm test` (19m50s in CI). Two files at once overlap those waits; three at once, with other work
// on the box, pushed the load past 20 and a whole-game test ran out of time. The client is built once
// per run (test/support/build-once.ts) and shared by every file.
// A test may take 180 s, not the repository's 30: a browser test only waits on what the page shows, and
// on a box shared with the other lanes a page was starved for minutes in CI (2026-12-03: six harness
// tests of 3–20 s each ran past 30 s one after another; 2026-12-05: the first harness test, a page load,
// a screenshot and one drag, ran past 90 s). One page action alone may take PAGE_TIMEOUT_MS (90 s,
// test/support/browser.ts), so a test of several must be allowed more than that.
// The files share one module graph per vitest worker, as the service workspaces do (vitest.shared.ts):
// every browser file starts its own platform and Chromium in its hooks and closes them, so nothing leans on
// a fresh graph. On a quiet box the lane took 269 s of CPU and 434 s of wall with a graph per file (49 s
// of it importing) and 216 s and 414 s shared (10 s importing), all 345 tests passing both ways (2026-12-05).
export default mergeConfig(workspaceConfig('client', { testTimeout: 180_000 }), {
  // Set-up hooks (a platform, a Chromium, a build) likewise may take 300 s.
  test: { maxWorkers: 2, hookTimeout: 300_000, globalSetup: ['test/support/build-once.ts'] },
});
