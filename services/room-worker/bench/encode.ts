/**
 * CPU of what the worker encodes per action — the snapshot text and every
 * viewer's frame in the binary Delivery — through the worker's own classes
 * (SnapshotEncoder, Deliveries), against the encoding they replaced (every
 * view and the whole state through JSON.stringify, frames copied into the
 * envelope) and against the floor of PERFORMANCE.md (JSON.stringify of one
 * 2 KB view), all in the same run, in alternating rounds.
 *
 *   node --import tsx services/room-worker/bench/encode.ts [game] [mode] [spectators]
 *
 * The transitions are recorded first (engine bots playing 4-seat games), so
 * both encoders see exactly the same states. Figures, not assertions.
 */
import pino from 'pino';
import { games, Rng, type GameEvent } from '@joke/engine';
import { encodeDelivery, type bus as wire } from '@joke/protocol';
import type { Bus } from '@joke/bus';
import { Deliveries } from '../src/deliveries.ts';
import { SnapshotEncoder } from '../src/snapshot.ts';
import { createWorkerMetrics } from '../src/metrics.ts';
import type { RoomData, RoomHost, Transition, ViewerMeta } from '../src/room-types.ts';

const gameId = process.argv[2] ?? 'one-card';
const mode = process.argv[3] ?? 'classic';
const spectators = Number(process.argv[4] ?? 0);
const game = games[gameId];
const rng = Rng.fromSeed('encode-bench');
const players = ['p1', 'p2', 'p3', 'p4'].map((id) => ({ id, name: `플레이어 ${id}` }));
const options = game.optionsSchema.parse({ mode });

// ---- record transitions ---------------------------------------------------------------------------
interface Game {
  data: RoomData;
  transitions: Transition[];
}
function record(seed: string): Game {
  let state = game.setup({ seed: seed.padEnd(64, '0'), players, options, now: 0 });
  const data: RoomData = {
    v: 1,
    roomId: `bench-${seed}`,
    game: gameId,
    mode,
    options: options as Record<string, unknown>,
    startedAt: 0,
    state,
    seats: players.map((p) => ({ ...p, bot: false, away: false, timeouts: 0, disconnectedSince: null })),
    viewers: [],
    finishedAt: null,
    finishedPublished: false,
  };
  const transitions: Transition[] = [];
  let now = 0;
  for (let seq = 1; seq < 400 && game.result(state) === null; seq++) {
    now += 1000;
    let r: { state: unknown; events: GameEvent[] } | null = null;
    for (const p of players) {
      const a = game.bot(game.view(state, p.id), rng);
      const applied = a === null ? null : game.apply(state, p.id, a, now);
      if (applied?.ok) {
        r = applied;
        break;
      }
    }
    if (r === null) {
      const d = game.deadline(state);
      const t = d === null ? null : game.onTimeout(state, (now = Math.max(now, d)));
      if (!t?.ok) break;
      r = t;
    }
    state = r.state as typeof state;
    transitions.push({ seq, state, events: r.events });
  }
  return { data, transitions };
}
const recorded = Array.from({ length: 20 }, (_, i) => record(`g${i}`));
const actions = recorded.reduce((n, g) => n + g.transitions.length, 0);

const viewers = new Map<string, ViewerMeta>();
for (const p of players) viewers.set(p.id, { userId: p.id, gatewayId: 'g0', role: 'player', connected: true });
for (let i = 0; i < spectators; i++)
  viewers.set(`s${i}`, { userId: `s${i}`, gatewayId: 'g0', role: 'spectator', connected: true });
const presenceJson = JSON.stringify(players.map((p) => ({ id: p.id, connected: true, away: false, bot: false })));

let published = 0;
const bus = { publish: (_s: string, d: Uint8Array) => void (published += d.length) } as unknown as Bus;
const host = {
  bus,
  owner: 'w0/abc',
  metrics: createWorkerMetrics(),
  log: pino({ level: 'silent' }),
} as unknown as RoomHost;

