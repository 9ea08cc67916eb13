/**
 * The gateway alone: CPU of forwarding a worker's Delivery to N sockets, as a
 * ratio to the floor measured in the same run — the same bytes received from
 * NATS on a plain subscription and written with raw uWebSockets.js to the same
 * number of sockets (`ws.send` corked per socket for players, ONE `publish` to
 * a topic for spectators: the PERFORMANCE.md floor rows), with nothing else.
 *
 *   node --import tsx services/gateway/bench/deliver.ts [DELIVERIES]
 *
 * This process runs the gateway (startGateway, real NATS) and the floor server;
 * a child process holds every client socket and publishes the deliveries, so
 * only the gateway's own CPU (process.cpuUsage of this process: user + system,
 * the kernel's socket writes included) is counted. Deliveries go in windows of
 * 100, each window awaited at every socket, so no socket backs up.
 * Figures, not assertions.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import WebSocket from 'ws';
import { NatsBus } from '@joke/bus';
import { contract, encodeDelivery, PROTOCOL_REVISION, subjects, wireText, type bus as wire } from '@joke/protocol';
import { DEV_JWT_SECRET, signPlayerToken } from '@joke/protocol/auth';
import { startGateway } from '../src/index.ts';
import uws, { type us_listen_socket, type WebSocket as UwsSocket } from '../src/uws.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const WINDOW = 100;
const ROUNDS = 3;
const OWNER = 'bench-worker/1';

/** A view frame of about `size` bytes, as a worker encodes it (the gateway never opens it). */
function frameText(roomId: string, seq: number, viewer: string | null, size: number): string {
  const base = { v: 1, t: 'view', roomId, seq, role: viewer ? 'player' : 'spectator', view: { viewer, pad: '' } };
  base.view.pad = 'x'.repeat(Math.max(0, size - JSON.stringify(base).length - 20));
  return JSON.stringify({ ...base, events: [], presence: [] });
}

interface Case {
  name: string;
  /** Player sockets, one frame each per delivery (0 = a spectator case). */
  players: number;
  /** Spectator sockets sharing one frame per delivery. */
  spectators: number;
}

const CASES: Case[] = [
  { name: 'table: 4 players, 4 frames', players: 4, spectators: 0 },
  { name: 'big table: 16 players, 16 frames', players: 16, spectators: 0 },
  { name: 'spectators: 1 frame to 100 sockets', players: 0, spectators: 100 },
];

type ToChild =
  | {
      t: 'open';
      set: string;
      url: string;
      roomId: string | null;
      users: { id: string; token: string; spectate: boolean }[];
    }
  | { t: 'run'; set: string; subject: string; roomId: string; viewers: (string | null)[]; from: number; count: number }
  | { t: 'closeAll' };

