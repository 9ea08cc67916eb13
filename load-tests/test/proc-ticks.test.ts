import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  allProcesses,
  boxTicks,
  busiest,
  childrenOf,
  entryTicks,
  others,
  parseStat,
  processTicks,
} from '../src/proc-ticks.ts';

const linux = process.platform === 'linux';
/** A reading of all processes, as allProcesses gives it: [pid, name, ticks] rows. */
const at = (rows: [number, string, number][]) => new Map(rows.map(([pid, name, ticks]) => [pid, { pid, name, ticks }]));

describe("measure-stack's CPU accounting (proc-ticks.ts)", () => {
  it('reads utime + stime after the name, whatever spaces and parentheses the name holds', () => {
    const rest = 'S 1 2 3 4 5 6 7 8 9 10 120 34 0 0 20 0 1 0';
    expect(parseStat(`42 (node) ${rest}`)).toEqual({ pid: 42, name: 'node', ticks: 154 });
    expect(parseStat(`7 (a (b) c) ${rest}`)).toEqual({ pid: 7, name: 'a_(b)_c', ticks: 154 });
    expect(parseStat('garbage')).toBeNull();
  });

  it("splits /proc/stat's first line into busy (user nice system irq softirq steal) and all ticks", () => {
    expect(boxTicks('cpu  100 1 50 800 9 2 3 4 0 0\ncpu0 …')).toEqual({ busy: 160, all: 969 });
  });

  it('sums the processes outside the stack that ran, heaviest first, in % of one core', () => {
    const before = at([
      [1, 'kdamond', 100],
      [2, 'node', 0],
      [3, 'bash', 10],
      [4, 'gone', 5],
    ]);
    const after = at([
      [1, 'kdamond', 170],
      [2, 'node', 900],
      [3, 'bash', 20],
      [5, 'new', 50],
    ]);
    // 10 s at 100 ticks per second: pid 2 is the stack's, pid 5 was not there before, pid 4 left.
    expect(others(before, after, new Set([2]), 1000)).toEqual({
      pct: 8,
      top: [
        ['kdamond', 7],
        ['bash', 1],
      ],
    });
  });

  it('names each process that took at least the given share before a run, heaviest first', () => {
    const before = at([
      [1, 'kdamond', 100],
      [2, 'node', 0],
      [3, 'bash', 10],
    ]);
    const after = at([
      [1, 'kdamond', 112],
      [2, 'node', 72],
      [3, 'bash', 18],
      [4, 'new', 90],
    ]);
    // 2 s at 100 ticks per second: node took 36 % of a core, kdamond 6, bash 4; pid 4 has no first reading.
    expect(busiest(before, after, 200, 5)).toEqual([
      { pid: 2, name: 'node', pct: 36 },
      { pid: 1, name: 'kdamond', pct: 6 },
    ]);
    expect(busiest(before, after, 200, 50)).toEqual([]);
  });

  it.runIf(linux)('counts a process and its direct children, and a gone process as 0', async () => {
    // A shell whose child spins for 100 ms of CPU (not of wall time: on a loaded box it may get little of
    // it) and then waits to be killed; the swarm's bot processes are such direct children of the swarm.
    const spin = 'const u = () => process.cpuUsage().user; while (u() < 100000); setInterval(() => {}, 1000);';
    const shell = spawn('sh', ['-c', `node -e "${spin}" & wait`], { stdio: 'ignore' });
    const exited = once(shell, 'exit');
    let kids: number[] = [];
    while (kids.length === 0) {
      kids = childrenOf(shell.pid!);
      if (kids.length === 0) await new Promise((r) => setTimeout(r, 5));
    }
    const all = allProcesses();
    expect(all.get(process.pid)?.ticks).toBeGreaterThan(0);
    expect(all.has(shell.pid!)).toBe(true);
    // Wait on the child's CPU, not on time: its ticks show in its parent's entry.
    while (processTicks(kids[0]) < 10) await new Promise((r) => setTimeout(r, 10));
    expect(entryTicks([shell.pid!])).toBeGreaterThanOrEqual(processTicks(kids[0]));
    process.kill(kids[0]);
    await exited;
    expect(processTicks(shell.pid!)).toBe(0);
    expect(childrenOf(shell.pid!)).toEqual([]);
  });
});
