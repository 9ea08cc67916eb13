/**
 * CPU ticks of processes from /proc, read in this process: measure-stack's sampler (scripts/cpu-sampler.ts).
 *
 * Why not `pgrep`, `awk` and `bc` from the shell, as the script first did: on the VMs this runs on every
 * fork and exec is dear (page-table isolation, paravirtualised page tables), and a sample of seven processes
 * took ≈ 40 of them — `perf record -a` at 3,000 tables (2026-12-05) charged bash, pgrep, awk, bc and getconf
 * with ≈ 7 % of the box, in a burst every 5 s that the stack under measurement had to wait out.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** One process's line of /proc/PID/stat, the fields this module needs. */
export interface ProcStat {
  pid: number;
  /** The command name, spaces made `_` so that a line of names splits on spaces. */
  name: string;
  /** utime + stime, in clock ticks. */
  ticks: number;
}

/**
 * Parses a /proc/PID/stat line. The name sits in parentheses and may itself hold spaces and parentheses,
 * so the fields after it are counted from the last `)`: state is field 3, utime 14, stime 15.
 */
export function parseStat(line: string): ProcStat | null {
  const open = line.indexOf(' (');
  const close = line.lastIndexOf(') ');
  if (open < 0 || close < open) return null;
  const rest = line.slice(close + 2).split(' ');
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) return null;
  return {
    pid: Number(line.slice(0, open)),
    name: line.slice(open + 2, close).replace(/ /g, '_'),
    ticks: utime + stime,
  };
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'latin1');
  } catch {
    return null; // the process is gone, or never was
  }
}

/** utime + stime of one process (all its threads), 0 where it is gone. */
export function processTicks(pid: number): number {
  const text = readText(`/proc/${pid}/stat`);
  return (text && parseStat(text)?.ticks) || 0;
}

/** The direct children of a process, from each of its threads' `children` file (whichever thread forked them). */
export function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const task of tasks) {
    const text = readText(`/proc/${pid}/task/${task}/children`);
    if (text) for (const c of text.trim().split(' ')) if (c) out.push(Number(c));
  }
  return out;
}

/**
 * A stack entry's processes: the pids given (a `+`-joined group such as several gateways) and their
 * direct children (the swarm's bot processes), as the script's `ticks` counted them.
 */
export function entryPids(pids: readonly number[]): number[] {
  const out: number[] = [];
  for (const p of pids) out.push(p, ...childrenOf(p));
  return out;
}

/** utime + stime of an entry's processes and their children now (a child that exited took its ticks along). */
export function entryTicks(pids: readonly number[]): number {
  let t = 0;
  for (const p of entryPids(pids)) t += processTicks(p);
  return t;
}

/** Every process's ticks, by pid: what ran outside the stack takes cores the stack does not get. */
export function allProcesses(): Map<number, ProcStat> {
  const out = new Map<number, ProcStat>();
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) < 48 || entry.charCodeAt(0) > 57) continue;
    const text = readText(`/proc/${entry}/stat`);
    const stat = text ? parseStat(text) : null;
    if (stat) out.set(stat.pid, stat);
  }
  return out;
}

/** The box's busy and total ticks over all cores (/proc/stat `cpu`): busy = user nice system irq softirq steal. */
export function boxTicks(stat = readText('/proc/stat') ?? ''): { busy: number; all: number } {
  const line = stat.slice(0, stat.indexOf('\n')).split(/\s+/);
  const f = (i: number) => Number(line[i]) || 0;
  const busy = f(1) + f(2) + f(3) + f(6) + f(7) + f(8);
  return { busy, all: busy + f(4) + f(5) };
}

/**
 * The processes outside the stack that used CPU between two readings of all processes: their sum and the
 * heaviest three, in % of one core over `spanTicks` (seconds × ticks per second).
 */
export function others(
  before: Map<number, ProcStat>,
  after: Map<number, ProcStat>,
  stack: ReadonlySet<number>,
  spanTicks: number,
): { pct: number; top: [string, number][] } {
  const byName = new Map<string, number>();
  let sum = 0;
  for (const [pid, b] of before) {
    const a = after.get(pid);
    if (!a || stack.has(pid)) continue;
    const d = a.ticks - b.ticks;
    if (d <= 0) continue;
    sum += d;
    byName.set(a.name, (byName.get(a.name) ?? 0) + d);
  }
  const pct = (d: number) => Math.round((d * 100) / spanTicks);
  const top = [...byName].sort((x, y) => y[1] - x[1]).slice(0, 3);
  return { pct: pct(sum), top: top.map(([name, d]) => [name, pct(d)]) };
}

/**
 * The processes that used at least `minPct` % of one core between two readings of all processes, heaviest
 * first: measure-stack's check of the box before a run (leftovers of a killed test run once took 36 % of a
 * core and a 5,000-table run collapsed; docs/measurements/boxes.md, "A ninth box").
 */
export function busiest(
  before: Map<number, ProcStat>,
  after: Map<number, ProcStat>,
  spanTicks: number,
  minPct: number,
): { pid: number; name: string; pct: number }[] {
  const out: { pid: number; name: string; pct: number }[] = [];
  for (const [pid, a] of after) {
    const b = before.get(pid);
    if (!b) continue;
    const pct = Math.round(((a.ticks - b.ticks) * 100) / spanTicks);
    if (pct >= minPct) out.push({ pid, name: a.name, pct });
  }
  return out.sort((x, y) => y.pct - x.pct);
}