// ---------------------------------------------------------------------------------------------- child
async function child(ns: string): Promise<void> {
  const bus = await NatsBus.connect(NATS_URL, { prefix: ns });
  const sets = new Map<string, { ws: WebSocket; got: number }[]>();
  const reply = (m: object) => process.send!(m);
  process.on('message', async (m: ToChild) => {
    if (m.t === 'open') {
      const socks = await Promise.all(
        m.users.map(
          (u) =>
            new Promise<{ ws: WebSocket; got: number }>((resolve, reject) => {
              const s = { ws: new WebSocket(m.url), got: 0 };
              let ready = false;
              s.ws.on('error', reject);
              s.ws.on('open', () => {
                if (m.roomId === null) return resolve(s); // the floor server needs no sign-in
                s.ws.send(JSON.stringify({ v: 1, t: 'hello', token: u.token, revision: PROTOCOL_REVISION }));
              });
              s.ws.on('message', (data) => {
                if (ready || m.roomId === null) return void s.got++;
                const msg = JSON.parse(data.toString());
                if (msg.t === 'welcome')
                  s.ws.send(JSON.stringify({ v: 1, t: 'join', roomId: m.roomId, spectate: u.spectate }));
                else if (msg.t === 'view') {
                  ready = true;
                  resolve(s);
                } else if (msg.t === 'error') reject(new Error(JSON.stringify(msg)));
              });
            }),
        ),
      );
      sets.set(m.set, socks);
      reply({ t: 'opened' });
    } else if (m.t === 'run') {
      const socks = sets.get(m.set)!;
      // Encoded before the first publish: this process's CPU is not what is measured, but its pace is.
      const payloads: Uint8Array[] = [];
      for (let seq = m.from; seq < m.from + m.count; seq++) {
        const frames: wire.DeliveryFrame[] = m.viewers.map((id) => ({
          kind: 'view',
          viewer: id,
          bytes: Buffer.from(frameText(m.roomId, seq, id, 1024)),
        }));
        payloads.push(encodeDelivery({ roomId: m.roomId, seq, owner: OWNER, frames }));
      }
      for (const s of socks) s.got = 0;
      for (let i = 0; i < payloads.length; i += WINDOW) {
        for (const p of payloads.slice(i, i + WINDOW)) bus.publish(m.subject, p);
        await bus.flush();
        const want = Math.min(i + WINDOW, payloads.length);
        while (socks.some((s) => s.got < want)) await new Promise((r) => setImmediate(r));
      }
      reply({ t: 'ran' });
    } else if (m.t === 'closeAll') {
      for (const socks of sets.values()) for (const s of socks) s.ws.close();
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

/** CPU µs of this process while `f` runs, per `n` units. */
async function cpuPer(n: number, f: () => Promise<void>): Promise<number> {
  const c0 = process.cpuUsage();
  await f();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

async function main(deliveries: number): Promise<void> {
  const ns = `gwbench-${randomBytes(4).toString('hex')}`;
  const bus = await NatsBus.connect(NATS_URL, { prefix: ns });
  const gw = await startGateway(
    { gatewayId: 'gw-bench', port: 0, jwtSecret: DEV_JWT_SECRET, heartbeatMs: 60_000 },
    { bus, logger: pino({ level: 'silent' }) },
  );

  // The floor: a bare uWS server; each NATS message's frames are written as they are, nothing read.
  const floorSocks: UwsSocket<unknown>[] = [];
  const floorApp = uws.App().ws('/*', {
    open: (ws) => {
      floorSocks.push(ws);
      ws.subscribe('spectators');
    },
    close: (ws) => floorSocks.splice(floorSocks.indexOf(ws), 1),
  });
  const floorListen = await new Promise<us_listen_socket>((resolve) =>
    floorApp.listen('127.0.0.1', 0, (ls) => resolve(ls)),
  );
  const floorPort = uws.us_socket_local_port(floorListen);
  let floorFrames: Buffer[] = [];
  let floorSpectators = false;
  bus.subscribe('floor', () => {
    if (floorSpectators) floorApp.publish('spectators', floorFrames[0], false);
    else
      for (let i = 0; i < floorSocks.length; i++) {
        const ws = floorSocks[i];
        ws.cork(() => ws.send(floorFrames[i], false));
      }
  });

  const c = fork(fileURLToPath(import.meta.url), ['child', ns], { execArgv: ['--import', 'tsx'] });
  await ask(c, null, 'up');
  console.log(
    `gateway forwarding a Delivery, ${deliveries} deliveries per case, frames ≈ 1 KB; CPU of this process only`,
  );
  console.log(
    '| case | gateway µs/delivery | floor µs/delivery (NATS sub + raw uWS) | × floor | gateway µs per socket write |',
  );
  console.log('|---|---|---|---|---|');
  for (const k of CASES) {
    const roomId = `bench-${k.players}-${k.spectators}`;
    const seated = Array.from({ length: k.players }, (_, i) => `p${i}`);
    const watchers = Array.from({ length: k.spectators }, (_, i) => `s${i}`);
    // The worker's side of a join: a seq-0 frame for each viewer.
    const joins = bus.subscribe(subjects.roomJoin(roomId), (m) => {
      const j = JSON.parse(wireText(m.data));
      const role = !j.spectate && seated.includes(j.userId) ? 'player' : 'spectator';
      const frame = frameText(roomId, 0, role === 'player' ? j.userId : null, 200);
      m.respond!(JSON.stringify({ ok: true, role, seq: 0, owner: OWNER, frame }));
    });
    const users = await Promise.all([
      ...seated.map(async (id) => ({
        id,
        token: await signPlayerToken(DEV_JWT_SECRET, { sub: id, name: id }),
        spectate: false,
      })),
      ...watchers.map(async (id) => ({
        id,
        token: await signPlayerToken(DEV_JWT_SECRET, { sub: id, name: id }),
        spectate: true,
      })),
    ]);
    await ask(c, { t: 'open', set: 'gw', url: `ws://127.0.0.1:${gw.port}/ws`, roomId, users }, 'opened');
    await ask(c, { t: 'open', set: 'floor', url: `ws://127.0.0.1:${floorPort}/`, roomId: null, users }, 'opened');
    // The floor: the same delivery bytes over NATS, the same frame bytes to the same number of sockets.
    floorSpectators = k.players === 0;
    floorFrames = (k.players > 0 ? seated : [null]).map((id) => Buffer.from(frameText(roomId, 1, id, 1024)));
    const subject = contract.gatewayDeliver.at('gw-bench').subject;
    const sockets = k.players + k.spectators;
    // Alternating rounds, best of each: the first round warms the JIT, the best is the least disturbed.
    const viewers = k.players > 0 ? seated : [null];
    let gwUs = Infinity;
    let floorUs = Infinity;
    for (let round = 0; round < ROUNDS; round++) {
      // Each round goes on from the last seq: the gateway drops a frame older than the socket's last.
      const run = (set: string, subj: string) =>
        ask(
          c,
          { t: 'run', set, subject: subj, roomId, viewers, from: 1 + round * deliveries, count: deliveries },
          'ran',
        );
      gwUs = Math.min(gwUs, await cpuPer(deliveries, () => run('gw', subject)));
      floorUs = Math.min(floorUs, await cpuPer(deliveries, () => run('floor', 'floor')));
    }
    await ask(c, { t: 'closeAll' }, 'closed');
    joins.unsubscribe();
    console.log(
      `| ${k.name} | ${gwUs.toFixed(1)} | ${floorUs.toFixed(1)} | ${(gwUs / floorUs).toFixed(2)} | ${(gwUs / sockets).toFixed(2)} |`,
    );
  }
  c.kill();
  await gw.close();
  uws.us_listen_socket_close(floorListen);
  await bus.close();
}

if (process.argv[2] === 'child') await child(process.argv[3]);
else await main(Number(process.argv[2] ?? 3000));
