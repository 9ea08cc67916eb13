/**
 * 원카드 hot paths on one core: `apply` alone (transitions pre-recorded from
 * bot games, so the bot and views are not timed) and `view` per viewer.
 */
import { Rng } from '../core/rng.ts';
import type { PlayerId } from '../core/types.ts';
import { oneCard } from '../games/one-card/index.ts';
import type { OneCardState } from '../games/one-card/types.ts';
import { simPlayers } from '../sim/runner.ts';
import type { BenchLine } from './main.ts';
import { perSecond } from './util.ts';

interface Transition {
  state: OneCardState;
  actor: PlayerId;
  action: unknown;
  now: number;
}

/** Plays bot games and keeps every (state, actor, action) the bots chose. */
export function record(
  mode: string,
  players: number,
  games: number,
  extra: Record<string, unknown> = {},
): Transition[] {
  const options = oneCard.optionsSchema.parse({ mode, ...extra });
  const ps = simPlayers(players);
  const rng = Rng.fromSeed(`bench:${mode}`);
  const out: Transition[] = [];
  for (let g = 0; g < games; g++) {
    let now = 1_800_000_000_000;
    let state = oneCard.setup({ seed: `bench:${g}`, players: ps, options, now });
    for (let step = 0; step < 5000 && !oneCard.result(state); step++) {
      const moves: { actor: PlayerId; action: unknown }[] = [];
      for (const p of ps) {
        const a = oneCard.bot(oneCard.view(state, p.id), rng);
        if (a) moves.push({ actor: p.id, action: a });
      }
      now += 700;
      const pick = moves.length > 0 ? moves[rng.int(moves.length)] : null;
      const r = pick
        ? oneCard.apply(state, pick.actor, pick.action, now)
        : oneCard.onTimeout(state, oneCard.deadline(state)!);
      if (!r.ok) throw new Error(`bench game ${g}: ${r.reason}`);
      if (pick) out.push({ state, actor: pick.actor, action: pick.action, now });
      state = r.state;
    }
  }
  return out;
}

export function run(): BenchLine[] {
  const lines: BenchLine[] = [];
  for (const [mode, players] of [
    ['classic', 4],
    ['uno-style', 6],
  ] as const) {
    const ts = record(mode, players, 60);
    let i = 0;
    const applyRate = perSecond(() => {
      const t = ts[i];
      oneCard.apply(t.state, t.actor, t.action, t.now);
      i = i + 1 === ts.length ? 0 : i + 1;
    });
    lines.push({
      name: `one-card ${mode} apply (${players}p)`,
      value: applyRate,
      unit: 'actions/s',
      note: `${ts.length} recorded transitions`,
    });
    let j = 0;
    const viewRate = perSecond(() => {
      const t = ts[j];
      oneCard.view(t.state, t.actor);
      j = j + 1 === ts.length ? 0 : j + 1;
    });
    lines.push({ name: `one-card ${mode} view`, value: viewRate, unit: 'views/s' });
  }
  return lines;
}
