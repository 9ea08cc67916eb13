/**
 * CPU of one bus request/reply, as the requester pays it: the NATS client's own `request()` against
 * NatsBus's reply inbox (nats-replies.ts), alternating rounds in one run, with the floor of the same
 * run — a bare publish + a plain subscription receiving it (PERFORMANCE.md's pub/sub row) — so the
 * figures compare on a shared box. The responder runs in a child process; only this process's CPU
 * (user + system) counts. 64 requests in flight, 1 KB each way.
 *
 *   node --import tsx services/bus/bench/request.ts [REQUESTS]
 *
 * Figures, not assertions.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { NatsBus } from '../src/nats.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const IN_FLIGHT = 64;
const ROUNDS = 5;
const body = new Uint8Array(1024).fill(120);

if (process.argv[2] === 'responder') {
  const bus = await NatsBus.connect(NATS_URL, { prefix: process.argv[3] });
  bus.subscribe('echo', (m) => m.respond?.(body));
  await bus.flush();
  process.send!('up');
} else {
  const n = Number(process.argv[2] ?? 20_000);
  const ns = `reqbench-${randomBytes(4).toString('hex')}`;
  const child = fork(fileURLToPath(import.meta.url), ['responder', ns], { execArgv: ['--import', 'tsx'] });
  await new Promise((r) => child.once('message', r));
  const bus = await NatsBus.connect(NATS_URL, { prefix: ns });

  const cpuPer = async (f: () => Promise<unknown>): Promise<number> => {
    const c0 = process.cpuUsage();
    let next = 0;
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next++ < n) await f();
      }),
    );
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / n;
  };
  const client = () => bus.nc.request(`${ns}.echo`, body, { timeout: 5000 });
  const inbox = () => bus.request('echo', body, 5000);
  // The floor: publish to ourselves and receive it, in the same windows of 64.
  const waiters: (() => void)[] = [];
  bus.subscribe('floor', () => waiters.shift()?.());
  const floor = () =>
    new Promise<void>((r) => {
      waiters.push(r);
      bus.publish('floor', body);
    });
  const best = { client: Infinity, inbox: Infinity, floor: Infinity };
  for (let round = 0; round < ROUNDS; round++) {
    best.client = Math.min(best.client, await cpuPer(client));
    best.inbox = Math.min(best.inbox, await cpuPer(inbox));
    best.floor = Math.min(best.floor, await cpuPer(floor));
  }
  console.log(
    `bus request/reply, ${n} requests per round, ${IN_FLIGHT} in flight, best of ${ROUNDS} rounds; requester CPU only`,
  );
  console.log('| path | µs CPU per request | × floor (publish + receive, same run) |');
  console.log('|---|---|---|');
  for (const [k, label] of [
    ['client', "NATS client's request()"],
    ['inbox', 'NatsBus reply inbox'],
    ['floor', 'floor: publish + receive'],
  ] as const)
    console.log(`| ${label} | ${best[k].toFixed(1)} | ${(best[k] / best.floor).toFixed(2)} |`);
  child.kill();
  await bus.close();
}
