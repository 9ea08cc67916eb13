/**
 * `npm run sim -- --game one-card --mode classic --players 4 --games 2000 --seed 1
 *                 [--options '{"kEffect":"skip-two"}'] [--record DIR]`
 * Progress goes to stderr; the last stdout line is one JSON summary.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { simAdapters } from '../games/sims.ts';
import { runSim } from './runner.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    game: { type: 'string', default: 'one-card' },
    mode: { type: 'string' },
    players: { type: 'string', default: '4' },
    games: { type: 'string', default: '100' },
    seed: { type: 'string', default: '1' },
    options: { type: 'string', default: '{}' },
    record: { type: 'string' },
    'max-steps': { type: 'string' },
  },
});

const adapter = simAdapters[values.game as keyof typeof simAdapters];
if (!adapter) {
  console.error(`unknown game ${values.game}; known: ${Object.keys(simAdapters).join(', ')}`);
  process.exit(2);
}
const options = { ...JSON.parse(values.options!), ...(values.mode ? { mode: values.mode } : {}) };
const parsed = adapter.game.optionsSchema.safeParse(options);
if (!parsed.success) {
  console.error(`invalid options: ${parsed.error.issues.map((i: { message: string }) => i.message).join('; ')}`);
  process.exit(2);
}
const games = Number(values.games);
const players = Number(values.players);
if (values.record) mkdirSync(values.record, { recursive: true });

let lastPrint = 0;
const report = runSim({
  adapter,
  options,
  players,
  games,
  seed: values.seed!,
  maxSteps: values['max-steps'] ? Number(values['max-steps']) : undefined,
  onRecord: values.record
    ? (rec, i) =>
        writeFileSync(
          join(values.record!, `${rec.game}-${String(options.mode ?? 'default')}-${i}.json`),
          JSON.stringify(rec),
        )
    : undefined,
  onProgress: (done) => {
    const t = Date.now();
    if (t - lastPrint > 1000 || done === games) {
      lastPrint = t;
      process.stderr.write(`\r${adapter.game.id} ${String(parsed.data.mode)}: ${done}/${games} games`);
      if (done === games) process.stderr.write('\n');
    }
  },
});
for (const s of report.samples) console.error(`  ${s}`);
const { samples: _samples, illegalProbes: _p, timeouts: _t, ...summary } = report;
console.log(JSON.stringify(summary));
const failed = report.invariantViolations + report.leaks + report.illegalAccepted + (report.games - report.finished);
process.exit(failed > 0 ? 1 : 0);
