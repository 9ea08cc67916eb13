import { describe, expect, it } from 'vitest';
import { SwarmOptions } from '../src/options.ts';
import { fileLimitProblem, FILES_BESIDES_SOCKETS, openFileLimit, socketsPerProcess } from '../src/fd-limit.ts';
import { RunStats } from '../src/stats.ts';
import { reportOf } from '../src/swarm-core.ts';

const limits = (soft: string, hard: string) =>
  [
    'Limit                     Soft Limit           Hard Limit           Units     ',
    'Max processes             95432                95432                processes ',
    `Max open files            ${soft.padEnd(20)} ${hard.padEnd(20)} files     `,
  ].join('\n');

describe('open files for the bots (fd-limit.ts)', () => {
  it('reads the soft limit from /proc/self/limits, and none where it is unlimited or unreadable', () => {
    expect(openFileLimit(limits('20000', '20000'))).toBe(20_000);
    expect(openFileLimit(limits('1024', '524288'))).toBe(1024);
    expect(openFileLimit(limits('unlimited', 'unlimited'))).toBeNull();
    expect(openFileLimit(null)).toBeNull();
    // This process on Linux: whatever it is, a number.
    if (process.platform === 'linux') expect(openFileLimit()).toBeGreaterThan(0);
  });

  it('counts each process its share of the peak tables, widest table of the mix and spectators included', () => {
    expect(socketsPerProcess(SwarmOptions.parse({ tables: 5000 }))).toBe(20_000);
    expect(socketsPerProcess(SwarmOptions.parse({ tables: 5000, workers: 3 }))).toBe(1667 * 4);
    expect(socketsPerProcess(SwarmOptions.parse({ tables: 10, players: 6, spectators: 2 }))).toBe(80);
  });

  it('refuses the run that would hit EMFILE, and says how to make it fit', () => {
    const opts = SwarmOptions.parse({ tables: 5000 });
    const problem = fileLimitProblem(opts, 20_000);
    expect(problem).toContain(`up to ${20_000 + FILES_BESIDES_SOCKETS} files`);
    expect(problem).toContain('ulimit -n');
    expect(problem).toContain('--workers 2');
    expect(fileLimitProblem(opts, 20_000 + FILES_BESIDES_SOCKETS)).toBeNull();
    expect(fileLimitProblem(SwarmOptions.parse({ tables: 5000, workers: 2 }), 20_000)).toBeNull();
    expect(fileLimitProblem(opts, null)).toBeNull();
  });
});

describe('the summary line', () => {
  it('counts errors of the warm-up apart from the measured ones', () => {
    const start = 1_000_000;
    const stats = new RunStats(1000, start, 5000, 1);
    stats.error('socket', start + 100);
    stats.error('socket', start + 2500);
    stats.error('disconnected', start + 6000);
    const r = reportOf(stats, 1);
    expect(r.errors).toBe(1);
    expect(r.errorKinds).toEqual({ disconnected: 1 });
    expect(r.warmupErrors).toBe(2);
  });
});
