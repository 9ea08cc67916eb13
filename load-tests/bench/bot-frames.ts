/**
 * CPU of the bots' frame handling alone, without sockets: every player frame
 * of recorded one-card games (room worker layout) plus one ack per transition,
 * fed to the four `Bot`s of a table as their sockets would deliver them. Each
 * module given on the command line (a bot.ts, e.g. an older tree's) runs in
 * turn, rounds alternating, so their ratio comes from the same minutes of a
 * shared box. Prints user+system CPU µs per transition (= per action).
 *
 *   node --import tsx load-tests/bench/bot-frames.ts [ROUNDS] BOT_TS [BOT_TS…]
 */
import { dirname, join, resolve } from 'node:path';
import { games, Rng } from '@joke/engine';

const game = games['one-card'];
const [roundsArg, ...modules] = process.argv.slice(2);
const rounds = Number(roundsArg);
if (!Number.isInteger(rounds) || modules.length === 0) {
  process.stderr.write('usage: bot-frames.ts ROUNDS BOT_TS [BOT_TS…]\n');
  process.exit(2);
}

const seats = ['u1', 'u2', 'u3', 'u4'];
/** One transition: the frame of each seat, and the ack to the seat that acted. */
type Transition = { frames: Buffer[]; ack: Buffer; actor: number };

function firstState(roomId: string, seed: string): unknown {
  const players = seats.map((id, i) => ({ id, name: `봇${roomId.slice(5)}0${i}` }));
  return game.setup({ seed, players, options: game.optionsSchema.parse({ mode: 'classic' }), now: 0 });
}

function record(roomId: string, seed: string): Transition[] {
  // Names as the swarm's own (auth.ts): Korean, so the frames are not all ASCII, as against the real stack.
  const players = seats.map((id, i) => ({ id, name: `봇${roomId.slice(5)}0${i}` }));
  let state = game.setup({ seed, players, options: game.optionsSchema.parse({ mode: 'classic' }), now: 0 });
  const rng = Rng.fromSeed(seed);
  const out: Transition[] = [];
  for (let seq = 1; seq < 600 && game.result(state) === null; seq++) {
    const actor = seats.findIndex((id) => game.bot(game.view(state, id), rng) !== null);
    const r =
      actor >= 0
        ? game.apply(state, seats[actor], game.bot(game.view(state, seats[actor]), rng), 0)
        : game.onTimeout(state, game.deadline(state) ?? 0);
    if (!r.ok) break;
    state = r.state;
    const result = game.result(state);
    const presence = JSON.stringify(seats.map((id) => ({ id, connected: true, away: false, bot: false })));
    const frames = seats.map((id) =>
      Buffer.from(
        `{"v":1,"t":"view","roomId":"${roomId}","seq":${seq},"role":"player","view":${JSON.stringify(game.view(state, id))}` +
          `,"events":[],"presence":${presence}${result === null ? '}' : `,"result":${JSON.stringify(result)}}`}`,
      ),
    );
    const ack = Buffer.from(`{"v":1,"t":"ack","roomId":"${roomId}","actionId":"x${seq}","seq":${seq}}`);
    out.push({ frames, ack, actor: Math.max(0, actor) });
  }
  return out;
}

const tables = Array.from({ length: 40 }, (_, i) => ({
  roomId: `bench${i}`,
  log: record(`bench${i}`, `s${i}`),
  state0: firstState(`bench${i}`, `s${i}`),
}));
const transitions = tables.reduce((a, t) => a + t.log.length, 0);

const sink = {
  matched() {},
  view() {},
  finished() {},
  acked() {},
  latency() {},
  raced() {},
  error(kind: string) {
    errors.set(kind, (errors.get(kind) ?? 0) + 1);
  },
  connected() {},
  reconnected() {},
  socket() {},
  stopping: () => false,
};
const errors = new Map<string, number>();

