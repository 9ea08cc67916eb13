/**
 * `--workers N`: the swarm as N child processes, each owning every N-th table
 * slot (or a packed share, seating.ts) and opening its sockets from its own loopback
 * source addresses (127.0.0.2, .3, …), so one address's ≈ 28k ephemeral ports and one
 * process's event loop stop being the limit. All count time from one start
 * instant; their HDR histograms, counters and gauges add up exactly in the
 * parent. With one worker the swarm runs in this process.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runSwarm, reportOf, type SwarmReport, type SwarmTick } from './swarm-core.ts';
import { SwarmOptions, timelineOf } from './options.ts';
import { seatingOf } from './seating.ts';
import {
  decodeBucket,
  mergeBucket,
  newBucket,
  RunStats,
  type Bucket,
  type EncodedBucket,
  type EncodedStats,
} from './stats.ts';

export interface LoadResult {
  stats: RunStats;
  report: SwarmReport;
  /** Raw action latencies (ms) of each worker, with rawSamples. */
  samples: number[][];
  workers: number;
  /** Source addresses each worker used (empty = the system's choice). */
  addresses: string[][];
}

export interface LiveTick extends Omit<SwarmTick, 'stage'> {
  workers: number;
  total: Bucket;
  current: Bucket | null;
}

/** Messages of the worker protocol (child_process IPC). */
export type ToWorker = {
  type: 'run';
  options: SwarmOptions;
  share: { index: number; count: number };
  startAt: number;
  localAddresses: string[];
};
export type FromWorker =
  | { type: 'ready' }
  | { type: 'tick'; tick: SwarmTick; total: EncodedBucket; current: EncodedBucket | null }
  | { type: 'done'; stats: EncodedStats; rooms: string[]; finishedRooms: string[]; samples: number[] }
  | { type: 'failed'; error: string };

/**
 * Sockets one source address is given at most on `auto`. A socket with a source address is bound
 * before it connects (`bind(addr, 0)`), and the kernel searches the ephemeral range for a port free to
 * bind, a search that slows as the address's ports fill (those of an earlier run still in TIME_WAIT
 * included). The first 5,000-table run with one bot process
 * of 19,936 sockets on one address spent a whole core in the kernel from ≈ 8,000 sockets on, and its
 * sign-ins timed out. (One process alone binds nothing: the kernel's connect-time choice is cheap.)
 */
export const SOCKETS_PER_ADDRESS = 4000;

/**
 * Worker k's source addresses: an explicit list dealt round-robin, or on `auto` for a 127.x target
 * 127.0.0.(2 + k), then 127.0.1.(2 + k), 127.0.2.(2 + k) … as
 * many as its sockets need at SOCKETS_PER_ADDRESS each (every 127.x address is the loopback).
 */
export function addressesFor(opts: SwarmOptions, k: number): string[] {
  if (opts.sourceAddresses !== 'auto') {
    const list = opts.sourceAddresses;
    const mine = list.filter((_, i) => i % opts.workers === k);
    return mine.length ? mine : [list[k % list.length]];
  }
  if (opts.workers === 1) return [];
  const v4loopback = opts.url.split(',').every((u) => /^127\./.test(new URL(u.trim()).hostname));
  if (!v4loopback) return [];
  const sockets = seatingOf(opts).socketsPerProcess()[k] ?? 0;
  const count = Math.min(256, Math.max(1, Math.ceil(sockets / SOCKETS_PER_ADDRESS)));
  return Array.from({ length: count }, (_, j) => `127.0.${j}.${2 + (k % 250)}`);
}

const workerMain = fileURLToPath(new URL('./worker-main.ts', import.meta.url));
/** tsx by its resolved path, so workers start whatever the current directory is. */
const tsxLoader = import.meta.resolve('tsx');

