/**
 * The room worker's CPU per action, this tree against another (the untouched
 * base tree), as a RATIO measured side by side — the only figure that
 * survives a shared, noisy 2-core box.
 *
 *   node --import tsx services/room-worker/bench/ratio.ts --tree /work/wt/base [--tables 500] [--rounds 7] [--seconds 10]
 *        [--this-env K=V,K=V] [--base-env K=V,K=V]
 *
 * Two worker processes run at the same time, each its own tree's
 * `services/room-worker/src/main.ts` on the real NATS and Redis in its own
 * namespace, so both meet the same neighbours at the same moments. This process
 * drives both alike, as capacity.ts does: `--tables` one-card tables per worker,
 * 4 human seats all joined as viewers through one gateway subject, one action
 * per table every --interval ms (chosen by the engine bot on the actor's own
 * view), finished tables replaced. Each round reads both workers' utime+stime
 * (/proc) over --seconds and prints µs per action and this/base; the last line
 * is the median ratio of the rounds. Figures, not assertions.
 *
 * `--this-env` / `--base-env` add environment variables to one side's worker, so one tree can be set against
 * itself under two settings: steps-only snapshot writes (issue 9) against a whole snapshot at every write,
 *
 *   node --import tsx services/room-worker/bench/ratio.ts --tree . --base-env SNAPSHOT_BASE_STEPS=0
 *
 * Each round also prints the snapshot bytes each worker wrote per action (its joke_worker_snapshot_bytes
 * sum: the whole text when a write carries it, plus the steps; a tree from before issue 9 counts only the
 * whole text, which was then every write).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NatsBus } from '@joke/bus';
import { connectRedis } from '@joke/stores';
import { games, Rng } from '@joke/engine';
import { call, contract, emit, listen, wireText, type bus as wire } from '@joke/protocol';

const arg = (name: string, def: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
};
const OTHER = resolve(arg('tree', '/work/wt/base'));
const TABLES = Number(arg('tables', '500'));
const ROUNDS = Number(arg('rounds', '7'));
const SECONDS = Number(arg('seconds', '10'));
const WARMUP = Number(arg('warmup', '10'));
const INTERVAL = Number(arg('interval', '2000'));
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const GW = 'ratio-gw';
const game = games['one-card'];
const here = fileURLToPath(new URL('../../..', import.meta.url));
const envOf = (list: string): Record<string, string> =>
  Object.fromEntries(list ? list.split(',').map((kv) => kv.split('=', 2) as [string, string]) : []);
const THIS_ENV = envOf(arg('this-env', ''));
const BASE_ENV = envOf(arg('base-env', ''));

/** A free TCP port for a worker's ops server (its /metrics is read each round). */
const freePort = (): Promise<number> =>
  new Promise((ok) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
  });

/** The sum of a worker's snapshot-write bytes so far, from its /metrics. */
async function snapshotBytes(port: number): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  return Number(/^joke_worker_snapshot_bytes_sum (\S+)$/m.exec(text)?.[1] ?? NaN);
}

const cpuTicks = (pid: number): number => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(f[11]) + Number(f[12]); // utime + stime, USER_HZ = 100
};

interface Table {
  id: string;
  frames: Map<string, string>;
  seq: number;
  busy: boolean;
  timer: NodeJS.Timeout | null;
}

/** One tree's worker process and the tables this process plays on it. */
class Side {
  readonly ns = `ratio${randomBytes(4).toString('hex')}`;
  worker!: ChildProcess;
  bus!: NatsBus;
  actions = 0;
  failures = 0;
  private readonly tables = new Map<string, Table>();
  private nextId = 0;
  private readonly rng: Rng;

  opsPort = 0;

  constructor(
    readonly name: string,
    readonly root: string,
    readonly env: Record<string, string>,
  ) {
    this.rng = Rng.fromSeed(`ratio-${name}`);
  }