/**
 * A `Bot` of whichever tree the command line names (this one's or an older one's): a declared boundary, since
 * the fields and methods this bench drives (`roomId`, `fixed`, `onFrame` or `onMessage`, `clearTimers`) differ
 * between trees and no one type of this tree describes them all.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a module of another tree (see above)
type AnyBot = Record<string, any>;
type BotModule = { Bot: new (cfg: object, s: typeof sink) => AnyBot; gate: unknown };
/** A bot.ts and the one-card gate of its own tree (the gate's shape may differ between trees). */
async function loadBot(path: string): Promise<BotModule> {
  const { Bot } = await import(resolve(path));
  const { VIEW_GATES } = await import(join(dirname(resolve(path)), 'frames.ts'));
  return { Bot, gate: VIEW_GATES['one-card'] };
}

/** Each session Bot's socket events, as its socket factory got them. */
const sockets = new Map<AnyBot, { open(): void }>();

function runOnce({ Bot: BotClass, gate }: BotModule): number {
  // Every table's bots are made (and a session Bot signed in) before the clock starts: only frames are timed.
  const seated = tables.map((t) => ({
    t,
    bots: seats.map((userId) => {
      const b = new BotClass(
        {
          url: 'ws://127.0.0.1:1/ws',
          token: 't',
          userId,
          game,
          gameId: 'one-card',
          mode: 'classic',
          players: 4,
          think: () => 1000,
          requeue: false,
          // Read by the new Bot only; the old one ignores them.
          gate,
          checkEvery: 16,
          // Read by a Bot on the session library only: its socket, which sends nowhere.
          socket: (on: { open(): void }) => {
            sockets.set(b, on);
            return { isOpen: true, send() {}, close() {}, terminate() {} };
          },
        },
        sink,
      );
      if (b.session !== undefined) {
        // A Bot on the session library: signed in and matched through its own socket events, as the swarm's are.
        b.start();
        const message = (m: object) => feed(b, Buffer.from(JSON.stringify({ v: 1, ...m })));
        sockets.get(b)!.open();
        message({ t: 'welcome', userId, name: userId, serverTime: 0 });
        message({ t: 'matched', roomId: t.roomId, game: 'one-card', mode: 'classic' });
      } else {
        b.roomId = t.roomId;
        // As if its join reply had brought the table's fixed view members (the new Bot needs them to parse a
        // view; the frames here still carry them inside the view, so older Bots compare on the same bytes).
        b.fixed = game.viewParts!.fixed(t.state0);
      }
      return b;
    }),
  }));
  const started = process.cpuUsage();
  for (const { t, bots } of seated) {
    for (const step of t.log) {
      step.frames.forEach((f, i) => feed(bots[i], f));
      feed(bots[step.actor], step.ack);
      // The bot would act after its think time and clear its timer: do the latter now.
      for (const b of bots) b.clearTimers();
    }
  }
  const used = process.cpuUsage(started);
  for (const { bots } of seated) for (const b of bots) if (b.session !== undefined) b.stop();
  sockets.clear();
  return (used.user + used.system) / transitions;
}

// The new Bot takes the frame's bytes; the old one took them decoded.
function feed(b: AnyBot, f: Buffer): void {
  if (typeof b.onFrame === 'function') b.onFrame(f);
  else b.onMessage(String(f));
}

const classes = await Promise.all(modules.map(loadBot));
const best = modules.map(() => Infinity);
for (let r = 0; r < rounds; r++)
  classes.forEach((C, k) => {
    best[k] = Math.min(best[k], runOnce(C));
  });
const load = (await import('node:os')).loadavg().map((x) => x.toFixed(1));
for (const [k, m] of modules.entries())
  console.log(`${m}: ${best[k].toFixed(1)} µs CPU per action (best of ${rounds})`);
console.log(
  `${transitions} transitions × 4 frames + 1 ack; errors ${JSON.stringify(Object.fromEntries(errors))}; load average ${load.join(' ')}`,
);
