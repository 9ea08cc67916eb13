/**
 * Preloaded into the lobby by `lobby-bench.ts --loop-stalls` (never by the lobby itself): where do
 * the p99 outliers at a fixed offered load come from? It samples the event loop's delay
 * (perf_hooks.monitorEventLoopDelay), counts GC pauses by kind, and times every lifecycle tick and
 * room-list read that took longer than 5 ms (through the `lobby:stall` diagnostics channel the
 * lobby publishes on only when someone listens). SIGUSR2 (sent when the bench starts measuring)
 * resets the figures; they are printed to stderr when the process exits.
 */
import { monitorEventLoopDelay, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import diagnostics from 'node:diagnostics_channel';

const loop = monitorEventLoopDelay({ resolution: 5 });
loop.enable();
let gc = new Map<string, { n: number; ms: number; max: number }>();
let slow = new Map<string, { n: number; ms: number; max: number }>();
const add = (m: typeof gc, k: string, ms: number) => {
  const e = m.get(k) ?? { n: 0, ms: 0, max: 0 };
  e.n++;
  e.ms += ms;
  e.max = Math.max(e.max, ms);
  m.set(k, e);
};
const KINDS: Record<number, string> = { 1: 'minor', 2: 'major', 4: 'incremental', 8: 'weakcb' };
new PerformanceObserver((list) => {
  for (const e of list.getEntries() as (PerformanceEntry & { detail?: { kind?: number } })[])
    add(gc, KINDS[e.detail?.kind ?? 0] ?? 'other', e.duration);
}).observe({ entryTypes: ['gc'] });
diagnostics.subscribe('lobby:stall', (msg) => {
  const m = msg as { what: string; ms: number };
  if (m.ms >= 5) add(slow, m.what, m.ms);
});
process.on('SIGUSR2', () => {
  loop.reset();
  gc = new Map();
  slow = new Map();
});
const f = (x: number) => (x / 1e6).toFixed(1);
process.on('exit', () => {
  const lines = [
    `event-loop delay ms: p50 ${f(loop.percentile(50))} p99 ${f(loop.percentile(99))} p99.9 ${f(loop.percentile(99.9))} max ${f(loop.max)}`,
    ...[...gc].map(([k, e]) => `gc ${k}: ${e.n}× total ${e.ms.toFixed(0)} ms max ${e.max.toFixed(1)} ms`),
    ...[...slow].map(([k, e]) => `≥5 ms ${k}: ${e.n}× total ${e.ms.toFixed(0)} ms max ${e.max.toFixed(1)} ms`),
  ];
  process.stderr.write(`${lines.join('\n')}\n`);
});
