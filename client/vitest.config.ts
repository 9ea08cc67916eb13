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
// Each file keeps its own module graph (`isolate`): the browser files start platforms and Chromiums
// from shared support modules, and sharing their state across files was not tried.
export default mergeConfig(workspaceConfig('client', { testTimeout: 180_000, isolate: true }), {
  // Set-up hooks (a platform, a Chromium, a build) likewise may take 300 s.
  test: { maxWorkers: 2, hookTimeout: 300_000, globalSetup: ['test/support/build-once.ts'] },
});
