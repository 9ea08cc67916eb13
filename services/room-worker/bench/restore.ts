/**
 * What a failover's restores cost the worker that takes the rooms over, on the real NATS and Redis.
 *
 *   node --import tsx services/room-worker/bench/restore.ts [--rooms 100] [--steps 40] [--rounds 5]
 *        [--old /path/to/an/older/checkout] [--behind 0] [--profile /tmp/prof]
 *
 * `--rooms` recorded rooms of each game (4 human seats, all connected as player viewers, `--steps`
 * moves chosen by the engine bot and recorded as the worker records them) are written to Redis under
 * a fresh namespace, leased to a dead worker. Each round a fresh worker process (src/main.ts, as in
 * production) restores all of them at once, `--concurrency` requests in flight as the matchmaker sends
 * them (FAILOVER_CONCURRENCY, 64); this process plays the matchmaker and a gateway that notes when each
 * room's views arrive (the players' pause, from the first request). With `--old`, rounds alternate
 * between that checkout's worker and this one's, so both meet the same load. Per round: the worker's
 * CPU µs per restore (/proc, 10 ms ticks), wall ms, first/p50/max of the views' arrival; best of rounds
 * per worker. Then, in this process, the CPU of decoding and checking one snapshot alone (µs, best of
 * rounds) per game, for each checkout. `--profile DIR`: the workers run with --cpu-prof into DIR.
 * `--behind K`: each room's whole snapshot is written K steps before its last one (steps-only writes,
 * issue 9), so every restore replays K steps (the decode-and-check figure leaves the replay out:
 * bench/steps-only.ts has it); 0 writes the v2 layout, which every checkout reads.
 * Figures, not assertions: compare figures of one run, with the load average printed next to them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { NatsBus } from '@joke/bus';
import { createStores } from '@joke/stores';
import { games, Rng, type AnyGame } from '@joke/engine';
import { call, contract, listen } from '@joke/protocol';
import { encodeSnapshot } from '../src/snapshot.ts';
import type { RoomData, StepRec } from '../src/room-types.ts';

const argv = (name: string): string | undefined => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const arg = (name: string, def: number): number => Number(argv(name) ?? def);
const ROOMS = arg('rooms', 100);
const STEPS = arg('steps', 40);
const ROUNDS = arg('rounds', 5);
const CONCURRENCY = arg('concurrency', 64);
/** 0: leave out the decode-and-check loop. */
const PIECES = arg('pieces', 1);
const OLD = argv('old');
const BEHIND = arg('behind', 0);
if (OLD && BEHIND > 0) throw new Error('--behind needs a checkout with steps-only writes: not with --old');
const PROFILE = argv('profile');
const GW = 'bench-gw';
const ns = `rbench${randomBytes(4).toString('hex')}`;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const here = fileURLToPath(new URL('../../..', import.meta.url));
const trees: { name: string; root: string }[] = [{ name: 'this', root: here }];
if (OLD) trees.unshift({ name: 'old', root: OLD });
// An hour ahead: the restored rooms' deadlines lie beyond the run, so no timeout moves a room meanwhile.
const T0 = Date.now() + 3_600_000;

interface Recorded {
  roomId: string;
  text: string;
  steps: string[];
  seq: number;
}

