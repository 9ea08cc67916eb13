/**
 * What steps-only snapshot writes (issue 9) cost and save in one worker process, per game, for several
 * SNAPSHOT_BASE_STEPS values K:
 *
 *   node --import tsx services/room-worker/bench/replay.ts [--ks 0,8,16,32,64] [--rounds 9]
 *
 * - write: CPU µs and bytes per action of the write's text in a room whose metadata does not change —
 *   the step's JSON (every write carries it) and, once K steps followed the last whole snapshot, the whole
 *   snapshot (SnapshotEncoder.next; K = 0 is a whole snapshot at every write, as before issue 9);
 * - restore: CPU µs of `roomFromStore` for a room whose whole snapshot is K steps behind its last step —
 *   decode, the game's state check and the replay of K steps, what a restore adds before it builds the room.
 *
 * Games are played by the engine bots with 4 seats (every 7th step a deadline that passed instead), the
 * longest of a few seeds. CPU time (process.cpuUsage), median of `--rounds` rounds of ≈ 30 ms each, every
 * figure of a game measured in turn in each round.
 * Figures, not assertions. The worker's whole-process figures on the real NATS and Redis: bench/ratio.ts.
 */
import { loadavg } from 'node:os';
import { games, Rng, type AnyGame } from '@joke/engine';
import { encodeSnapshot, SnapshotEncoder } from '../src/snapshot.ts';
import { roomFromStore } from '../src/stored-room.ts';
import type { RoomData, StepRec } from '../src/room-types.ts';

const argv = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
};
const KS = argv('ks', '0,8,16,32,64').split(',').map(Number);
const ROUNDS = Number(argv('rounds', '9'));
const MAX_K = Math.max(...KS);
const all = games as unknown as Record<string, AnyGame>;

interface Played {
  states: unknown[];
  steps: StepRec[];
  data(s: number): RoomData;
}

function play(game: AnyGame, seed: string): Played {
  const players = ['p1', 'p2', 'p3', 'p4'].map((id) => ({ id, name: id }));
  const options = game.optionsSchema.parse(game.id === 'one-card' ? { mode: 'classic' } : {}) as Record<
    string,
    unknown
  >;
  const rng = Rng.fromSeed(seed, 'bots');
  let now = 1_800_000_000_000;
  let state = game.setup({ seed, players, options, now });
  const states = [state];
  const steps: StepRec[] = [];
  for (let s = 1; s <= MAX_K + 40 && game.result(state) === null; s++) {
    now += 500;
    const deadline = game.deadline(state);
    const timeout = s % 7 === 0 && deadline !== null ? game.onTimeout(state, (now = Math.max(now, deadline))) : null;
    if (timeout?.ok) {
      states.push((state = timeout.state));
      steps.push({ s, n: now, t: 1 });
      continue;
    }
    const moved = players.some((p) => {
      const action = game.bot(game.view(state, p.id), rng);
      const r = action === null ? null : game.apply(state, p.id, action, now);
      if (!r?.ok) return false;
      states.push((state = r.state));
      steps.push({ s, n: now, a: p.id, x: action, i: `a${s}` });
      return true;
    });
    if (!moved) break;
  }
  const data = (s: number): RoomData => ({
    v: 1,
    roomId: 'bench',
    game: game.id,
    mode: String(options.mode ?? game.id),
    options,
    startedAt: 0,
    state: states[s],
    seats: players.map((p) => ({ ...p, bot: false, away: false, timeouts: 0, disconnectedSince: null })),
    viewers: players.map((p) => ({ userId: p.id, gatewayId: 'g', role: 'player' as const, connected: true })),
    finishedAt: null,
    finishedPublished: false,
  });
  return { states, steps, data };
}

const cpu = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
/**
 * CPU µs per call of each function: in every one of ROUNDS rounds each runs in turn for ≈ 30 ms (so the
 * box's noise falls on all of them alike); the median of its rounds.
 */
function timeAll(fs: ((i: number) => void)[]): number[] {
  const runs = fs.map(() => [] as number[]);
  for (let r = 0; r < ROUNDS; r++)
    fs.forEach((f, j) => {
      let n = 0;
      const t0 = cpu();
      while (cpu() - t0 < 30_000) f(n++);
      runs[j].push((cpu() - t0) / n);
    });
  return runs.map((xs) => xs.sort((a, b) => a - b)[xs.length >> 1]);
}
const r1 = (x: number) => Math.round(x * 10) / 10;

console.log(`load average ${loadavg().map((x) => x.toFixed(2))}; CPU µs and bytes per action / per restore`);
console.log('game      steps  whole B    K   write µs   write B   restore µs');
for (const [name, game] of Object.entries(all)) {
  const p = ['a', 'b', 'c', 'd', 'e', 'f']
    .map((x) => play(game, x.repeat(64)))
    .sort((x, y) => y.steps.length - x.steps.length)[0];
  const S = p.steps.length;
  const rooms = p.states.map((_, s) => p.data(s));
  const stepTexts = p.steps.map((s) => JSON.stringify(s));
  const ks = KS.filter((k) => k <= S);
  const bytes = ks.map(() => ({ sum: 0, writes: 0 }));
  // One room's writes over its game, one step a write, a new game (a new encoder) after the last step.
  const writes = ks.map((k, j) => {
    let enc = new SnapshotEncoder(k);
    return (i: number) => {
      const s = (i % S) + 1;
      if (s === 1) enc = new SnapshotEncoder(k);
      const step = JSON.stringify(p.steps[s - 1]);
      const whole = enc.next(rooms[s], s, 1);
      bytes[j].sum += step.length + (whole?.length ?? 0);
      bytes[j].writes++;
    };
  });
  const restores = ks.map((k) => {
    const stored = { roomId: 'bench', seq: S, data: encodeSnapshot(rooms[S - k], S - k), steps: stepTexts };
    return () => {
      const r = roomFromStore(stored, all);
      if (!r.ok) throw new Error(r.problem);
    };
  });
  const us = timeAll([...writes, ...restores]);
  const wholeBytes = encodeSnapshot(rooms[S], S).length;
  ks.forEach((k, j) => {
    const cells = [k, r1(us[j]), Math.round(bytes[j].sum / bytes[j].writes), r1(us[ks.length + j])];
    const text = cells.map((x, i) => String(x).padStart(i ? 10 : 4)).join(' ');
    console.log(`${name.padEnd(9)} ${String(S).padStart(5)} ${String(wholeBytes).padStart(8)} ${text}`);
  });
}
