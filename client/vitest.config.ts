import { mergeConfig } from 'vitest/config';
import { workspaceConfig } from '../vitest.shared.ts';

// Browser tests each start a platform and a Chromium, then mostly wait: on bots' think time, turn
// clocks, the matchmaker's bot fill, Chromium's software rendering. One file at a time kept this lane
// at 12 min of wall time for about 3.5 min of CPU (2026-12-03, quiet box) and made it the longest lane
// of `npm test` (19m50s in CI). Two files at once overlap those waits; three at once, with other work
// on the box, pushed the load past 20 and a whole-game test ran out of time. The client is built once
// per run (test/support/build-once.ts) and shared by every file.
export default mergeConfig(workspaceConfig('client'), {
  test: { maxWorkers: 2, globalSetup: ['test/support/build-once.ts'] },
});
