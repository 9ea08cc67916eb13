import { mergeConfig } from 'vitest/config';
import { workspaceConfig } from '../vitest.shared.ts';

// One file at a time: the cluster test starts eight processes and the CLI test three plus Chromium;
// side by side on two cores they starve each other's start-up.
export default mergeConfig(workspaceConfig('load-tests'), { test: { fileParallelism: false } });