export async function runLoad(
  input: SwarmOptions,
  ui: { tick?: (t: LiveTick) => void; log?: (line: string) => void; signal?: AbortSignal } = {},
): Promise<LoadResult> {
  const opts = SwarmOptions.parse(input);
  const timeline = timelineOf(opts);
  const stageAt = (ms: number) => timeline.stageIndexAt(ms);
  if (opts.workers === 1) {
    const addresses = addressesFor(opts, 0);
    const run = await runSwarm(opts, {
      log: ui.log,
      signal: ui.signal,
      localAddresses: addresses,
      tick: (t, stats) =>
        ui.tick?.({
          ...t,
          workers: 1,
          total: stats.total,
          current: stats.intervals.get(Math.floor(t.elapsedMs / opts.intervalMs)) ?? null,
        }),
    });
    return { stats: run.stats, report: run.report, samples: [run.samples], workers: 1, addresses: [addresses] };
  }

  const children: ChildProcess[] = [];
  const ticks: (FromWorker & { type: 'tick' })[] = [];
  const done: (FromWorker & { type: 'done' })[] = [];
  const addresses = Array.from({ length: opts.workers }, (_, k) => addressesFor(opts, k));
  const finished = new Promise<void>((resolve, reject) => {
    let ready = 0;
    for (let k = 0; k < opts.workers; k++) {
      const child = fork(workerMain, [], {
        // The bot processes run with the swarm's own V8 flags (--cpu-prof into the same directory, --trace-gc…).
        execArgv: [...withBotHeap(inheritedFlags(process.execArgv)), '--import', tsxLoader],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      children.push(child);
      child.on('message', (m: FromWorker) => {
        if (m.type === 'ready' && ++ready === opts.workers) {
          // Everyone counts from the same instant, a moment ahead so each child gets its message first.
          const startAt = Date.now() + 300;
          // A parent stopped before the start passes that on (workers only see SIGINT from a terminal).
          ui.signal?.addEventListener('abort', () => children.forEach((c) => c.exitCode === null && c.kill('SIGINT')));
          children.forEach((c, i) =>
            c.send({
              type: 'run',
              options: opts,
              share: { index: i, count: opts.workers },
              startAt,
              localAddresses: addresses[i],
            } satisfies ToWorker),
          );
        } else if (m.type === 'tick') {
          ticks[k] = m;
          publishTick();
        } else if (m.type === 'done') {
          done[k] = m;
          if (done.filter(Boolean).length === opts.workers) resolve();
        } else if (m.type === 'failed') reject(new Error(`worker ${k}: ${m.error}`));
      });
      child.on('exit', (code) => {
        if (!done[k]) reject(new Error(`worker ${k} exited with ${code} before reporting`));
      });
    }
  });
  const publishTick = () => {
    if (!ui.tick) return;
    const live = ticks.filter(Boolean);
    const total = newBucket();
    const current = newBucket();
    for (const t of live) {
      mergeBucket(total, decodeBucket(t.total));
      if (t.current) mergeBucket(current, decodeBucket(t.current));
    }
    ui.tick({
      elapsedMs: Math.max(...live.map((t) => t.tick.elapsedMs)),
      tables: live.reduce((a, t) => a + t.tick.tables, 0),
      bots: live.reduce((a, t) => a + t.tick.bots, 0),
      sockets: live.reduce((a, t) => a + t.tick.sockets, 0),
      lastError: live.map((t) => t.tick.lastError).find(Boolean) ?? '',
      workers: opts.workers,
      total,
      current,
    });
  };
  try {
    await finished;
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  }
  const stats = RunStats.decode(done[0].stats, stageAt);
  for (const d of done.slice(1)) stats.merge(d.stats);
  const rooms = new Set(done.flatMap((d) => d.rooms));
  const report = reportOf(stats, rooms.size);
  // A room shared by bots of several workers finished once, not once per worker.
  report.finished = new Set(done.flatMap((d) => d.finishedRooms)).size;
  return { stats, report, samples: done.map((d) => d.samples), workers: opts.workers, addresses };
}

/**
 * V8 flags for a process that runs bots: an old generation of 4 GB before the first major GC. A swarm process
 * of 20,000 bots has ≈ 140 MB live and promotes ≈ 10 MB/s (views kept through a bot's think time, the sockets'
 * state); each major GC then marked the whole heap on the bots' own thread for 150–260 ms (the other core busy
 * with the stack, V8's concurrent markers could not keep up), every bot of the process stopped, and those
 * pauses were counted as the platform's action → view latency: at 5,000 tables the run's p99 was set by them
 * (`--trace-gc`: a 524 ms mark-compact in the 5 s window whose p99 was 525 ms). With 4 GB the first one comes
 * after ≈ 6 minutes of a 5,000-table run (at that rate) instead of ≈ 40 s; memory is only touched as garbage accumulates.
 * The single-process swarm gets them from its command line (package.json `load`, measure-stack.sh).
 */
export const BOT_HEAP_FLAGS = ['--initial-old-space-size=4096'];

/** `flags` with BOT_HEAP_FLAGS added, unless they already size the old generation. */
export function withBotHeap(flags: readonly string[]): string[] {
  return flags.some((f) => f.startsWith('--initial-old-space-size')) ? [...flags] : [...flags, ...BOT_HEAP_FLAGS];
}

/** The node flags a swarm passes on to its bot processes: all but its module loader (`--import X`), which they get as a path. */
export function inheritedFlags(execArgv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    if (execArgv[i] === '--import') i++;
    else if (!execArgv[i].startsWith('--import=')) out.push(execArgv[i]);
  }
  return out;
}