// ---- the encoders -----------------------------------------------------------------------------------
let sink = 0;
/** The worker's classes as they are. */
function current(g: Game): void {
  const snapshot = new SnapshotEncoder();
  const deliveries = new Deliveries(host, game, g.data.roomId);
  for (const t of g.transitions) {
    g.data.state = t.state;
    sink += snapshot.encode(g.data).length;
    deliveries.views(viewers, t, presenceJson);
  }
}

/** The encoding before this change: JSON.stringify of every view and of the whole state, frames copied. */
function previous(g: Game): void {
  const idJson = JSON.stringify(g.data.roomId);
  let metaJson: string | null = null;
  for (const t of g.transitions) {
    g.data.state = t.state;
    const { state: _s, v: _v, ...meta } = g.data;
    metaJson ??= JSON.stringify(meta);
    sink += `{"v":2,"meta":${metaJson},"state":${JSON.stringify(t.state)}}`.length;
    const result = game.result(t.state);
    const resultJson = result === null ? null : JSON.stringify(result);
    const frames: wire.DeliveryFrame[] = [];
    let spectatorFrame: Uint8Array | null = null;
    for (const v of viewers.values()) {
      const viewer = v.role === 'player' ? v.userId : null;
      if (viewer === null && spectatorFrame) continue;
      const events: GameEvent[] = [];
      for (const e of t.events) {
        const seen = game.eventView(e, viewer);
        if (seen) events.push(seen);
      }
      const text =
        `{"v":1,"t":"view","roomId":${idJson},"seq":${t.seq},"role":"${viewer === null ? 'spectator' : 'player'}","view":` +
        JSON.stringify(game.view(t.state, viewer)) +
        ',"events":' +
        JSON.stringify(events) +
        ',"presence":' +
        presenceJson +
        (resultJson === null ? '}' : `,"result":${resultJson}}`);
      const bytes = Buffer.from(text);
      if (viewer === null) spectatorFrame = bytes;
      frames.push({ kind: 'view', viewer, bytes });
    }
    published += encodeDelivery({ roomId: g.data.roomId, seq: t.seq, owner: host.owner, frames }).length;
  }
}

// ---- floor: JSON.stringify of one 2 KB view ---------------------------------------------------------
let padded: unknown = game.view(recorded[0].transitions[0].state, 'p1');
while (JSON.stringify(padded).length < 2048)
  padded = { ...(padded as object), pad: 'x'.repeat(2048 - JSON.stringify(padded).length) };
function floor(): void {
  for (let i = 0; i < actions; i++) sink += JSON.stringify(padded).length;
}

/** CPU µs (user + system) of one pass, per action. */
function cpuPerAction(f: () => void): number {
  const c0 = process.cpuUsage();
  f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / actions;
}

const runs = { previous: [] as number[], current: [] as number[], floor: [] as number[] };
for (let round = 0; round < 20; round++) {
  runs.previous.push(cpuPerAction(() => recorded.forEach(previous)));
  runs.current.push(cpuPerAction(() => recorded.forEach(current)));
  runs.floor.push(cpuPerAction(floor));
}
// The first rounds warm the JIT; of the rest, the best round is the one other processes disturbed least.
const median = (xs: number[]) => Math.min(...xs.slice(4));
const r2 = (x: number) => Math.round(x * 100) / 100;
const [prev, cur, fl] = [median(runs.previous), median(runs.current), median(runs.floor)];
const frames = players.length + (spectators > 0 ? 1 : 0);
console.log(
  JSON.stringify({
    game: gameId,
    mode,
    viewers: { players: players.length, spectators },
    actions,
    cpuUsPerAction: { previous: r2(prev), current: r2(cur), currentOverPrevious: r2(cur / prev) },
    floor: {
      stringify2kViewUs: r2(fl),
      framesPerAction: frames,
      previousOverFloor: r2(prev / (fl * (frames + 1))),
      currentOverFloor: r2(cur / (fl * (frames + 1))),
      note: 'floor = (frames + 1 snapshot) × one 2 KB view JSON.stringify, measured in this run',
    },
    loadAverage: (await import('node:os')).loadavg().map(r2),
    sink: sink > 0 && published > 0,
  }),
);
