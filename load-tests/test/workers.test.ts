import { describe, expect, it } from 'vitest';
import { BOT_HEAP_FLAGS, inheritedFlags, withBotHeap } from '../src/workers.ts';

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

  it('size the old generation of a bot process unless the swarm was started with a size of its own', () => {
    expect(BOT_HEAP_FLAGS).toEqual(['--initial-old-space-size=4096']);
    expect(withBotHeap(['--trace-gc'])).toEqual(['--trace-gc', '--initial-old-space-size=4096']);
    expect(withBotHeap(['--initial-old-space-size=512'])).toEqual(['--initial-old-space-size=512']);
  });
});
