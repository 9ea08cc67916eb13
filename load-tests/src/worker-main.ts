/**
 * One swarm worker process (forked by workers.ts): waits for its share of the
 * run, runs it, streams ticks and sends its encoded statistics at the end.
 */
import { runSwarm } from './swarm-core.ts';
import { encodeBucket } from './stats.ts';
import type { FromWorker, ToWorker } from './workers.ts';

const send = (m: FromWorker) => process.send!(m);

// Ctrl-C reaches the whole process group: finish like the end of the run, so the parent still gets a report.
const abort = new AbortController();
process.on('SIGINT', () => abort.abort());

process.on('message', (m: ToWorker) => {
  if (m.type !== 'run') return;
  runSwarm(m.options, {
    signal: abort.signal,
    share: m.share,
    startAt: m.startAt,
    localAddresses: m.localAddresses,
    log: (line) => process.stderr.write(`[worker ${m.share.index}] ${line}\n`),
    tick: (tick, stats) => {
      const current = stats.intervals.get(Math.floor(tick.elapsedMs / stats.intervalMs));
      send({ type: 'tick', tick, total: encodeBucket(stats.total), current: current ? encodeBucket(current) : null });
    },
  }).then(
    (run) => {
      const rooms = [...run.tables.keys()];
      const finishedRooms = [...run.tables.values()].filter((t) => t.finishedAt !== null).map((t) => t.roomId);
      process.send!(
        { type: 'done', stats: run.stats.encode(), rooms, finishedRooms, samples: run.samples } satisfies FromWorker,
        () => process.exit(0),
      );
    },
    (err: unknown) => {
      const error = err instanceof Error ? (err.stack ?? err.message) : String(err);
      process.send!({ type: 'failed', error } satisfies FromWorker, () => process.exit(1));
    },
  );
});
// The parent is gone (killed, or the run aborted): so is this worker's reason to run.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
