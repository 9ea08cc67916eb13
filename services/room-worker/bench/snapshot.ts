/**
 * The worker's encodes per transition, this tree's against another tree's (the
 * untouched base tree), alternating in one process: the snapshot text
 * (SnapshotEncoder), and the 4 seats' view frames as bytes (StateViews +
 * viewFrameBytes, as Deliveries builds them), each alone and hot in its own
 * loop, then --rooms rooms' transitions interleaved (snapshot + frames), which
 * is what a worker holding many tables sees.
 *
 * Read the interleaved line first. An incremental state encoder (members the
 * transition left alone kept as text by identity, 2026-12-03) measured 0.53 of
 * JSON.stringify alone and hot, 0.92 interleaved over 64 rooms, but 1.36 over
 * 1,000 rooms (its per-room memo maps out of cache), and the worker's profile
 * under bench/capacity.ts at 1,000 tables did not shrink: it was reverted.
 *
 *   node --import tsx services/room-worker/bench/snapshot.ts [--tree /work/wt/base] [--rooms 64]
 *
 * Each game is played once with the engine bots (4 seats); the encoders then
 * write the snapshot of every state in order, as a room does after each
 * transition (metadata unchanged), then every transition's frames. CPU µs
 * (not wall time: the box is shared) per transition is the median of 9
 * alternating rounds of ≈ 50 ms CPU per side; the ratio is
 * this/base. Figures, not assertions.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { games, Rng, type AnyGame, type GameEvent } from '@joke/engine';
import * as mine from '../src/snapshot.ts';
import { StateViews, viewFrameBytes } from '../src/frames.ts';
import type { SnapshotData } from '../src/room-types.ts';

const at = process.argv.indexOf('--tree');
const other = resolve(at >= 0 ? process.argv[at + 1] : '/work/wt/base');
const roomsAt = process.argv.indexOf('--rooms');
/** Rooms interleaved in the last measurement (a worker holds hundreds to thousands). */
const ROOMS = roomsAt >= 0 ? Number(process.argv[roomsAt + 1]) : 64;
const base: SnapshotModule = await import(resolve(other, 'services/room-worker/src/snapshot.ts'));
const baseFrames: typeof import('../src/frames.ts') = await import(
  resolve(other, 'services/room-worker/src/frames.ts')
);

type SnapshotModule = typeof mine;
/**
 * A new encoder of `mod`, as (data, seq) → the whole text: this tree's `whole`, or `encode` of a tree from
 * before steps-only writes (issue 9). Both encode the whole room, which is what is compared here.
 */
function encoderOf(mod: SnapshotModule): (d: SnapshotData, seq: number) => string {
  const enc: object = new mod.SnapshotEncoder();
  if (hasWhole(enc)) return (d, seq) => enc.whole(d, seq);
  if (hasEncode(enc)) return (d) => enc.encode(d);
  throw new Error('this SnapshotEncoder has neither whole() nor encode()');
}
const hasWhole = (e: object): e is { whole(d: SnapshotData, seq: number): string } =>
  'whole' in e && typeof e.whole === 'function';
const hasEncode = (e: object): e is { encode(d: SnapshotData): string } =>
  'encode' in e && typeof e.encode === 'function';

const seats = ['p1', 'p2', 'p3', 'p4'];
interface Step {
  state: unknown;
  events: GameEvent[];
}
function states(game: AnyGame, options: unknown): Step[] {
  const rng = Rng.fromSeed('snapshot-bench', 'bots');
  const players = seats.map((id) => ({ id, name: id }));
  let state = game.setup({ seed: 'cd'.repeat(32), players, options, now: 0 });
  const out: Step[] = [{ state, events: [] }];
  for (let now = 1; out.length < 300 && game.result(state) === null; now += 1000) {
    let moved = false;
    for (const p of players) {
      const action = game.bot(game.view(state, p.id), rng);
      const r = action === null ? null : game.apply(state, p.id, action, now);
      if (r?.ok) {
        out.push({ state: (state = r.state), events: r.events });
        moved = true;
        break;
      }
    }
    if (!moved) break;
  }
  return out;
}