/** A room as its worker would have snapshotted it after `STEPS` recorded moves. */
function record(prefix: string, game: AnyGame, i: number): Recorded {
  const gameId = game.id;
  const roomId = `${prefix}-${i}`;
  const players = ['p1', 'p2', 'p3', 'p4'].map((id) => ({ id, name: id.toUpperCase() }));
  const options = game.optionsSchema.parse({}) as Record<string, unknown> & { mode?: string };
  const rng = Rng.fromSeed(`${roomId}:bots`);
  let state = game.setup({ seed: randomBytes(32).toString('hex'), players, options, now: T0 });
  const states = [state];
  const steps: StepRec[] = [];
  let now = T0;
  for (let s = 1; s <= STEPS && game.result(state) === null; s++) {
    now += 1000;
    let moved = false;
    for (const p of players) {
      const action = game.bot(game.view(state, p.id), rng);
      if (action === null) continue;
      const r = game.apply(state, p.id, action, now);
      if (!r.ok) continue;
      states.push((state = r.state));
      steps.push({ s, n: now, a: p.id, x: action, i: `a${s}` });
      moved = true;
      break;
    }
    if (!moved) {
      now = Math.max(now, game.deadline(state) ?? now);
      const r = game.onTimeout(state, now);
      if (!r.ok) break;
      states.push((state = r.state));
      steps.push({ s, n: now, t: 1 });
    }
  }
  const at = Math.max(0, steps.length - BEHIND);
  const data: RoomData = {
    v: 1,
    roomId,
    game: gameId,
    mode: String(options.mode ?? gameId),
    options,
    startedAt: T0,
    state: states[at],
    seats: players.map((p) => ({ ...p, bot: false, away: false, timeouts: 0, disconnectedSince: null })),
    viewers: players.map((p) => ({ userId: p.id, gatewayId: GW, role: 'player' as const, connected: true })),
    finishedAt: null,
    finishedPublished: false,
  };
  return {
    roomId,
    text:
      BEHIND > 0
        ? encodeSnapshot(data, at)
        : JSON.stringify({ v: 2, meta: { ...data, v: undefined, state: undefined }, state }),
    steps: steps.map((s) => JSON.stringify(s)),
    seq: steps.length,
  };
}

/** µs per call of `f`, best of `ROUNDS` rounds of `n` calls (the least disturbed by other processes). */
function time(n: number, f: (i: number) => void): number {
  let best = Infinity;
  for (let round = 0; round < ROUNDS; round++) {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) f(i);
    best = Math.min(best, ((performance.now() - t0) * 1000) / n);
  }
  return best;
}

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
const r1 = (x: number) => Math.round(x * 10) / 10;

const cpuTicks = (pid: number): number => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]);
};
const TICK_US = 10_000; // USER_HZ 100

/** A worker process of checkout `root`, resolved once it serves its subjects. */
async function startWorker(root: string, workerId: string): Promise<ChildProcess> {
  const prof = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', PROFILE] : [];
  const child = spawn(process.execPath, [...prof, '--import', 'tsx', 'services/room-worker/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      NATS_URL,
      REDIS_URL,
      JOKE_NAMESPACE: ns,
      WORKER_ID: workerId,
      OPS_PORT: '0',
      LOG_LEVEL: 'warn',
      JOKE_READY_LINE: '1',
      MAX_ROOMS: '1000000',
      HEARTBEAT_MS: '60000',
      // No other worker to hand rooms to: on SIGTERM release them and exit at once (profiles are written).
      DRAIN_TIMEOUT_MS: '0',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.on('exit', () => child.kill('SIGKILL'));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      if (b.toString().includes('READY')) resolve();
    });
    child.once('exit', (c) => reject(new Error(`worker exited ${c}`)));
  });
  return child;
}

const stores = await createStores({ redisUrl: REDIS_URL, namespace: ns });
const store = stores.snapshots;
const bus = await NatsBus.connect(NATS_URL, { prefix: ns });
const recorded: Recorded[] = [];
/** Restored by each worker before it is measured: a live worker taking rooms over is warm (JIT, zod's parsers). */
const warm: Recorded[] = [];
const WARM = Math.max(5, Math.ceil(ROOMS / 4));
for (const [gameId, game] of Object.entries(games))
  for (let i = 0; i < ROOMS + WARM; i++) {
    const r = record(i < ROOMS ? gameId : `warm-${gameId}`, game, i);
    const first = await store.createRoom(
      r.roomId,
      'dead-worker',
      { seq: r.seq, data: r.text, steps: r.steps },
      600_000,
    );
    if (!first.ok) throw new Error(`room ${r.roomId} exists`);
    (i < ROOMS ? recorded : warm).push(r);
  }

// The fake gateway: when each room's republished views arrive.
let viewsAt = new Map<string, number>();
const measured = new Set(recorded.map((r) => r.roomId));
listen(bus, contract.gatewayDeliver.at(GW), (d) => {
  if (measured.has(d.roomId) && !viewsAt.has(d.roomId)) viewsAt.set(d.roomId, performance.now());
});

