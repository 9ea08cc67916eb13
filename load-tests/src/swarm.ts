/**
 * `npm run load -- [flags]` (`--help` lists them all): runs the scenario,
 * shows the live view on stderr, writes the HTML and JSON reports, prints the
 * one-line JSON summary on stdout and exits 99 when a threshold failed —
 * including the two every run must meet unless it relaxes them (thresholds.ts:
 * seated ≥ 95 % of the tables asked for, at least one action) — with `"ok":
 * false` and the reasons in `why`.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { helpText, parseCli, UsageError } from './flags.ts';
import { liveWriter, renderLive } from './live.ts';
import { timelineOf } from './options.ts';
import { buildReport, renderHtml } from './report.ts';
import { evaluate, parseThreshold, THRESHOLDS_FAILED, withDefaults } from './thresholds.ts';
import { fileLimitProblem } from './fd-limit.ts';
import { runLoad } from './workers.ts';

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  process.stdout.write(`${helpText()}\n`);
  process.exit(0);
}
let cli;
try {
  cli = parseCli(argv);
} catch (err) {
  if (!(err instanceof UsageError)) throw err;
  process.stderr.write(`load: ${err.message}\nload: --help lists every flag with its default\n`);
  process.exit(2);
}
const { options, report: htmlFile, json: jsonFile } = cli;
const fileLimit = fileLimitProblem(options);
if (fileLimit) {
  process.stderr.write(`load: ${fileLimit}\n`);
  process.exit(2);
}
const timeline = timelineOf(options);
const write = liveWriter(process.stderr);
const log = (line: string) => process.stderr.write(`${line}\n`);
let lastLive = 0;
// Ctrl-C once: stop early and still write the reports (a second Ctrl-C quits at once).
const abort = new AbortController();
process.on('SIGINT', () => {
  if (abort.signal.aborted) process.exit(130);
  log('stopping early (Ctrl-C again to quit without a report)');
  abort.abort();
});
const result = await runLoad(options, {
  log,
  signal: abort.signal,
  tick: (t) => {
    if (options.liveMs === 0) return;
    // Children tick on their own; the parent redraws at the configured pace.
    if (Date.now() - lastLive < options.liveMs * 0.8) return;
    lastLive = Date.now();
    write(renderLive(timeline, t));
  },
});
const ranMs = Math.min(timeline.totalMs, Date.now() - result.stats.startAt);
const seating = result.stats.seating();
const thresholds = evaluate(
  withDefaults(options.thresholds, options.curve !== undefined).map(parseThreshold),
  result.stats.total,
  ranMs - options.warmup * 1000,
  seating,
  result.report.refused,
);
const report = buildReport({
  options,
  timeline,
  stats: result.stats,
  thresholds,
  workers: result.workers,
  addresses: result.addresses,
  samples: options.rawSamples ? result.samples : undefined,
  ranMs,
});
if (jsonFile) writeFileSync(jsonFile, JSON.stringify(report));
if (htmlFile) writeFileSync(htmlFile, renderHtml(report));
for (const r of thresholds) log(`threshold ${r.ok ? '✔' : '✘'} ${r.threshold} (measured ${r.actual})`);
const why = thresholds.filter((r) => !r.ok).map((r) => `${r.threshold} failed (measured ${r.actual})`);
for (const p of report.curve ?? [])
  log(
    `level ${p.level + 1}: offered ${p.offered} seated ${p.seated} refused ${p.refused} errors ${p.errors} ` +
      `${p.actionsPerSecond} actions/s p99 ${p.p99 ?? '—'} ms ${p.ok ? '✔' : `✘ ${p.why.join('; ')}`}`,
  );
for (const p of report.curve ?? [])
  if (!p.ok) why.push(`level ${p.level + 1} (${p.offered} offered): ${p.why.join('; ')}`);
if (seating.seated < seating.asked && !report.curve)
  why.push(
    `seated ${seating.seated} of ${seating.asked} tables asked for (${result.report.refused} refused for capacity)`,
  );
const throttled = result.stats.total.throttled;
if (throttled > 0) {
  // The lobby's limit on guest sign-ins per address is what a swarm from one address runs into first.
  const hint = `${throttled} sign-ins throttled by the lobby: start it with LOBBY_RATE_GUEST_PER_IP=0 (no limit) for a load test`;
  log(hint);
  if (!report.ok) why.push(hint);
}
if (htmlFile) log(`report: ${resolve(htmlFile)}`);
if (jsonFile) log(`json:   ${resolve(jsonFile)}`);
// A curve's levels ride on the summary line too, so a script reads them without the JSON report.
const curve = report.curve?.map(({ errorKinds: _kinds, why: _why, ...p }) => p);
process.stdout.write(
  `${JSON.stringify({ ...result.report, ...(curve && { curve }), ok: report.ok, ...(report.ok ? {} : { why }) })}\n`,
);
if (!report.ok) for (const w of why) log(`not ok: ${w}`);
process.exit(report.ok ? 0 : THRESHOLDS_FAILED);
