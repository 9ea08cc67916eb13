/**
 * The room worker's CPU per action in ONE process, this tree against another
 * (the untouched base tree), in alternating rounds: the figure to trust when
 * the box is too busy for two processes side by side (bench/ratio.ts).
 *
 *   node --import tsx services/room-worker/bench/inproc.ts --tree /work/wt/base [--tables 64] [--wave 4] [--rounds 9] [--actions 1500]
 *
 * Each tree's own worker (startRoomWorker), bus and protocol modules run on an
 * in-process bus and the real Redis (REDIS_URL, one namespace per tree), so
 * the path is the worker's whole per-action path but NATS: decode, queue, engine,
 * snapshot text, the fenced write through the Redis client, the reply and the
 * Delivery per gateway. `--tables` one-card tables of 4 human viewers each; an
 * action is one table's actor playing the engine bot's choice on its own view;
 * `--wave` tables act at once (a few actions per event-loop turn, as under load)
 * and the next wave starts once every ack and view of the last one arrived.
 * A round is --actions actions on one tree; rounds alternate trees and the
 * process's CPU time (user + system, not wall time) per action is compared by
 * the median of each tree's rounds. The driver's own work (choosing the action,
 * reading the frame) is in both sides alike. Figures, not assertions.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import { games, Rng } from '@joke/engine';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
};
const OTHER = resolve(arg('tree', '/work/wt/base'));
const TABLES = Number(arg('tables', '64'));
const WAVE = Number(arg('wave', '4'));
const ROUNDS = Number(arg('rounds', '9'));
const ACTIONS = Number(arg('actions', '1500'));
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const GW = 'inproc-gw';
const game = games['one-card'];
const here = fileURLToPath(new URL('../../..', import.meta.url));

type Protocol = typeof import('@joke/protocol');
async function loadTree(dir: string) {
  const at = (p: string) => import(resolve(dir, p));
  return {
    worker: (await at('services/room-worker/src/index.ts')) as typeof import('../src/index.ts'),
    bus: (await at('services/bus/src/index.ts')) as typeof import('@joke/bus'),
    protocol: (await at('services/protocol/src/index.ts')) as Protocol,
  };
}

interface Table {
  id: string;
  frames: Map<string, string>;
  seq: number;
}

/** One tree's worker on its own in-process bus, and its tables. */
async function side(name: string, dir: string) {
  const t = await loadTree(dir);
  const { contract, call, listen, wireText } = t.protocol;
  const ns = `inproc${randomBytes(4).toString('hex')}`;
  const bus = new t.bus.InProcessBus({ onHandlerError: (e) => console.error(e) });
  const stores = await t.bus.createStores({ redisUrl: REDIS_URL, namespace: ns, onError: () => {} });
  const w = await t.worker.startRoomWorker(
    { workerId: 'inproc-w', botDelayMs: 0, botJitterMs: 0, finishedLingerMs: 1000 },
    { bus, store: stores.snapshots, log: pino({ level: 'silent' }) },
  );
  const tables = new Map<string, Table>();
  const waiting = new Map<string, () => void>();
  listen(bus, contract.gatewayDeliver.at(GW), (d) => {
    const tb = tables.get(d.roomId);
    if (!tb) return;
    for (const f of d.frames) if (f.kind === 'view' && f.viewer !== null) tb.frames.set(f.viewer, wireText(f.bytes));
    tb.seq = Math.max(tb.seq, d.seq);
    waiting.get(d.roomId)?.();
  });
  const rng = Rng.fromSeed(`inproc-${name}`);
  let next = 0;
  // Unique per action: a repeated actionId is answered from memory with no new view.
  let actionIds = 0;
  const open = async (): Promise<Table> => {
    const id = `t${next++}`;
    const players = ['p1', 'p2', 'p3', 'p4'].map((p) => ({ id: p, name: p, bot: false }));
    const create = { roomId: id, game: 'one-card', options: { mode: 'classic' }, players };
    const r = await call(bus, contract.workerOpen.at('inproc-w'), { v: 1, roomId: id, create }, 10_000);
    if (!r.ok) throw new Error(`open refused: ${JSON.stringify(r)}`);
    const tb: Table = { id, frames: new Map(), seq: 0 };
    tables.set(id, tb);
    for (const p of players) {
      const j = await call(
        bus,
        contract.roomJoin.at(id),
        { v: 1, userId: p.id, spectate: false, gatewayId: GW },
        10_000,
      );
      if (j.ok) tb.frames.set(p.id, j.frame);
    }
    return tb;
  };
  /** One action on the table (the ack and its views awaited); false when its game is over. */
  const act = async (tb: Table): Promise<boolean> => {
    for (const [userId, text] of tb.frames) {
      const frame = JSON.parse(text);
      if (frame.result) return false;
      const action = game.bot(frame.view, rng);
      if (!action) continue;
      // Any delivery of the room ends the wait (a deadline's may come first); never wait past 2 s.
      const viewed = new Promise<void>((ok) => {
        waiting.set(tb.id, ok);
        setTimeout(ok, 2000).unref();
      });
      const cmd = { v: 1, userId, actionId: `a${actionIds++}`, action, gatewayId: GW, at: Date.now() };
      const reply = await call(bus, contract.roomCommand.at(tb.id), cmd, 5000);
      if (reply.ok) await viewed;
      waiting.delete(tb.id);
      return true;
    }
    return false;
  };
  let playing: Table[] = [];
  for (let i = 0; i < TABLES; i++) playing.push(await open());
  /** `n` actions in waves of WAVE tables; finished tables are replaced (their opening counts too). */
  const run = async (n: number): Promise<number> => {
    let done = 0;
    while (done < n) {
      const wave = playing.slice(0, WAVE);
      playing = [...playing.slice(WAVE), ...wave];
      const moved = await Promise.all(wave.map(act));
      for (let i = 0; i < wave.length; i++) {
        if (moved[i]) done++;
        else {
          tables.delete(wave[i].id);
          playing[playing.indexOf(wave[i])] = await open();
        }
      }
    }
    return done;
  };
  const stop = async () => {
    await w.close();
    const redis = await t.bus.connectRedis(REDIS_URL);
    for await (const keys of redis.scanIterator({ MATCH: `joke:${ns}:*`, COUNT: 1000 }))
      if (keys.length) await redis.del(keys);
    await redis.close();
    await stores.close();
  };
  return { name, run, stop };
}

const cpuNow = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(`worker CPU per action in one process: this (${here}) vs base (${OTHER})`);
console.log(`${TABLES} one-card tables per tree, waves of ${WAVE}, ${ACTIONS} actions a round; load average ${load()}`);
const sides = [await side('this', here), await side('base', OTHER)];
for (const s of sides) await s.run(ACTIONS); // warm-up: JIT, connections
const us: Record<string, number[]> = { this: [], base: [] };
for (let r = 0; r < ROUNDS; r++) {
  for (const s of r % 2 === 0 ? sides : [...sides].reverse()) {
    const c0 = cpuNow();
    const n = await s.run(ACTIONS);
    us[s.name].push((cpuNow() - c0) / n);
  }
  console.log(
    `round ${r + 1}: this ${us.this[r].toFixed(1)} µs/action, base ${us.base[r].toFixed(1)}, this/base ${(us.this[r] / us.base[r]).toFixed(3)}`,
  );
}
const [m, b] = [median(us.this), median(us.base)];
console.log(
  `median: this ${m.toFixed(1)} µs/action, base ${b.toFixed(1)}, this/base ${(m / b).toFixed(3)}; load average ${load()}`,
);
for (const s of sides) await s.stop();
process.exit(0);
