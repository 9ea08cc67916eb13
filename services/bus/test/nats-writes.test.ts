/**
 * NatsBus writes its outbound buffer once per event-loop turn (src/patches/nats-core.ts). That replaces a
 * method of the NATS client's internal protocol handler, so these tests are also the alarm for an
 * upgrade of @nats-io: if the shape changes, the bus falls back to the client's own writes and the
 * first two tests fail. Writes are counted on the client's transport (its `send`, one socket write
 * each), against the real server.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NatsConnection } from '@nats-io/transport-node';
import { NatsBus } from '../src/index.ts';
import { coalesceWrites, protocolInternals } from '@joke/patches';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const txt = (d: Uint8Array | string): string => (typeof d === 'string' ? d : Buffer.from(d).toString('utf8'));

/** Counts the socket writes of a connection from now on. */
function countWrites(nc: NatsConnection): { count: () => number } {
  const transport = (nc as unknown as { protocol: { transport: { send(frame: Uint8Array): void } } }).protocol
    .transport;
  const send = transport.send.bind(transport);
  let n = 0;
  transport.send = (frame) => {
    n++;
    send(frame);
  };
  return { count: () => n };
}

/** Resolves once `n` messages arrived on `subject` at `bus`, with their texts in arrival order. */
function receive(bus: NatsBus, subject: string, n: number): Promise<string[]> {
  return new Promise((resolve) => {
    const got: string[] = [];
    const sub = bus.subscribe(subject, (m) => {
      got.push(txt(m.data));
      if (got.length === n) {
        sub.unsubscribe();
        resolve(got);
      }
    });
  });
}

const upTo = (n: number) => Array.from({ length: n }, (_, i) => String(i));

describe('NatsBus writes per event-loop turn', () => {
  const prefix = `writes-${randomBytes(4).toString('hex')}`;
  let coalesced: NatsBus;
  let client: NatsBus;
  let receiver: NatsBus;
  beforeAll(async () => {
    coalesced = await NatsBus.connect(NATS_URL, { prefix, coalesceWrites: true });
    client = await NatsBus.connect(NATS_URL, { prefix, coalesceWrites: false });
    receiver = await NatsBus.connect(NATS_URL, { prefix });
  });
  afterAll(async () => {
    await Promise.all([coalesced.close(), client.close(), receiver.close()]);
  });

  it('finds the client internals it was written against (fails on an incompatible @nats-io upgrade)', () => {
    expect(protocolInternals(coalesced.nc)).toBeDefined();
    expect(coalesced.writesCoalesced).toBe(true);
    expect(client.writesCoalesced).toBe(false);
  });

  it("sends the messages of one turn in one write, where the client's own flush writes each", async () => {
    // Each publish after a microtask boundary, as from separate uWS callbacks or promise continuations.
    const burst = async (bus: NatsBus, subject: string) => {
      for (let i = 0; i < 20; i++) {
        bus.publish(subject, String(i));
        await Promise.resolve();
      }
    };
    const writesOf = async (bus: NatsBus, subject: string) => {
      const got = receive(receiver, subject, 20);
      await receiver.flush();
      await bus.flush();
      const writes = countWrites(bus.nc);
      await burst(bus, subject);
      expect(await got).toEqual(upTo(20));
      return writes.count();
    };
    const mine = await writesOf(coalesced, 'burst.coalesced');
    const theirs = await writesOf(client, 'burst.client');
    expect(theirs).toBeGreaterThanOrEqual(20);
    // 1, or 2 should the server's keep-alive PING be answered in the same window.
    expect(mine).toBeLessThanOrEqual(2);
  });

  it('with a write gap, writes the first message of a quiet spell at once and the next turns together after the gap', async () => {
    const gapped = await NatsBus.connect(NATS_URL, { prefix, coalesceWrites: true, writeGapMs: 2000 });
    try {
      const got = receive(receiver, 'gap', 6);
      await receiver.flush();
      await gapped.flush();
      const writes = countWrites(gapped.nc);
      const turn = () => new Promise<void>((r) => setImmediate(r));
      gapped.publish('gap', '0');
      await turn();
      expect(writes.count()).toBe(1);
      // The next five turns' messages wait out the gap and leave in one write.
      for (let i = 1; i < 6; i++) {
        gapped.publish('gap', String(i));
        await turn();
      }
      // (+1 allowed each for the client's keep-alive PING landing in the window; without the gap: 6.)
      expect(writes.count()).toBeLessThanOrEqual(2);
      expect(await got).toEqual(upTo(6));
      expect(writes.count()).toBeLessThanOrEqual(3);
    } finally {
      await gapped.close();
    }
  });

  it('writes at once past the pending limit, so one turn never holds more than ≈ 32 KB', async () => {
    const got = receive(receiver, 'big', 100);
    await receiver.flush();
    const writes = countWrites(coalesced.nc);
    const kb = 'x'.repeat(1024);
    for (let i = 0; i < 100; i++) coalesced.publish('big', `${i}:${kb}`);
    // Still inside the turn: 100 KB left in at least 3 writes of the 32 KB limit.
    expect(writes.count()).toBeGreaterThanOrEqual(3);
    expect((await got).map((s) => s.split(':')[0])).toEqual(upTo(100));
  });

  it('flush() writes what the turn has pending before it asks the server for a PONG', async () => {
    const writes = countWrites(coalesced.nc);
    coalesced.publish('flushed', 'a');
    const done = coalesced.flush();
    expect(writes.count()).toBe(1); // the PUB and the PING, in one write, synchronously
    await done;
  });

  it('close() and nc.close() send what the turn published before them', async () => {
    for (const how of ['bus', 'nc'] as const) {
      const bus = await NatsBus.connect(NATS_URL, { prefix, coalesceWrites: true });
      const got = receive(receiver, `closing.${how}`, 10);
      await receiver.flush();
      for (let i = 0; i < 10; i++) bus.publish(`closing.${how}`, String(i));
      await (how === 'bus' ? bus.close() : bus.nc.close());
      expect(await got).toEqual(upTo(10));
    }
  });

  it("leaves a client of another shape alone (the client's own writes)", () => {
    const p = (coalesced.nc as unknown as { protocol: object }).protocol;
    const shaped = (protocol: object) => ({ protocol }) as unknown as NatsConnection;
    expect(protocolInternals(shaped(Object.create(p)))).toBeDefined(); // the control: same shape, inherited
    for (const missing of ['outbound', 'pendingLimit', 'flushPending', 'sendCommand']) {
      const changed = shaped(Object.assign(Object.create(p), { [missing]: undefined }));
      expect(protocolInternals(changed), missing).toBeUndefined();
      expect(coalesceWrites(changed), missing).toBe(false);
    }
    const otherSend = shaped(Object.assign(Object.create(p), { sendCommand: (a: unknown, b: unknown) => [a, b] }));
    expect(protocolInternals(otherSend)).toBeUndefined();
    expect(protocolInternals({} as NatsConnection)).toBeUndefined();
  });
});
