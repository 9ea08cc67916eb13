/**
 * measure-stack.sh's CPU accounting, one long-lived process instead of ≈ 40 forks per sample
 * (src/proc-ticks.ts says why).
 *
 *   node --import tsx load-tests/scripts/cpu-sampler.ts sample DIR START WARMUP END CLK_TCK "mm:PID w0:PID gateway:PID+PID …"
 *   node --import tsx load-tests/scripts/cpu-sampler.ts report DIR
 *   node --import tsx load-tests/scripts/cpu-sampler.ts idle SECONDS CLK_TCK
 *
 * `sample` reads each entry's CPU (its pids and their children) every 5 s from START (epoch seconds) and at
 * WARMUP and END seconds after it, at fixed offsets so that a late sample does not shift the next, and
 * appends a line per sample to DIR/cpu-series.txt. At WARMUP and END it also reads every process
 * (DIR/ticks-before.txt, DIR/ticks-after.txt) and the box's ticks, and at END writes DIR/cpu-window.json.
 * `report`, once the swarm wrote DIR/load-report.json, prints each process's CPU in % of one core and in µs
 * per action over that window, and how busy the box was and with what.
 * `idle`, before anything of the run starts, watches the box for SECONDS and names every process that took
 * 10 % of a core or more (pid, share, command line): a run beside them measures a smaller box.
 */
import { readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { allProcesses, boxTicks, busiest, entryPids, entryTicks, others, type ProcStat } from '../src/proc-ticks.ts';

interface Window {
  seconds: number;
  clkTck: number;
  cores: number;
  /** Ticks of each entry in the window, in the order given. */
  ticks: [string, number][];
  box: { busy: number; all: number };
  others: { pct: number; top: [string, number][] };
  load: string;
}

const [mode, dir, ...rest] = process.argv.slice(2);
if (mode === 'sample') await sample();
else if (mode === 'report') report();
else if (mode === 'idle') await idle(Number(dir), Number(rest[0]));
else
  throw new Error(
    'usage: cpu-sampler.ts sample DIR START WARMUP END CLK_TCK PROCS | report DIR | idle SECONDS CLK_TCK',
  );

async function sample(): Promise<void> {
  const [startArg, warmupArg, endArg, clkArg, procsArg] = rest;
  const start = Number(startArg);
  const warmup = Number(warmupArg);
  const end = Number(endArg);
  const clkTck = Number(clkArg);
  const entries = procsArg
    .trim()
    .split(/\s+/)
    .map((e) => {
      const at = e.indexOf(':');
      return {
        name: e.slice(0, at),
        pids: e
          .slice(at + 1)
          .split('+')
          .filter(Boolean)
          .map(Number),
      };
    });
  const offsets = new Set<number>([warmup, end]);
  for (let at = 5; at <= end; at += 5) offsets.add(at);
  const now = () => Date.now() / 1000;
  const dump = (path: string, all: Map<number, ProcStat>) =>
    writeFileSync(path, [...all.values()].map((p) => `${p.pid} ${p.name} ${p.ticks}\n`).join(''));
  const last = entries.map((e) => entryTicks(e.pids));
  let prev = now();
  let before: {
    at: number;
    ticks: number[];
    all: Map<number, ProcStat>;
    box: ReturnType<typeof boxTicks>;
    stack: Set<number>;
  } | null = null;
  for (const at of [...offsets].sort((a, b) => a - b)) {
    const wait = start + at - now();
    if (wait > 0) await sleep(wait * 1000);
    const t = now();
    const cur = entries.map((e) => entryTicks(e.pids));
    const shares = entries.map((e, i) => `${e.name}=${Math.trunc(((cur[i] - last[i]) * 100) / clkTck / (t - prev))}`);
    const load = readFileSync('/proc/loadavg', 'latin1').split(' ');
    appendFileSync(`${dir}/cpu-series.txt`, `t=${at}s cpu %: ${shares.join(' ')}   (load ${load[0]})\n`);
    cur.forEach((c, i) => (last[i] = c));
    prev = t;
    if (at === warmup) {
      const all = allProcesses();
      dump(`${dir}/ticks-before.txt`, all);
      before = { at: t, ticks: cur, all, box: boxTicks(), stack: new Set(entries.flatMap((e) => entryPids(e.pids))) };
    }
    if (at === end && before) {
      const all = allProcesses();
      dump(`${dir}/ticks-after.txt`, all);
      const box = boxTicks();
      const seconds = t - before.at;
      const window: Window = {
        seconds,
        clkTck,
        cores: availableParallelism(),
        ticks: entries.map((e, i) => [e.name, cur[i] - before!.ticks[i]]),
        box: { busy: box.busy - before.box.busy, all: box.all - before.box.all },
        others: others(before.all, all, before.stack, seconds * clkTck),
        load: load.slice(0, 3).join(' '),
      };
      writeFileSync(`${dir}/cpu-window.json`, JSON.stringify(window));
    }
  }
}

function report(): void {
  const w = JSON.parse(readFileSync(`${dir}/cpu-window.json`, 'utf8')) as Window;
  const aps = Number(JSON.parse(readFileSync(`${dir}/load-report.json`, 'utf8')).totals.actionsPerSecond);
  const pct = (ticks: number) => Math.trunc((ticks * 100) / w.clkTck / w.seconds);
  const us = (ticks: number) => Math.trunc((ticks * 1_000_000) / w.clkTck / w.seconds / aps);
  const total = w.ticks.reduce((s, [, d]) => s + d, 0);
  console.log(`cpu % of one core: ${w.ticks.map(([n, d]) => `${n}=${pct(d)}`).join(' ')}   (load average ${w.load})`);
  console.log(
    `cpu µs per action (${aps} actions/s): ${w.ticks.map(([n, d]) => `${n}=${us(d)}`).join(' ')} all=${us(total)}`,
  );
  const box = Math.trunc((w.box.busy * w.cores * 100) / w.box.all);
  const stack = pct(total);
  const heaviest = w.others.top.map(([n, p]) => ` ${n}=${p}`).join('');
  console.log(
    `box: ${w.cores} cores, ${Math.trunc(box / w.cores)} % busy; in % of one core: the stack ${stack}, other processes ${w.others.pct}` +
      ` (heaviest:${heaviest}), interrupts and the rest ${box - stack - w.others.pct}`,
  );
}

async function idle(seconds: number, clkTck: number): Promise<void> {
  const before = allProcesses();
  const box0 = boxTicks();
  await sleep(seconds * 1000);
  const after = allProcesses();
  const box1 = boxTicks();
  const cores = availableParallelism();
  const busy = Math.round(((box1.busy - box0.busy) * 100) / (box1.all - box0.all));
  // This process reads /proc for the whole span but sleeps through it: it is not among the heavy.
  const heavy = busiest(before, after, seconds * clkTck, 10).filter((p) => p.pid !== process.pid);
  console.log(`before the run: the box ${busy} % busy (${cores} cores) over ${seconds} s`);
  for (const p of heavy) {
    let cmd = p.name;
    try {
      cmd = readFileSync(`/proc/${p.pid}/cmdline`, 'latin1').split('\0').join(' ').trim().slice(0, 160) || p.name;
    } catch {
      // gone since
    }
    console.log(`  WARNING: pid ${p.pid} took ${p.pct} % of a core: ${cmd}`);
  }
}
