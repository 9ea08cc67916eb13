/**
 * What a failover's restores cost the worker that takes the rooms over, on the real Redis.
 *
 *   node --import tsx services/room-worker/bench/restore.ts [--rooms 100] [--steps 40] [--rounds 5]
 *   node --cpu-prof --cpu-prof-dir /tmp/prof --import tsx services/room-worker/bench/restore.ts
 *
 * `--rooms` recorded rooms of each game (4 human seats, all connected as player viewers, `--steps`
 * moves chosen by the engine bot and recorded as the worker records them) are written to Redis under
 * a fresh namespace, leased to a dead worker. Each round a new worker restores all of them at once,
 * `--concurrency` requests in flight as the matchmaker sends them (FAILOVER_CONCURRENCY, 64), over an
 * in-process bus so the figures are the worker's own; a fake gateway notes when each room's views
 * arrive (the players' pause, from the first request). Printed per round and best of rounds:
 * process CPU µs per restore, wall ms, p50/max of the views' arrival. Then the CPU of decoding and
 * checking one snapshot alone (µs, best of rounds), per game. Figures, not assertions: compare runs
 * made back to back on the same box, with the load average next to them.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { createStores, InProcessBus } from '@joke/bus';
import { games, Rng, type AnyGame } from '@joke/engine';
import { call, contract, listen } from '@joke/protocol';
import { pino } from 'pino';
import { startRoomWorker } from '../src/index.ts';
import { decodeSnapshot, SnapshotEncoder } from '../src/snapshot.ts';
import type { RoomData, StepRec } from '../src/room-types.ts';

const arg = (name: string, def: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const ROOMS = arg('rooms', 100);
const STEPS = arg('steps', 40);
const ROUNDS = arg('rounds', 5);
const CONCURRENCY = arg('concurrency', 64);
/** 0: leave out the decode-and-check loop (so a --cpu-prof profile holds the rounds alone). */
const PIECES = arg('pieces', 1);
const GW = 'bench-gw';
const ns = `rbench${randomBytes(4).toString('hex')}`;
const log = pino({ level: 'silent' });
// Now: the restored rooms' deadlines lie ahead, so no timeout fires during a round.
const T0 = Date.now();

interface Recorded {
  roomId: string;
  text: string;
  steps: string[];
  seq: number;
}

/** A room as its worker would have snapshotted it after `STEPS` recorded moves. */
function record(gameId: string, game: AnyGame, i: number): Recorded {
  const roomId = `${gameId}-${i}`;
  const players = ['p1', 'p2', 'p3', 'p4'].map((id) => ({ id, name: id.toUpperCase() }));
  const options = game.optionsSchema.parse({}) as Record<string, unknown> & { mode?: string };
  const rng = Rng.fromSeed(`${roomId}:bots`);
  let state = game.setup({ seed: randomBytes(32).toString('hex'), players, options, now: T0 });
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
      state = r.state;
      steps.push({ s, n: now, a: p.id, x: action, i: `a${s}` });
      moved = true;
      break;
    }
    if (!moved) {
      now = Math.max(now, game.deadline(state) ?? now);
      const r = game.onTimeout(state, now);
      if (!r.ok) break;
      state = r.state;
      steps.push({ s, n: now, t: 1 });
    }
  }
  const data: RoomData = {
    v: 1,
    roomId,
    game: gameId,
    mode: String(options.mode ?? gameId),
    options,
    startedAt: T0,
    state,
    seats: players.map((p) => ({ ...p, bot: false, away: false, timeouts: 0, disconnectedSince: null })),
    viewers: players.map((p) => ({ userId: p.id, gatewayId: GW, role: 'player' as const, connected: true })),
    finishedAt: null,
    finishedPublished: false,
  };
  return {
    roomId,
    text: new SnapshotEncoder().encode(data),
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

const stores = await createStores({ redisUrl: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', namespace: ns });
const store = stores.snapshots;
const bus = new InProcessBus({ onHandlerError: (e) => console.error(e) });
const recorded: Recorded[] = [];
for (const [gameId, game] of Object.entries(games))
  for (let i = 0; i < ROOMS; i++) {
    const r = record(gameId, game, i);
    const first = await store.createRoom(
      r.roomId,
      'dead-worker',
      { seq: r.seq, data: r.text, steps: r.steps },
      600_000,
    );
    if (!first.ok) throw new Error(`room ${r.roomId} exists`);
    recorded.push(r);
  }

// The fake gateway: when each room's republished views arrive.
let viewsAt = new Map<string, number>();
listen(bus, contract.gatewayDeliver.at(GW), (d) => {
  if (!viewsAt.has(d.roomId)) viewsAt.set(d.roomId, performance.now());
});

const rounds: { cpuUsPerRestore: number; wallMs: number; viewsP50Ms: number; viewsMaxMs: number }[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const w = await startRoomWorker(
    { workerId: `bench-w${round}`, heartbeatMs: 60_000, maxRooms: 1_000_000, logLevel: 'silent' },
    { bus, store, log },
  );
  viewsAt = new Map();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  const failed: string[] = [];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < recorded.length) {
        const { roomId } = recorded[next++];
        const r = await call(bus, contract.workerOpen.at(w.id), { v: 1, roomId, restore: true }, 60_000);
        if (!r.ok) failed.push(`${roomId}: ${r.code}`);
      }
    }),
  );
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (failed.length > 0) throw new Error(`restores refused: ${failed.slice(0, 3).join(', ')}`);
  if (viewsAt.size !== recorded.length) throw new Error(`views of ${viewsAt.size}/${recorded.length} rooms arrived`);
  const arrivals = [...viewsAt.values()].map((t) => t - t0);
  rounds.push({
    cpuUsPerRestore: r1((cpu.user + cpu.system) / recorded.length),
    wallMs: r1(wallMs),
    viewsP50Ms: r1(quantile(arrivals, 0.5)),
    viewsMaxMs: r1(Math.max(...arrivals)),
  });
  await w.close();
}

// Decoding and checking one snapshot alone, per game: what the worker does before it builds the room.
const checkUs: Record<string, number> = {};
for (const [gameId, game] of PIECES ? Object.entries(games) : []) {
  const texts = recorded.filter((r) => r.roomId.startsWith(`${gameId}-`));
  checkUs[gameId] = r1(
    time(2_000, (i) => {
      const data = decodeSnapshot(texts[i % texts.length].text)!;
      const checked = game.restoreState!(data.state);
      if (!checked.ok) throw new Error(checked.reason);
    }),
  );
}

for (const r of recorded) {
  const lease = await store.lease(r.roomId);
  if (lease) await store.drop(r.roomId, lease.epoch);
}
await stores.close();
const best = (k: keyof (typeof rounds)[number]) => Math.min(...rounds.map((r) => r[k]));
console.log(
  JSON.stringify({
    load: loadavg().map((l) => Math.round(l * 100) / 100),
    rooms: recorded.length,
    steps: STEPS,
    snapshotBytes: Object.fromEntries(
      Object.keys(games).map((g) => [g, recorded.find((r) => r.roomId.startsWith(`${g}-`))!.text.length]),
    ),
    best: {
      cpuUsPerRestore: best('cpuUsPerRestore'),
      wallMs: best('wallMs'),
      viewsP50Ms: best('viewsP50Ms'),
      viewsMaxMs: best('viewsMaxMs'),
    },
    decodeAndCheckUs: checkUs,
    rounds,
  }),
);
