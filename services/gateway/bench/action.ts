/**
 * The gateway's CPU per player action, as a ratio to the floor measured in the same run.
 *
 * One action, as in the stack: a seated player's socket sends `action`; the gateway sends the
 * `room.<id>.cmd` request, a fake worker answers `{ ok, seq }` and publishes a Delivery of one
 * ≈ 1 KB view per seat (4 seats); the gateway writes the `ack` to the actor and the 4 views to
 * the 4 sockets. The floor does the same I/O with nothing else: the socket's bytes published raw
 * on NATS with a reply inbox, a fixed ack-sized text written on the reply, and 4 ready frames of
 * the same size written (corked) on a plain subscription.
 *
 *   node --import tsx services/gateway/bench/action.ts [ACTIONS] [--tables 1,16] [--tree DIR] [--no-floor]
 *
 * This process runs the gateway (startGateway, real NATS at NATS_URL) and the floor server; a
 * child process holds every socket and plays the worker, so only this process's CPU (user +
 * system: the kernel's socket writes included) counts. Each table sends its next action once the
 * ack and the 4 views of the last one arrived; `--tables` tables do so at once (1 = one action per
 * event-loop turn; more = several per turn, as under the swarm).
 *
 * `--tree DIR` runs the gateway, bus and protocol of another checkout (e.g. the untouched base
 * tree) with this file, so old and new can alternate back to back. `--no-floor` runs the gateway alone
 * (for `node --cpu-prof`). Figures, not assertions.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import WebSocket from 'ws';
import { PROTOCOL_REVISION } from '@joke/protocol';
import { DEV_JWT_SECRET, signPlayerToken } from '@joke/protocol/auth';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const SEATS = 4;
const ROUNDS = 3;
const OWNER = 'bench-worker/1';
const here = fileURLToPath(new URL('../../..', import.meta.url));

type Tree = {
  gateway: typeof import('../src/index.ts');
  uws: typeof import('../src/uws.ts');
  bus: typeof import('@joke/bus');
  protocol: typeof import('@joke/protocol');
};
/** The modules of one checkout: each resolves its own @joke/* and uWebSockets.js. */
async function loadTree(dir: string): Promise<Tree> {
  const at = (p: string) => import(resolvePath(dir, p));
  return {
    gateway: await at('services/gateway/src/index.ts'),
    uws: await at('services/gateway/src/uws.ts'),
    bus: await at('services/bus/src/index.ts'),
    protocol: await at('services/protocol/src/index.ts'),
  };
}

/** A view frame of about `size` bytes, as a worker encodes it (the gateway never opens it). */
function frameText(roomId: string, viewer: string, size: number): string {
  const base = { v: 1, t: 'view', roomId, seq: 1, role: 'player', view: { viewer, pad: '' } };
  base.view.pad = 'x'.repeat(Math.max(0, size - JSON.stringify(base).length - 20));
  return JSON.stringify({ ...base, events: [], presence: [] });
}
const seatsOf = (t: number) => Array.from({ length: SEATS }, (_, s) => `t${t}p${s}`);
const actionText = (roomId: string, actionId: string) =>
  JSON.stringify({ v: 1, t: 'action', roomId, actionId, action: { type: 'play', cards: [12, 25] } });
/** The floor's answer: as long as the gateway's ack. */
const FLOOR_ACK = JSON.stringify({ v: 1, t: 'ack', roomId: 'bench-r0', actionId: 'a0-000000', seq: 100000 });

type ToChild =
  | { t: 'open'; set: 'gw' | 'floor'; url: string; tables: number; gatewayId: string }
  | { t: 'run'; set: 'gw' | 'floor'; tables: number; actions: number }
  | { t: 'closeAll' };