  async start(): Promise<void> {
    this.opsPort = await freePort();
    this.worker = spawn(process.execPath, ['--import', 'tsx', 'services/room-worker/src/main.ts'], {
      cwd: this.root,
      env: {
        ...process.env,
        NATS_URL,
        REDIS_URL,
        JOKE_NAMESPACE: this.ns,
        WORKER_ID: 'ratio-w',
        OPS_PORT: String(this.opsPort),
        LOG_LEVEL: 'warn',
        JOKE_READY_LINE: '1',
        MAX_ROOMS: '1000000',
        FINISHED_LINGER_MS: '1000',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((ok, fail) => {
      this.worker.stdout!.on('data', (b: Buffer) => b.toString().includes('READY') && ok());
      this.worker.once('exit', (c) => fail(new Error(`${this.name} worker exited ${c}`)));
    });
    this.bus = await NatsBus.connect(NATS_URL, { prefix: this.ns });
    listen(this.bus, contract.gatewayDeliver.at(GW), (d) => this.delivered(d));
  }

  private delivered(d: wire.Delivery): void {
    const t = this.tables.get(d.roomId);
    if (!t) return;
    for (const f of d.frames) if (f.kind === 'view' && f.viewer !== null) t.frames.set(f.viewer, wireText(f.bytes));
    t.seq = Math.max(t.seq, d.seq);
  }

  heartbeat(): void {
    emit(this.bus, contract.gatewayHeartbeat, { v: 1, gatewayId: GW, sockets: 0, at: Date.now() });
  }

  async fill(n: number): Promise<void> {
    const run = async () => {
      while (this.tables.size + this.opening < n) {
        this.opening++;
        await this.open().catch(() => this.failures++);
        this.opening--;
      }
    };
    await Promise.all(Array.from({ length: 16 }, run));
  }
  private opening = 0;

  private async open(): Promise<void> {
    const id = `t${this.nextId++}`;
    const players = ['p1', 'p2', 'p3', 'p4'].map((p) => ({ id: p, name: p, bot: false }));
    const create = { roomId: id, game: 'one-card', options: { mode: 'classic' }, players };
    const r = await call(this.bus, contract.workerOpen.at('ratio-w'), { v: 1, roomId: id, create }, 10_000);
    if (!r.ok) throw new Error('open refused');
    const t: Table = { id, frames: new Map(), seq: 0, busy: false, timer: null };
    this.tables.set(id, t);
    for (const p of players) {
      const j = await call(
        this.bus,
        contract.roomJoin.at(id),
        { v: 1, userId: p.id, spectate: false, gatewayId: GW },
        10_000,
      );
      if (j.ok) t.frames.set(p.id, j.frame);
    }
    t.timer = setTimeout(() => void this.act(t), Math.random() * INTERVAL);
  }

  private async act(t: Table): Promise<void> {
    t.timer = setTimeout(() => void this.act(t), INTERVAL * (0.8 + Math.random() * 0.4));
    if (t.busy) return;
    for (const [userId, text] of t.frames) {
      const frame = JSON.parse(text);
      if (frame.result) {
        this.drop(t);
        void this.fill(TABLES);
        return;
      }
      const action = game.bot(frame.view, this.rng);
      if (!action) continue;
      t.busy = true;
      const cmd = { v: 1, userId, actionId: `a${t.seq}-${userId}`, action, gatewayId: GW, at: Date.now() };
      try {
        await call(this.bus, contract.roomCommand.at(t.id), cmd, 5000);
        this.actions++;
      } catch {
        this.failures++;
      }
      t.busy = false;
      return;
    }
  }

  private drop(t: Table): void {
    if (t.timer) clearTimeout(t.timer);
    this.tables.delete(t.id);
  }

  async stop(): Promise<void> {
    for (const t of [...this.tables.values()]) this.drop(t);
    this.worker.kill('SIGKILL');
    await this.bus.close();
  }
}

const sides = [new Side('this', here, THIS_ENV), new Side('base', OTHER, BASE_ENV)];
process.on('exit', () => sides.forEach((s) => s.worker?.kill('SIGKILL')));
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(
  `worker CPU per action, this (${here}) / base (${OTHER}); ${TABLES} tables each, 1 action / ${INTERVAL} ms / table`,
);
console.log(
  `load average at start: ${load()}; this env ${JSON.stringify(THIS_ENV)}, base env ${JSON.stringify(BASE_ENV)}`,
);
await Promise.all(sides.map((s) => s.start()));
const beat = setInterval(() => sides.forEach((s) => s.heartbeat()), 1000);
sides.forEach((s) => s.heartbeat());
await Promise.all(sides.map((s) => s.fill(TABLES)));
await new Promise((r) => setTimeout(r, WARMUP * 1000));

const ratios: number[] = [];
const bytesPerAction: number[][] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const c0 = sides.map((s) => cpuTicks(s.worker.pid!));
  const a0 = sides.map((s) => s.actions);
  const b0 = await Promise.all(sides.map((s) => snapshotBytes(s.opsPort)));
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const n = sides.map((s, i) => Math.max(1, s.actions - a0[i]));
  const us = sides.map((s, i) => ((cpuTicks(s.worker.pid!) - c0[i]) * 1e4) / n[i]);
  const bytes = (await Promise.all(sides.map((s) => snapshotBytes(s.opsPort)))).map((b, i) => (b - b0[i]) / n[i]);
  ratios.push(us[0] / us[1]);
  bytesPerAction.push(bytes);
  console.log(
    `round ${round}: this ${us[0].toFixed(0)} µs/action (${n[0]} actions, ${bytes[0].toFixed(0)} B written/action), base ${us[1].toFixed(0)} µs/action (${n[1]}, ${bytes[1].toFixed(0)} B/action), this/base ${(us[0] / us[1]).toFixed(3)}, load ${load()}`,
  );
}
ratios.sort((a, b) => a - b);
const medianBytes = (i: number) => bytesPerAction.map((b) => b[i]).sort((a, b) => a - b)[bytesPerAction.length >> 1];
console.log(
  `median snapshot bytes written per action: this ${medianBytes(0).toFixed(0)}, base ${medianBytes(1).toFixed(0)}`,
);
console.log(
  `median this/base ${ratios[Math.floor(ratios.length / 2)].toFixed(3)} (min ${ratios[0].toFixed(3)}, max ${ratios[ratios.length - 1].toFixed(3)}); failures this ${sides[0].failures}, base ${sides[1].failures}; load average at end: ${load()}`,
);

clearInterval(beat);
await Promise.all(sides.map((s) => s.stop()));
// Leave nothing behind in the shared Redis.
const redis = await connectRedis(REDIS_URL);
for (const s of sides)
  for await (const keys of redis.scanIterator({ MATCH: `joke:${s.ns}:*`, COUNT: 1000 }))
    if (keys.length) await redis.del(keys);
await redis.close();
process.exit(0);