/** Asks `workerId` to restore `rooms`, `CONCURRENCY` requests in flight, as a matchmaker's failover does. */
async function restoreAll(workerId: string, rooms: Recorded[]): Promise<void> {
  let next = 0;
  const failed: string[] = [];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < rooms.length) {
        const { roomId } = rooms[next++];
        const r = await call(bus, contract.workerOpen.at(workerId), { v: 1, roomId, restore: true }, 60_000);
        if (!r.ok) failed.push(`${roomId}: ${r.code}`);
      }
    }),
  );
  if (failed.length > 0) throw new Error(`restores refused: ${failed.slice(0, 3).join(', ')}`);
}

interface Round {
  tree: string;
  load1: number;
  cpuUsPerRestore: number;
  wallMs: number;
  viewsFirstMs: number;
  viewsP50Ms: number;
  viewsMaxMs: number;
}
const rounds: Round[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // Alternate which checkout goes first, so neither always meets the box right after the other.
  const order = round % 2 === 0 ? trees : [...trees].reverse();
  for (const tree of order) {
    const workerId = `bench-${tree.name}-${round}`;
    const child = await startWorker(tree.root, workerId);
    await restoreAll(workerId, warm);
    viewsAt = new Map();
    const load1 = loadavg()[0];
    const cpu0 = cpuTicks(child.pid!);
    const t0 = performance.now();
    await restoreAll(workerId, recorded);
    const wallMs = performance.now() - t0;
    const ticks = cpuTicks(child.pid!) - cpu0;
    if (viewsAt.size !== recorded.length) throw new Error(`views of ${viewsAt.size}/${recorded.length} rooms arrived`);
    const arrivals = [...viewsAt.values()].map((t) => t - t0);
    rounds.push({
      tree: tree.name,
      load1: r1(load1),
      cpuUsPerRestore: r1((ticks * TICK_US) / recorded.length),
      wallMs: r1(wallMs),
      viewsFirstMs: r1(Math.min(...arrivals)),
      viewsP50Ms: r1(quantile(arrivals, 0.5)),
      viewsMaxMs: r1(Math.max(...arrivals)),
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

// Decoding and checking one snapshot alone, per game and checkout: what the worker does before it builds the room.
const checkUs: Record<string, Record<string, number>> = {};
for (let round = 0; PIECES && round < 2; round++)
  for (const tree of round % 2 === 0 ? trees : [...trees].reverse()) {
    const engine = (await import(
      pathToFileURL(`${tree.root}/engine/src/index.ts`).href
    )) as typeof import('@joke/engine');
    const snap = (await import(
      pathToFileURL(`${tree.root}/services/room-worker/src/snapshot.ts`).href
    )) as typeof import('../src/snapshot.ts');
    const out = (checkUs[tree.name] ??= {});
    for (const [gameId, game] of Object.entries(engine.games)) {
      const texts = recorded.filter((r) => r.roomId.startsWith(`${gameId}-`));
      const us = time(2_000, (i) => {
        const data = snap.decodeSnapshot(texts[i % texts.length].text)!;
        const checked = game.restoreState!(data.state);
        if (!checked.ok) throw new Error(checked.reason);
      });
      out[gameId] = r1(Math.min(out[gameId] ?? Infinity, us));
    }
  }

for (const r of [...recorded, ...warm]) {
  const lease = await store.lease(r.roomId);
  if (lease) await store.drop(r.roomId, lease.epoch);
}
await stores.close();
await bus.close();
const best = (tree: string, k: Exclude<keyof Round, 'tree'>) =>
  Math.min(...rounds.filter((r) => r.tree === tree).map((r) => r[k]));
console.log(
  JSON.stringify({
    load: loadavg().map((l) => Math.round(l * 100) / 100),
    rooms: recorded.length,
    steps: STEPS,
    snapshotBytes: Object.fromEntries(
      Object.keys(games).map((g) => [g, recorded.find((r) => r.roomId.startsWith(`${g}-`))!.text.length]),
    ),
    best: Object.fromEntries(
      trees.map((t) => [
        t.name,
        {
          cpuUsPerRestore: best(t.name, 'cpuUsPerRestore'),
          wallMs: best(t.name, 'wallMs'),
          viewsFirstMs: best(t.name, 'viewsFirstMs'),
          viewsP50Ms: best(t.name, 'viewsP50Ms'),
          viewsMaxMs: best(t.name, 'viewsMaxMs'),
        },
      ]),
    ),
    decodeAndCheckUs: checkUs,
    rounds,
  }),
);
