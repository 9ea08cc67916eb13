import { describe, expect, it } from 'vitest';
import { inheritedFlags } from '../src/workers.ts';

describe('the bot processes of a swarm (workers.ts)', () => {
  it("run with the swarm's own node flags, all but its module loader, which they get as a path", () => {
    // measure-stack.sh's MEASURE_CPU_PROF and MEASURE_NODE_ARGS reach the bots this way.
    expect(
      inheritedFlags([
        '--trace-gc',
        '--cpu-prof',
        '--cpu-prof-dir=/tmp/p/swarm',
        '--import',
        'tsx',
        '--max-semi-space-size=64',
      ]),
    ).toEqual(['--trace-gc', '--cpu-prof', '--cpu-prof-dir=/tmp/p/swarm', '--max-semi-space-size=64']);
    expect(inheritedFlags(['--import=tsx', '--enable-source-maps'])).toEqual(['--enable-source-maps']);
    expect(inheritedFlags([])).toEqual([]);
  });
});