// ---------------------------------------------------------------------------------------------- child
async function child(ns: string, tree: Tree): Promise<void> {
  const { contract, emit, encodeDelivery, serve } = tree.protocol;
  const bus = await tree.bus.NatsBus.connect(NATS_URL, { prefix: ns });
  type Seat = { ws: WebSocket; got: number };
  const sets = new Map<string, Seat[][]>();
  const seqs = new Map<string, number>();
  const frames = new Map<string, Buffer[]>();
  const framesOf = (roomId: string, t: number) => {
    let f = frames.get(roomId);
    if (!f) frames.set(roomId, (f = seatsOf(t).map((id) => Buffer.from(frameText(roomId, id, 1024)))));
    return f;
  };
  // The worker: replies first, then the delivery, in one callback (as the room worker does).
  const workerFor = (t: number, gatewayId: string) => {
    const roomId = `bench-r${t}`;
    const seats = seatsOf(t);
    seqs.set(roomId, 0);
    const delivery = (seq: number) => ({
      roomId,
      seq,
      owner: OWNER,
      frames: framesOf(roomId, t).map((bytes, s) => ({ kind: 'view' as const, viewer: seats[s], bytes })),
    });
    const malformed = () => ({ ok: false as const, code: 'malformed' as const, reason: 'bench' });
    serve(
      bus,
      contract.roomJoin.at(roomId),
      (j, reply) =>
        reply({
          ok: true,
          role: 'player',
          seq: seqs.get(roomId)!,
          owner: OWNER,
          frame: frameText(roomId, j.userId, 200),
        }),
      malformed,
    );
    serve(
      bus,
      contract.roomCommand.at(roomId),
      (_cmd, reply) => {
        const seq = seqs.get(roomId)! + 1;
        seqs.set(roomId, seq);
        reply({ ok: true, seq });
        emit(bus, contract.gatewayDeliver.at(gatewayId), delivery(seq));
      },
      malformed,
    );
    // The floor's worker: the same reply and delivery bytes, on plain subjects.
    const floorReply = contract.roomCommand.reply.encode({ ok: true, seq: 1 });
    bus.subscribe(`floor.cmd.${t}`, (m) => {
      const seq = seqs.get(roomId)! + 1;
      seqs.set(roomId, seq);
      m.respond!(floorReply);
      bus.publish(`floor.deliver.${t}`, encodeDelivery(delivery(seq)));
    });
  };
  const open = (url: string, t: number, s: number, floor: boolean) =>
    new Promise<Seat>((resolve, reject) => {
      const roomId = `bench-r${t}`;
      const seat: Seat = { ws: new WebSocket(url), got: 0 };
      let ready = false;
      seat.ws.on('error', reject);
      seat.ws.on('open', async () => {
        if (floor) {
          seat.ws.send(`${t} ${s}`);
          return resolve(seat);
        }
        const token = await signPlayerToken(DEV_JWT_SECRET, { sub: seatsOf(t)[s], name: `p${s}` });
        seat.ws.send(JSON.stringify({ v: 1, t: 'hello', token, revision: PROTOCOL_REVISION }));
      });
      seat.ws.on('message', (data) => {
        if (ready || floor) return void seat.got++;
        const msg = JSON.parse(data.toString());
        if (msg.t === 'welcome') seat.ws.send(JSON.stringify({ v: 1, t: 'join', roomId }));
        else if (msg.t === 'view') {
          ready = true;
          resolve(seat);
        } else reject(new Error(JSON.stringify(msg)));
      });
    });
  let round = 0;
  const reply = (m: object) => process.send!(m);
  process.on('message', async (m: ToChild) => {
    if (m.t === 'open') {
      const tables: Seat[][] = [];
      for (let t = 0; t < m.tables; t++) {
        if (m.set === 'gw') workerFor(t, m.gatewayId);
        await bus.flush();
        tables.push(await Promise.all(seatsOf(t).map((_, s) => open(m.url, t, s, m.set === 'floor'))));
      }
      sets.set(m.set, tables);
      reply({ t: 'opened' });
    } else if (m.t === 'run') {
      const tables = sets.get(m.set)!.slice(0, m.tables);
      round++;
      // Each table: an action, then wait for its ack and the 4 views (5 messages), then the next.
      await Promise.all(
        tables.map(async (seats, t) => {
          for (let i = 0; i < m.actions; i++) {
            for (const s of seats) s.got = 0;
            const actor = seats[i % SEATS];
            const text = actionText(`bench-r${t}`, `a${round}-${String(i).padStart(6, '0')}`);
            const done = new Promise<void>((resolve) => {
              const check = () => {
                if (actor.got >= 2 && seats.every((s) => s.got >= 1)) {
                  for (const s of seats) s.ws.off('message', check);
                  resolve();
                }
              };
              for (const s of seats) s.ws.on('message', check);
            });
            actor.ws.send(text);
            await done;
          }
        }),
      );
      reply({ t: 'ran' });
    } else if (m.t === 'closeAll') {
      for (const tables of sets.values()) for (const seats of tables) for (const s of seats) s.ws.close();
      sets.clear();
      reply({ t: 'closed' });
    }
  });
  reply({ t: 'up' });
}

// ---------------------------------------------------------------------------------------------- main
function ask(c: ChildProcess, m: ToChild | null, answer: string): Promise<void> {
  return new Promise((resolve) => {
    const on = (r: { t: string }) => {
      if (r.t !== answer) return;
      c.off('message', on);
      resolve();
    };
    c.on('message', on);
    if (m) c.send(m);
  });
}

