/**
 * The snapshot text per transition, this tree's SnapshotEncoder against
 * another tree's (the untouched base tree), alternating in one process.
 *
 *   node --import tsx services/room-worker/bench/snapshot.ts [--tree /work/wt/base]
 *
 * Each game is played once with the engine bots (4 seats); the encoders then
 * write the snapshot of every state in order, as a room does after each
 * transition (metadata unchanged). µs per snapshot is the median of 9
 * alternating rounds per side; the ratio is this/base. Figures, not assertions.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { games, Rng, type AnyGame } from '@joke/engine';
import { SnapshotEncoder } from '../src/snapshot.ts';
import type { RoomData } from '../src/room-types.ts';

const at = process.argv.indexOf('--tree');
const other = resolve(at >= 0 ? process.argv[at + 1] : '/work/wt/base');
const base: typeof import('../src/snapshot.ts') = await import(resolve(other, 'services/room-worker/src/snapshot.ts'));

function states(game: AnyGame, options: unknown): unknown[] {
  const rng = Rng.fromSeed('snapshot-bench', 'bots');
  const players = ['p1', 'p2', 'p3', 'p4'].map((id) => ({ id, name: id }));
  let state = game.setup({ seed: 'cd'.repeat(32), players, options, now: 0 });
  const out = [state];
  for (let now = 1; out.length < 300 && game.result(state) === null; now += 1000) {
    let moved = false;
    for (const p of players) {
      const action = game.bot(game.view(state, p.id), rng);
      const r = action === null ? null : game.apply(state, p.id, action, now);
      if (r?.ok) {
        out.push((state = r.state));
        moved = true;
        break;
      }
    }
    if (!moved) break;
  }
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `load average: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
for (const [name, raw] of [
  ['one-card', { mode: 'classic' }],
  ['hula', {}],
  ['poker', {}],
] as const) {
  const game = games[name] as unknown as AnyGame;
  const all = states(game, game.optionsSchema.parse(raw));
  const data = (state: unknown): RoomData => ({
    v: 1,
    roomId: 'bench-room',
    game: name,
    mode: 'classic',
    options: raw as Record<string, unknown>,
    startedAt: 0,
    state,
    seats: ['p1', 'p2', 'p3', 'p4'].map((id) => ({ id, name: id, bot: false, away: false, timeouts: 0 })),
    viewers: [],
    finishedAt: null,
    finishedPublished: false,
  });
  const rooms = all.map(data);
  // One room's encoder over its states in order, as many times as it takes to fill ~50 ms.
  const run = (Encoder: typeof SnapshotEncoder): number => {
    let n = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < 50) {
      const enc = new Encoder();
      for (const d of rooms) enc.encode(d);
      n += rooms.length;
    }
    return ((performance.now() - t0) * 1000) / n;
  };
  const mine: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < 9; i++) {
    theirs.push(run(base.SnapshotEncoder));
    mine.push(run(SnapshotEncoder));
  }
  const [m, t] = [median(mine), median(theirs)];
  const bytes = Math.round(rooms.reduce((s, d) => s + new SnapshotEncoder().encode(d).length, 0) / rooms.length);
  console.log(
    `${name}: ${all.length} states, ≈ ${bytes} B per snapshot; base ${t.toFixed(2)} µs, this ${m.toFixed(2)} µs, this/base ${(m / t).toFixed(3)}`,
  );
}
