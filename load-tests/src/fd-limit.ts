/**
 * Every bot and spectator is one socket, i.e. one open file in the swarm process that owns it. Past the
 * process's open-file limit (`ulimit -n`) `connect` fails with EMFILE: on a box whose limit is 20,000, a
 * 5,000-table run of 4 seats (20,000 sockets in one process) lost 30 bots that way during its ramp, and
 * since the ramp is inside the warm-up the summary still said 0 errors. So the swarm checks up front.
 */
import { readFileSync } from 'node:fs';
import type { SwarmOptions } from './options.ts';
import { seatingOf } from './seating.ts';

/** Files a swarm process holds besides its sockets (stdio, the event loop's, IPC, the reports). */
export const FILES_BESIDES_SOCKETS = 64;

/** The soft open-file limit of this process, from /proc (null where there is none, or it says unlimited). */
export function openFileLimit(limits = readProcLimits()): number | null {
  const line = limits?.split('\n').find((l) => l.startsWith('Max open files'));
  const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
  return soft && /^\d+$/.test(soft) ? Number(soft) : null;
}

function readProcLimits(): string | null {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
}

/** The most sockets one of the `workers` swarm processes opens at the peak of the run (seating.ts deals them). */
export function socketsPerProcess(opts: SwarmOptions): number {
  return Math.max(...seatingOf(opts).socketsPerProcess());
}

/** Why this run cannot open its sockets in this process, or null when it fits under the limit. */
export function fileLimitProblem(opts: SwarmOptions, limit = openFileLimit()): string | null {
  if (limit === null) return null;
  const sockets = socketsPerProcess(opts);
  const need = sockets + FILES_BESIDES_SOCKETS;
  if (need <= limit) return null;
  const workers = Math.ceil((sockets * opts.workers) / (limit - FILES_BESIDES_SOCKETS));
  return (
    `each swarm process would open up to ${need} files (${sockets} sockets) but may open ${limit} ` +
    `(ulimit -n): raise it (\`ulimit -n ${need}\`, root may raise the hard limit too) or spread the bots over ` +
    `--workers ${workers} or more`
  );
}
