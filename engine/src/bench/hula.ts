/**
 * 훌라 throughput on one core: apply() over actions recorded from bot games
 * (every kind the bots make, including 땡큐 and round changes), plus view().
 */
import { Rng } from '../core/rng.ts';
import type { PlayerId } from '../core/types.ts';
import { hula } from '../games/hula/index.ts';
import type { HulaState } from '../games/hula/types.ts';
import { simPlayers } from '../sim/runner.ts';
import type { BenchLine } from './main.ts';
import { perSecond } from './util.ts';

interface Sample {
  state: HulaState;
  actor: PlayerId;
  action: unknown;
  now: number;
}

function record(mode: string, n: number, games: number): Sample[] {
  const out: Sample[] = [];
  const rng = Rng.fromSeed(`bench:${mode}:${n}`);
  const options = hula.optionsSchema.parse({ mode, rounds: 3 });
  for (let g = 0; g < games; g++) {
    let s = hula.setup({ seed: `b${g}`, players: simPlayers(n), options, now: 1_800_000_000_000 });
    let now = s.turnStartedAt;
    while (!hula.result(s)) {
      const cands: { actor: PlayerId; action: unknown }[] = [];
      for (const p of s.players) {
        const a = hula.bot(hula.view(s, p.id), rng);
        if (a) cands.push({ actor: p.id, action: a });
      }
      const dl = hula.deadline(s);
      const r = (() => {
        if (cands.length === 0) return hula.onTimeout(s, (now = Math.max(now, dl!)));
        const c = cands[rng.int(cands.length)];
        now = Math.min(now + 300, dl! - 1);
        out.push({ state: s, actor: c.actor, action: c.action, now });
        return hula.apply(s, c.actor, c.action, now);
      })();
      if (!r.ok) throw new Error(r.reason);
      s = r.state;
    }
  }
  return out;
}

export function run(): BenchLine[] {
  const lines: BenchLine[] = [];
  for (const [mode, n] of [
    ['monster', 4],
    ['joker', 5],
  ] as const) {
    const samples = record(mode, n, 40);
    let i = 0;
    const applyRate = perSecond(() => {
      const x = samples[i++ % samples.length];
      hula.apply(x.state, x.actor, x.action, x.now);
    });
    lines.push({
      name: `hula ${mode} ${n}p apply`,
      value: applyRate,
      unit: 'actions/s',
      note: `${samples.length} recorded actions`,
    });
    let j = 0;
    const viewRate = perSecond(() => {
      const x = samples[j++ % samples.length];
      hula.view(x.state, x.actor);
    }, 800);
    lines.push({ name: `hula ${mode} ${n}p view`, value: viewRate, unit: 'views/s' });
  }
  return lines;
}