async function main(actions: number, tableCases: number[], treeDir: string, tree: Tree, floor: boolean): Promise<void> {
  const uws = tree.uws.default;
  const ns = `gwaction-${randomBytes(4).toString('hex')}`;
  const bus = await tree.bus.NatsBus.connect(NATS_URL, { prefix: ns });
  const gatewayId = 'gw-bench';
  const gw = await tree.gateway.startGateway(
    {
      gatewayId,
      port: 0,
      jwtSecret: DEV_JWT_SECRET,
      heartbeatMs: 60_000,
      ratePerSecond: 1_000_000,
      rateBurst: 1_000_000,
      roomAccess: 'open',
      maxSocketsPerIp: 0,
    },
    { bus, logger: pino({ level: 'silent' }) },
  );

  // The floor: raw NATS request (own inbox, a token per request) and raw uWS, nothing parsed.
  const nc = bus.nc;
  const tables: { ws: import('../src/uws.ts').WebSocket<unknown>; s: number }[][] = [];
  const inbox = `${ns}._floor.${randomBytes(4).toString('hex')}`;
  const waiting = new Map<string, import('../src/uws.ts').WebSocket<unknown>>();
  let token = 0;
  nc.subscribe(`${inbox}.*`, {
    callback: (_err, m) => {
      const key = m.subject.slice(inbox.length + 1);
      const ws = waiting.get(key);
      waiting.delete(key);
      ws?.send(FLOOR_ACK, false);
    },
  });
  const tableOf = new Map<unknown, number>();
  const floorApp = uws.App().ws('/*', {
    message: (ws, message) => {
      const t = tableOf.get(ws);
      if (t !== undefined) {
        const key = (++token).toString(36);
        waiting.set(key, ws);
        // Copied: uWS reuses the message's memory once this callback returns, and NATS writes later.
        nc.publish(`${ns}.floor.cmd.${t}`, new Uint8Array(message).slice(), { reply: `${inbox}.${key}` });
        return;
      }
      // Set-up: "<table> <seat>" names the socket; a table's frames go out on its own subscription.
      const [table, s] = Buffer.from(message).toString().split(' ').map(Number);
      tableOf.set(ws, table);
      (tables[table] ??= []).push({ ws, s });
      if (tables[table].length < SEATS) return;
      const f = seatsOf(table).map((id) => Buffer.from(frameText(`bench-r${table}`, id, 1024)));
      nc.subscribe(`${ns}.floor.deliver.${table}`, {
        callback: () => {
          for (const x of tables[table]) x.ws.cork(() => x.ws.send(f[x.s], false));
        },
      });
    },
  });
  const floorListen = await new Promise<import('../src/uws.ts').us_listen_socket>((resolve) =>
    floorApp.listen('127.0.0.1', 0, (ls) => resolve(ls)),
  );
  const floorPort = uws.us_socket_local_port(floorListen);
  const c = fork(fileURLToPath(import.meta.url), ['child', ns, treeDir], { execArgv: ['--import', 'tsx'] });
  await ask(c, null, 'up');
  const most = Math.max(...tableCases);
  await ask(c, { t: 'open', set: 'gw', url: `ws://127.0.0.1:${gw.port}/ws`, tables: most, gatewayId }, 'opened');
  await ask(c, { t: 'open', set: 'floor', url: `ws://127.0.0.1:${floorPort}/`, tables: most, gatewayId }, 'opened');
  console.log(
    `gateway CPU per action (tree ${treeDir}): ${actions} actions per case and round, ${SEATS} seats, views ≈ 1 KB, ` +
      `best of ${ROUNDS} alternating rounds; CPU of the gateway process only`,
  );
  console.log('| tables in flight | gateway µs/action | floor µs/action (raw NATS req/reply + raw uWS) | × floor |');
  console.log('|---|---|---|---|');
  for (const n of tableCases) {
    const per = Math.max(1, Math.round(actions / n));
    const cpuPer = async (set: 'gw' | 'floor'): Promise<number> => {
      const c0 = process.cpuUsage();
      await ask(c, { t: 'run', set, tables: n, actions: per }, 'ran');
      const d = process.cpuUsage(c0);
      return (d.user + d.system) / (per * n);
    };
    let gwUs = Infinity;
    let floorUs = Infinity;
    // Alternating rounds, best of each: the first warms the JIT, the best is the least disturbed.
    for (let round = 0; round < ROUNDS; round++) {
      gwUs = Math.min(gwUs, await cpuPer('gw'));
      if (floor) floorUs = Math.min(floorUs, await cpuPer('floor'));
    }
    console.log(`| ${n} | ${gwUs.toFixed(1)} | ${floorUs.toFixed(1)} | ${(gwUs / floorUs).toFixed(2)} |`);
  }
  await ask(c, { t: 'closeAll' }, 'closed');
  c.kill();
  await gw.close();
  uws.us_listen_socket_close(floorListen);
  await bus.close();
}

const argv = process.argv.slice(2);
const opt = (name: string) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv.splice(at, 2)[1] : undefined;
};
if (argv[0] === 'child') await child(argv[1], await loadTree(argv[2]));
else {
  const treeDir = resolvePath(opt('--tree') ?? here);
  const tableCases = (opt('--tables') ?? '1,16').split(',').map(Number);
  const noFloor = argv.indexOf('--no-floor');
  if (noFloor >= 0) argv.splice(noFloor, 1);
  await main(Number(argv[0] ?? 4000), tableCases, treeDir, await loadTree(treeDir), noFloor < 0);
}
