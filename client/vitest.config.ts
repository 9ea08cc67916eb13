import { mergeConfig } from 'vitest/config';
import { workspaceConfig } from '../vitest.shared.ts';

// Browser tests each start a platform and Chromium: one file at a time keeps 2 cores responsive.
// The client is built once per run (test/support/build-once.ts) and shared by every file.
export default mergeConfig(workspaceConfig('client'), {
  test: { fileParallelism: false, globalSetup: ['test/support/build-once.ts'] },
});
