/**
 * Socket writes and CPU per published message: the NATS client's own flush (one write per microtask
 * checkpoint) against NatsBus's per-turn flush (src/patches/nats-core.ts), alternating rounds in one run.
 *
 * Each message is published from its own `setImmediate` callback, BURST of them per event-loop turn:
 * like the gateway's uWS message callbacks (one client action → one bus request each, with a microtask
 * checkpoint after each callback). BURST=1 is the idle gateway (nothing to coalesce: what the
 * immediate costs), larger bursts a busier poll phase. Writes are counted on the client's transport
 * (one `socket.write` each) with their mean size; CPU is this process's user + system. Nobody
 * subscribes: the server drops the messages, so only the publisher's side is measured.
 *
 *   node --import tsx services/bus/bench/publish-burst.ts [MESSAGES] [BURSTS] [MODES]
 *
 * BURSTS defaults to 1,4,16,64; MODES to client,coalesced (one of them alone, for
 * `strace -c -f -e trace=write,writev` to count the syscalls of that mode by itself).
 * Figures, not assertions.
 */
import { randomBytes } from 'node:crypto';
import type { NatsConnection } from '@nats-io/transport-node';
import { NatsBus } from '../src/nats.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const ROUNDS = 5;
/** About a gateway's `room.<id>.cmd` request: an action and its envelope. */
const body = new Uint8Array(160).fill(120);
const n = Number(process.argv[2] ?? 50_000);
const bursts = (process.argv[3] ?? '1,4,16,64').split(',').map(Number);
const modes = (process.argv[4] ?? 'client,coalesced').split(',') as ('client' | 'coalesced')[];

interface Transport {
  send(frame: Uint8Array): void;
}
/** nats.js's socket transport (an internal: `nc.protocol.transport`), checked for the one method spied on. */
function transportOf(nc: NatsConnection): Transport {
  const protocol = 'protocol' in nc ? nc.protocol : undefined;
  const t = typeof protocol === 'object' && protocol !== null && 'transport' in protocol ? protocol.transport : null;
  if (!isTransport(t)) throw new Error('nats.js internals changed: no protocol.transport.send to count writes on');
  return t;
}
const isTransport = (t: unknown): t is Transport =>
  typeof t === 'object' && t !== null && 'send' in t && typeof t.send === 'function';

/** Counts the socket writes and bytes of a connection (the transport's `send`: one `socket.write`). */
function writeSpy(nc: NatsConnection) {
  const transport = transportOf(nc);
  const send = transport.send.bind(transport);
  const spy = { writes: 0, bytes: 0 };
  transport.send = (frame) => {
    spy.writes++;
    spy.bytes += frame.length;
    send(frame);
  };
  return spy;
}

const ns = `burstbench-${randomBytes(4).toString('hex')}`;
const buses = {
  client: await NatsBus.connect(NATS_URL, { prefix: ns, coalesceWrites: false }),
  coalesced: await NatsBus.connect(NATS_URL, { prefix: ns, coalesceWrites: true }),
};
if (!buses.coalesced.writesCoalesced) throw new Error('the client internals changed: nothing to compare');
const spies = { client: writeSpy(buses.client.nc), coalesced: writeSpy(buses.coalesced.nc) };

/** One turn: `burst` immediates, one publish each; resolves in the last one's microtask checkpoint. */
const turn = (bus: NatsBus, burst: number) =>
  new Promise<void>((resolve) => {
    let left = burst;
    for (let i = 0; i < burst; i++)
      setImmediate(() => {
        bus.publish('cmd', body);
        if (--left === 0) resolve();
      });
  });

async function round(mode: 'client' | 'coalesced', burst: number) {
  const bus = buses[mode];
  const spy = spies[mode];
  await bus.flush();
  const w0 = spy.writes;
  const b0 = spy.bytes;
  const c0 = process.cpuUsage();
  for (let sent = 0, t = 0; sent < n; sent += burst, t++) {
    await turn(bus, burst);
    // A PING round trip now and then, so the socket's buffer cannot grow without bound (same in both modes).
    if (t % 256 === 255) await bus.flush();
  }
  await bus.flush();
  const c = process.cpuUsage(c0);
  const writes = spy.writes - w0;
  return { us: (c.user + c.system) / n, perMsg: writes / n, bytesPerWrite: (spy.bytes - b0) / writes };
}

console.log(
  `NATS publish, ${n} messages of ${body.length} B per round, BURST publishes per turn from separate immediates, best CPU of ${ROUNDS} rounds (writes of that round)`,
);
console.log("| burst | mode | writes per message | bytes per write | µs CPU per message | × client's |");
console.log('|---|---|---|---|---|---|');
for (const burst of bursts) {
  const best: Record<string, Awaited<ReturnType<typeof round>>> = {};
  for (let r = 0; r < ROUNDS; r++)
    for (const mode of r % 2 ? [...modes].reverse() : modes) {
      const res = await round(mode, burst);
      if (!best[mode] || res.us < best[mode].us) best[mode] = res;
    }
  for (const mode of modes) {
    const b = best[mode];
    const ratio = best.client ? (b.us / best.client.us).toFixed(2) : '–';
    console.log(
      `| ${burst} | ${mode} | ${b.perMsg.toFixed(3)} | ${b.bytesPerWrite.toFixed(0)} | ${b.us.toFixed(2)} | ${ratio} |`,
    );
  }
}
await Promise.all([buses.client.close(), buses.coalesced.close()]);
