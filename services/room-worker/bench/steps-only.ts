/**
 * What steps-only snapshot writes (issue 9) cost and save in one worker process, per game, for several
 * SNAPSHOT_BASE_STEPS values K:
 *
 *   node --import tsx services/room-worker/bench/steps-only.ts [--ks 0,8,16,32,64] [--rounds 9]
 *
 * - write: CPU µs and bytes per action of the write's text in a room whose metadata does not change —
 *   the step's JSON (every write carries it) and, once K steps followed the last whole snapshot, the whole
 *   snapshot (SnapshotEncoder.next; K = 0 is a whole snapshot at every write, as before issue 9);
 * - restore: CPU µs of `roomFromStore` for a room whose whole snapshot is K steps behind its last step —
 *   decode, the game's state check and the replay of K steps, what a restore adds before it builds the room;
 * - Redis: this process's CPU µs per write on the real Redis (RedisSnapshotStore: the coalesced script
 *   call, its arguments encoded and written to the socket), 128 rooms writing in one tick as a busy
 *   worker's do, a whole write (the game's last snapshot and a step) against a steps-only one (the step).
 *
 * Games are played by the engine bots with 4 seats (every 7th step a deadline that passed instead), the
 * longest of a few seeds. CPU time (process.cpuUsage), median of `--rounds` rounds of ≈ 30 ms each, every
 * figure of a game measured in turn in each round.
 * Figures, not assertions. The worker's whole-process figures on the real NATS and Redis: bench/ratio.ts.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { connectRedis, RedisSnapshotStore, type SnapshotWrite } from '@joke/stores';
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
const all: Record<string, AnyGame> = games;

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

const redis = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const WRITERS = 128;

/** CPU µs of this process per write on the real Redis, whole and steps-only, alternating in each round. */
async function redisWrites(whole: string, step: string): Promise<{ whole: number; steps: number }> {
  const ns = `bench-steps-${randomBytes(4).toString('hex')}`;
  const store = new RedisSnapshotStore(redis, ns);
  const ids = Array.from({ length: WRITERS }, (_, i) => `r${i}`);
  await Promise.all(ids.map((id) => store.createRoom(id, 'bench', { seq: 0, data: whole, steps: [] }, 600_000)));
  let seq = 0;
  const runs = { whole: [] as number[], steps: [] as number[] };
  for (let r = 0; r < ROUNDS; r++)
    for (const kind of ['whole', 'steps'] as const) {
      const t0 = cpu();
      for (let b = 0; b < 10; b++) {
        seq++;
        const w: SnapshotWrite =
          kind === 'whole' ? { seq, data: whole, steps: [step] } : { seq, data: null, after: seq - 1, steps: [step] };
        const answers = await Promise.all(ids.map((id) => store.write(id, 1, 'bench', w, 600_000)));
        if (answers.some((a) => a !== 'ok')) throw new Error(`write answered ${answers.find((a) => a !== 'ok')}`);
      }
      runs[kind].push((cpu() - t0) / (10 * WRITERS));
    }
  for await (const keys of redis.scanIterator({ MATCH: `${ns}:*`, COUNT: 1000 }))
    if (keys.length) await redis.del(keys);
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
  return { whole: median(runs.whole), steps: median(runs.steps) };
}

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
  const onRedis = await redisWrites(encodeSnapshot(rooms[S], S), stepTexts[S - 1]);
  console.log(
    `${name.padEnd(9)} on the real Redis, CPU µs per write: whole ${r1(onRedis.whole)}, steps only ${r1(onRedis.steps)}`,
  );
}
await redis.close();
