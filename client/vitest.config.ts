import { mergeConfig } from 'vitest/config';
import { workspaceConfig } from '../vitest.shared.ts';

// Browser tests each start a platform and Chromium: one file at a time keeps 2 cores responsive.
export default mergeConfig(workspaceConfig('client'), { test: { fileParallelism: false } });
