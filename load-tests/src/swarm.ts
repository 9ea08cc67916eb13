/**
 * `npm run load -- --url ws://127.0.0.1:8081/ws --game one-card --mode classic --players 4 --tables 200 --duration 60`
 *
 * Progress goes to stderr; the last and only stdout line is the JSON summary
 * {"tables","finished","actions","errors","p50","p95","p99","max", "errorKinds"} (latencies in ms,
 * from sending an action to receiving the first view whose seq ≥ the ack's seq).
 */
import { parseArgs } from './options.ts';
import { runSwarm } from './swarm-core.ts';

let opts;
try {
  opts = parseArgs(process.argv.slice(2));
} catch (err) {
  const issues = (err as { issues?: { path: PropertyKey[]; message: string }[] }).issues;
  const text = issues
    ? issues
        .map((i) => `--${String(i.path[0] ?? '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}: ${i.message}`)
        .join('\n')
    : err instanceof Error
      ? err.message
      : String(err);
  process.stderr.write(`swarm: ${text}\n`);
  process.exit(2);
}
const run = await runSwarm(opts, (line) => process.stderr.write(`${line}\n`));
process.stdout.write(`${JSON.stringify(run.report)}\n`);
process.exit(0);
