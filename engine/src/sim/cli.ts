/**
 * `npm run sim -- --game one-card --mode classic --players 4 --games 2000 --seed 1
 *                 [--options '{"kEffect":"skip-two"}'] [--record DIR]`
 * `npm run sim -- --all --games 500 --seed 3`   every game × mode, a summary table at the end.
 * Progress goes to stderr; stdout gets one JSON summary line per run.
 * Exit 1 when any run had a violation, a leak, an accepted illegal action or an unfinished game.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { simAdapters } from '../games/sims.ts';
import { runSim, type SimReport } from './runner.ts';
import type { SimAdapter } from './adapter.ts';

const HELP = `npm run sim -- [flags]   bot games through the engine, checking every invariant at every step

  --game ID        one-card | hula | poker                       (default one-card)
  --mode ID        a mode of that game (default: the game's default mode)
  --players N      seats (default 4; with --all: the game's minimum and 4)
  --games N        games per run (default 100)
  --seed S         seed of the whole run (default 1): same seed, same games
  --options JSON   more game options, e.g. '{"multiPlay":true}'
  --record DIR     write every finished game's record there (check one with npm run verify)
  --max-steps N    count a game unfinished after N transitions
  --all            every game and mode in turn, then a summary table
  --help           this text`;

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    game: { type: 'string', default: 'one-card' },
    mode: { type: 'string' },
    players: { type: 'string' },
    games: { type: 'string', default: '100' },
    seed: { type: 'string', default: '1' },
    options: { type: 'string', default: '{}' },
    record: { type: 'string' },
    'max-steps': { type: 'string' },
    all: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (values.help) {
  console.log(HELP);
  process.exit(0);
}

const games = Number(values.games);
if (values.record) mkdirSync(values.record, { recursive: true });

/** One run: progress on stderr, the JSON summary on stdout; null when the options are refused. */
function run(adapter: SimAdapter, options: Record<string, unknown>, players: number): SimReport | null {
  const parsed = adapter.game.optionsSchema.safeParse(options);
  if (!parsed.success) {
    console.error(`invalid options: ${parsed.error.issues.map((i: { message: string }) => i.message).join('; ')}`);
    return null;
  }
  const label = `${adapter.game.id} ${String(parsed.data.mode)} ×${players}`;
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
            join(values.record!, `${rec.game}-${String(parsed.data.mode)}-${players}-${i}.json`),
            JSON.stringify(rec),
          )
      : undefined,
    onProgress: (done) => {
      const t = Date.now();
      if (t - lastPrint > 1000 || done === games) {
        lastPrint = t;
        process.stderr.write(`\r${label}: ${done}/${games} games`);
        if (done === games) process.stderr.write('\n');
      }
    },
  });
  for (const s of report.samples) console.error(`  ${s}`);
  const { samples: _samples, illegalProbes: _p, timeouts: _t, ...summary } = report;
  console.log(JSON.stringify(summary));
  return report;
}

const bad = (r: SimReport) => r.invariantViolations + r.leaks + r.illegalAccepted + (r.games - r.finished);

const extra = JSON.parse(values.options!) as Record<string, unknown>;
const reports: SimReport[] = [];
let refused = 0;
if (values.all) {
  for (const adapter of Object.values(simAdapters)) {
    const seats = values.players
      ? [Number(values.players)]
      : [...new Set([adapter.game.minPlayers, Math.min(4, adapter.game.maxPlayers)])];
    for (const mode of adapter.game.modes)
      for (const players of seats) {
        const r = run(adapter, { ...extra, mode: mode.id }, players);
        if (r) reports.push(r);
        else refused++;
      }
  }
  const rows = reports.map(
    (r) =>
      `${`${r.game} ${r.mode}`.padEnd(22)} ${String(r.players).padStart(2)}명 ${String(r.finished).padStart(5)}/${String(r.games).padEnd(5)} ` +
      `${String(r.actions).padStart(9)} actions  violations ${r.invariantViolations}  leaks ${r.leaks}  illegal accepted ${r.illegalAccepted}`,
  );
  console.error(['', 'summary (game mode, seats, finished/games, actions, problems):', ...rows].join('\n'));
} else {
  const adapter = simAdapters[values.game as keyof typeof simAdapters];
  if (!adapter) {
    console.error(`unknown game ${values.game}; known: ${Object.keys(simAdapters).join(', ')}`);
    process.exit(2);
  }
  const r = run(adapter, { ...extra, ...(values.mode ? { mode: values.mode } : {}) }, Number(values.players ?? '4'));
  if (!r) process.exit(2);
  reports.push(r);
}
const failed = reports.reduce((n, r) => n + bad(r), 0);
process.exit(failed > 0 || refused > 0 ? 1 : 0);
