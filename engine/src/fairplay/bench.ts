/**
 * `npm run fairplay-bench -- [--trials 5] [--games 80] [--honest 12] [--within 1000] [--seed 1]`
 *
 * Measures the fair-play rules in the simulated card room (world.ts): per trial one room with the scripted
 * colluding pair among honest bots and one control room where the same two accounts play honestly, the
 * same volume. Prints the detection rate (pair flagged within `--within` hands played together), the hands
 * it took, and the false-flag rates of honest pairs and accounts. Seeded: the same arguments print the same
 * numbers. Progress on stderr; the last stdout line is a JSON summary.
 */
import { parseArgs } from 'node:util';
import { runWorld, type WorldReport } from './world.ts';

export interface BenchConfig {
  trials: number;
  games: number;
  honest: number;
  within: number;
  seed: string;
  onWorld?: (label: string, r: WorldReport) => void;
}

export interface BenchReport {
  trials: number;
  handsPerWorld: number;
  detectionRate: number;
  handsToFlag: (number | null)[];
  medianHandsToFlag: number | null;
  honestPairs: number;
  honestPairsFlagged: number;
  falsePairFlagRate: number;
  honestAccounts: number;
  honestAccountsFlagged: number;
  falseAccountFlagRate: number;
}

export function runBench(cfg: BenchConfig): BenchReport {
  const flags: (number | null)[] = [];
  let hands = 0;
  let pairs = 0;
  let pairsFlagged = 0;
  let accounts = 0;
  let accountsFlagged = 0;
  for (let t = 0; t < cfg.trials; t++) {
    for (const collusion of [true, false]) {
      const r = runWorld({ seed: `${cfg.seed}:${t}`, games: cfg.games, honest: cfg.honest, collusion });
      cfg.onWorld?.(`trial ${t + 1} ${collusion ? 'collusion' : 'control'}`, r);
      hands += r.hands;
      if (collusion) flags.push(r.handsToFlag);
      // In the control room the scripted pair's accounts are honest too: their pair counts as an honest one.
      pairs += r.honestPairs + (collusion ? 0 : 1);
      pairsFlagged += r.honestPairsFlagged + (collusion ? 0 : r.pairFlagged ? 1 : 0);
      accounts += r.honestAccounts;
      accountsFlagged += r.honestAccountsFlagged;
    }
  }
  const found = flags.filter((h): h is number => h !== null && h <= cfg.within).sort((a, b) => a - b);
  return {
    trials: cfg.trials,
    handsPerWorld: Math.round(hands / (2 * cfg.trials)),
    detectionRate: found.length / cfg.trials,
    handsToFlag: flags,
    medianHandsToFlag: found.length ? found[Math.floor((found.length - 1) / 2)] : null,
    honestPairs: pairs,
    honestPairsFlagged: pairsFlagged,
    falsePairFlagRate: pairs ? pairsFlagged / pairs : 0,
    honestAccounts: accounts,
    honestAccountsFlagged: accountsFlagged,
    falseAccountFlagRate: accounts ? accountsFlagged / accounts : 0,
  };
}

const isMain = process.argv[1]?.endsWith('bench.ts') && process.argv[1].includes('fairplay');
if (isMain) {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((a) => a !== '--'),
    options: {
      trials: { type: 'string', default: '5' },
      games: { type: 'string', default: '80' },
      honest: { type: 'string', default: '12' },
      within: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '1' },
    },
  });
  const t0 = performance.now();
  const r = runBench({
    trials: Number(values.trials),
    games: Number(values.games),
    honest: Number(values.honest),
    within: Number(values.within),
    seed: values.seed!,
    onWorld: (label, w) =>
      process.stderr.write(
        `${label}: ${w.hands} hands, pair together ${w.pairHandsTogether}, flagged at ${w.handsToFlag ?? '-'}, honest pairs flagged ${w.honestPairsFlagged}/${w.honestPairs}\n` +
          w.falseFlags
            .map((f) => `  false flag ${f.a}-${f.b} (${f.hands} hands): ${JSON.stringify(f.flag)}\n`)
            .join(''),
      ),
  });
  const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
  console.log(`detection rate (within ${values.within} hands together): ${pct(r.detectionRate)} of ${r.trials} trials`);
  console.log(
    `hands to flag: ${r.handsToFlag.map((h) => h ?? 'never').join(', ')} (median ${r.medianHandsToFlag ?? '-'})`,
  );
  console.log(`false-flag rate, honest pairs: ${pct(r.falsePairFlagRate)} (${r.honestPairsFlagged}/${r.honestPairs})`);
  console.log(
    `false-flag rate, honest accounts: ${pct(r.falseAccountFlagRate)} (${r.honestAccountsFlagged}/${r.honestAccounts})`,
  );
  console.log(JSON.stringify({ ...r, seconds: Math.round((performance.now() - t0) / 100) / 10 }));
}
