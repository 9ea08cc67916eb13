/**
 * The view frames of a transition, encoded the way the worker did before the
 * view split (every viewer's view encoded whole: `JSON.stringify(game.view(…))`)
 * and the way it does now (the members all viewers share encoded once per
 * transition, each viewer's own members spliced in: `StateViews`,
 * src/frames.ts), in alternating rounds in one process, best of N.
 *
 *   node --import tsx services/room-worker/bench/views.ts [game] [mode] [players] [spectators]
 *
 * Records 20 bot-played games, then encodes every transition's frames (each
 * seat's, plus one spectator frame when there are spectators) as bytes, as
 * Deliveries does. Prints µs per action and per frame, the time garbage
 * collection took inside each kind of round, and the floor (one 2 KB view's
 * JSON.stringify in the same run). Figures, not assertions.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import { games, type GameEvent } from '@joke/engine';
import { StateViews, viewFrame, viewFrameBytes } from '../src/frames.ts';
import { playedSteps } from './played-steps.ts';

const [gameId = 'one-card', modeArg, playersArg = '4', spectatorsArg = '0'] = process.argv.slice(2);
const game = games[gameId];
const mode = modeArg || game.modes[0].id;
const players = Array.from({ length: Number(playersArg) }, (_, i) => ({ id: `user-${i}`, name: `플레이어${i}` }));
const viewers: (string | null)[] = [...players.map((p) => p.id), ...(Number(spectatorsArg) > 0 ? [null] : [])];
const ROUNDS = 10;

const steps = playedSteps(game, mode, players, 20, 'views-bench');
const roomIdJson = '"bench-room_1"';
const presenceJson = JSON.stringify(players.map((p) => ({ id: p.id, connected: true, away: false, bot: false })));
let sink = 0;

/** Before: each viewer's view built and encoded whole. */
function before(from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const t = steps[i];
    for (const viewer of viewers) {
      const events: GameEvent[] = [];
      for (const e of t.events) {
        const seen = game.eventView(e, viewer);
        if (seen) events.push(seen);
      }
      const role = viewer === null ? 'spectator' : 'player';
      const text = viewFrame(
        roomIdJson,
        t.seq,
        role,
        JSON.stringify(game.view(t.state, viewer)),
        JSON.stringify(events),
        presenceJson,
        t.resultJson,
      );
      sink += Buffer.from(text).length;
    }
  }
}

/** Now: the worker's own frame encoder. */
function now(from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const t = steps[i];
    const c = {
      roomIdJson,
      seq: t.seq,
      events: t.events,
      views: new StateViews(game, t.state),
      presenceJson,
      resultJson: t.resultJson,
    };
    for (const viewer of viewers) sink += viewFrameBytes(game, c, viewer).length;
  }
}

const gcs: { start: number; ms: number }[] = [];
const obs = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcs.push({ start: e.startTime, ms: e.duration });
});
obs.observe({ entryTypes: ['gc'] });

/**
 * Timed in chunks of CHUNK actions, each chunk's best round kept: on a box shared with other
 * work a whole pass is rarely undisturbed, a few milliseconds often are.
 */
const CHUNK = 50;
const chunks = Math.ceil(steps.length / CHUNK);
const best = { before: new Array<number>(chunks).fill(Infinity), now: new Array<number>(chunks).fill(Infinity) };
const busy = { before: 0, now: 0 };
const gcIn = { before: 0, now: 0 };
const windows: { kind: 'before' | 'now'; t0: number; t1: number }[] = [];
function round(kind: 'before' | 'now', timed: boolean): void {
  const f = kind === 'before' ? before : now;
  for (let c = 0; c < chunks; c++) {
    const t0 = performance.now();
    f(c * CHUNK, Math.min(steps.length, (c + 1) * CHUNK));
    const t1 = performance.now();
    if (!timed) continue;
    best[kind][c] = Math.min(best[kind][c], t1 - t0);
    busy[kind] += t1 - t0;
    windows.push({ kind, t0, t1 });
  }
}

// Floor: one 2 KB view's JSON.stringify, best of 5 rounds.
const sample = game.view(steps[Math.floor(steps.length / 2)].state, players[0].id);
let padded: unknown = sample;
while (JSON.stringify(padded).length < 2048)
  padded = { ...(padded as object), pad: 'x'.repeat(2048 - JSON.stringify(padded).length) };
let floorUs = Infinity;
for (let r = 0; r < 5; r++) {
  const t0 = performance.now();
  for (let i = 0; i < 20_000; i++) sink += JSON.stringify(padded).length;
  floorUs = Math.min(floorUs, ((performance.now() - t0) * 1000) / 20_000);
}

for (let r = 0; r < 3; r++) {
  round('before', false); // warm-up
  round('now', false);
}
for (let r = 0; r < ROUNDS; r++) {
  // Alternate which goes first, so neither always runs right after the other's garbage.
  const order: ('before' | 'now')[] = r % 2 === 0 ? ['before', 'now'] : ['now', 'before'];
  for (const kind of order) round(kind, true);
}
const sum = (xs: number[]) => xs.reduce((a, x) => a + x, 0);
const bestBefore = sum(best.before);
const bestNow = sum(best.now);

setTimeout(() => {
  for (const e of obs.takeRecords()) gcs.push({ start: e.startTime, ms: e.duration });
  obs.disconnect();
  for (const g of gcs) {
    const w = windows.find((x) => g.start >= x.t0 && g.start < x.t1);
    if (w) gcIn[w.kind] += g.ms;
  }
  const r2 = (x: number) => Math.round(x * 100) / 100;
  const perAction = (ms: number) => (ms * 1000) / steps.length;
  const frames = steps.length * viewers.length;
  const sampleFrame = viewFrame(
    roomIdJson,
    1,
    'player',
    new StateViews(game, steps[Math.floor(steps.length / 2)].state).json(players[0].id),
    '[]',
    presenceJson,
    null,
  );
  console.log(
    JSON.stringify({
      game: gameId,
      mode,
      viewers: viewers.length,
      actions: steps.length,
      frameBytes: Buffer.byteLength(sampleFrame),
      floorStringify2kViewUs: r2(floorUs),
      beforeUsPerAction: r2(perAction(bestBefore)),
      nowUsPerAction: r2(perAction(bestNow)),
      beforeUsPerFrame: r2((bestBefore * 1000) / frames),
      nowUsPerFrame: r2((bestNow * 1000) / frames),
      nowOverBefore: r2(bestNow / bestBefore),
      beforeOverFloorPerFrame: r2((bestBefore * 1000) / frames / floorUs),
      nowOverFloorPerFrame: r2((bestNow * 1000) / frames / floorUs),
      gcEntries: gcs.length,
      gcShareBefore: r2(gcIn.before / busy.before),
      gcShareNow: r2(gcIn.now / busy.now),
      rounds: ROUNDS,
      sink: sink > 0,
    }),
  );
}, 100);