/** This process's CPU time in µs (user + system): time spent preempted by the box's other work does not count. */
const cpuNow = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
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
  const game: AnyGame = games[name];
  const all = states(game, game.optionsSchema.parse(raw));
  const data = (state: unknown): SnapshotData => ({
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
  const rooms = all.map((s) => data(s.state));
  // One room's encoder over its states in order, as many times as it takes to fill ~50 ms.
  const run = (mod: SnapshotModule): number => {
    let n = 0;
    const t0 = cpuNow();
    while (cpuNow() - t0 < 50_000) {
      const encode = encoderOf(mod);
      for (const [i, d] of rooms.entries()) encode(d, i);
      n += rooms.length;
    }
    return (cpuNow() - t0) / n;
  };
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < 9; i++) {
    theirs.push(run(base));
    ours.push(run(mine));
  }
  const [m, t] = [median(ours), median(theirs)];
  const bytes = Math.round(rooms.reduce((s, d) => s + mine.encodeSnapshot(d, 1).length, 0) / rooms.length);
  console.log(
    `${name} snapshot: ${all.length} states, ≈ ${bytes} B per snapshot; base ${t.toFixed(2)} µs, this ${m.toFixed(2)} µs, this/base ${(m / t).toFixed(3)}`,
  );
  // One room's frames for its 4 seats over its transitions in order, as Deliveries builds them.
  const frames = (Views: typeof StateViews, bytes: typeof viewFrameBytes): number => {
    let n = 0;
    const t0 = cpuNow();
    while (cpuNow() - t0 < 50_000) {
      for (const step of all) {
        const c = {
          roomIdJson: '"bench-room"',
          seq: 1,
          events: step.events,
          views: new Views(game, step.state),
          presenceJson: '[]',
          resultJson: null,
        };
        for (const v of seats) bytes(game, c, v);
      }
      n += all.length;
    }
    return (cpuNow() - t0) / n;
  };
  const fMine: number[] = [];
  const fTheirs: number[] = [];
  for (let i = 0; i < 9; i++) {
    fTheirs.push(frames(baseFrames.StateViews, baseFrames.viewFrameBytes));
    fMine.push(frames(StateViews, viewFrameBytes));
  }
  const [fm, ft] = [median(fMine), median(fTheirs)];
  console.log(
    `${name} 4 frames: base ${ft.toFixed(2)} µs, this ${fm.toFixed(2)} µs, this/base ${(fm / ft).toFixed(3)}; snapshot + frames this/base ${((m + fm) / (t + ft)).toFixed(3)}`,
  );
  // As in a worker: --rooms rooms' transitions interleaved, each its snapshot then its 4 frames, so the
  // encoder runs between other code rather than hot in a loop of its own.
  const interleaved = (mod: SnapshotModule, Views: typeof StateViews, bytes: typeof viewFrameBytes) => {
    const encoders = Array.from({ length: ROOMS }, () => encoderOf(mod));
    let n = 0;
    const t0 = cpuNow();
    for (let i = 0; i < rooms.length; i++)
      for (let r = 0; r < encoders.length; r++) {
        // Room r is r steps behind, so the rooms are at different states, as tables are.
        const k = (i + r) % rooms.length;
        encoders[r](rooms[k], k);
        const c = {
          roomIdJson: '"bench-room"',
          seq: 1,
          events: all[k].events,
          views: new Views(game, all[k].state),
          presenceJson: '[]',
          resultJson: null,
        };
        for (const v of seats) bytes(game, c, v);
        n++;
      }
    return (cpuNow() - t0) / n;
  };
  const iMine: number[] = [];
  const iTheirs: number[] = [];
  for (let i = 0; i < 9; i++) {
    iTheirs.push(interleaved(base, baseFrames.StateViews, baseFrames.viewFrameBytes));
    iMine.push(interleaved(mine, StateViews, viewFrameBytes));
  }
  const [im, it] = [median(iMine), median(iTheirs)];
  console.log(
    `${name} ${ROOMS} rooms interleaved, snapshot + 4 frames: base ${it.toFixed(2)} µs, this ${im.toFixed(2)} µs, this/base ${(im / it).toFixed(3)}`,
  );
}
