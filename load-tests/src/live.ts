/**
 * The live terminal view on stderr: one progress bar per stage (done, running,
 * waiting) and the current figures. On a terminal it redraws in place; piped
 * into a file or CI log it prints one line per refresh instead.
 */
import type { Timeline } from './scenario.ts';
import { errorCount, summarize, type Bucket } from './stats.ts';

export interface LiveState {
  elapsedMs: number;
  tables: number;
  bots: number;
  sockets: number;
  workers: number;
  lastError: string;
  total: Bucket;
  /** The interval now running (its latencies are "now"). */
  current: Bucket | null;
}

const fmtTime = (ms: number): string => {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}h${String(m).padStart(2, '0')}m${sec}s` : `${m}:${sec}`;
};

export function bar(fraction: number, width = 24): string {
  const f = Math.max(0, Math.min(1, fraction));
  const full = Math.floor(f * width);
  return `${'█'.repeat(full)}${f < 1 ? '░'.repeat(width - full) : ''}`;
}

export function renderLive(timeline: Timeline, s: LiveState): string[] {
  const lines = timeline.stages.map((st) => {
    const f = (s.elapsedMs - st.startMs) / Math.max(1, st.duration);
    const mark = f >= 1 ? '✔' : f > 0 ? '▶' : ' ';
    const range = st.kind === 'ramp' ? `${st.from}→${st.to}` : String(st.to);
    return `${mark} ${String(st.index + 1).padStart(2)} ${st.kind.padEnd(5)} ${range.padStart(9)} tables ${bar(f)} ${fmtTime(Math.min(st.duration, Math.max(0, s.elapsedMs - st.startMs)))}/${fmtTime(st.duration)}`;
  });
  const now = s.current ? summarize(s.current.hist.action) : null;
  const all = summarize(s.total.hist.action);
  const errors = errorCount(s.total);
  lines.push(
    `  ${fmtTime(s.elapsedMs)}/${fmtTime(timeline.totalMs)} · tables ${s.tables} · bots ${s.bots} · sockets ${s.sockets}` +
      (s.workers > 1 ? ` · ${s.workers} workers` : '') +
      ` · actions ${s.total.actions} (raced ${s.total.raced}) · errors ${errors}` +
      (s.total.throttled ? ` · sign-ins throttled ${s.total.throttled}` : ''),
    `  action→view now p50 ${now?.p50 ?? 0} p99 ${now?.p99 ?? 0} ms · run p50 ${all.p50} p99 ${all.p99} max ${all.max} ms` +
      (s.lastError ? ` · last error: ${s.lastError.slice(0, 80)}` : ''),
  );
  return lines;
}

/** Writes the view to a stream, in place on a TTY. */
export function liveWriter(out: NodeJS.WriteStream): (lines: string[]) => void {
  let drawn = 0;
  return (lines) => {
    if (out.isTTY) {
      if (drawn > 0) out.write(`\x1b[${drawn}F\x1b[J`);
      out.write(`${lines.join('\n')}\n`);
      drawn = lines.length;
    } else {
      // One line: the running stage's bar and the figures.
      const stages = lines.slice(0, -2);
      const running =
        stages.find((l) => l.startsWith('▶')) ?? stages.find((l) => !l.startsWith('✔')) ?? stages.at(-1) ?? '';
      out.write(
        `${running.trim()} | ${lines
          .slice(-2)
          .map((l) => l.trim())
          .join(' | ')}\n`,
      );
    }
  };
}
