import { workspaceConfig } from '../vitest.shared.ts';

// The engine is pure computation with no I/O to hang on: a timeout here only ever measured how busy the
// box was (the property and simulator tests ran 3–6× past 30 s at a load average of 30). A bound stays, for
// a loop that never ends.
export default workspaceConfig('engine', { testTimeout: 900_000 });
