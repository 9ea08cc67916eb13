/**
 * Durable events, on the in-process bus and on the real NATS (JetStream on
 * 127.0.0.1:4222): stored before any consumer exists, acknowledged only when
 * the handler resolves (a rejection is delivered again), a repeated id dropped,
 * and one consumer name shared by several processes gets each event once.
 * Deliveries are bounded alike on both (issue 36): an event refused past the budget, or at once with a
 * permanent error, is parked with its error and reported, and the events after it are handled.
 */
import { randomBytes } from 'node:crypto';
import { AckPolicy, jetstreamManager } from '@nats-io/jetstream';
import { afterAll, describe, expect, it } from 'vitest';
import { deadLetterStream, InProcessBus, NatsBus, streamName, type Bus, type ParkedEvent } from '../src/index.ts';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const text = (d: string | Uint8Array) => (typeof d === 'string' ? d : new TextDecoder().decode(d));

async function until(ok: () => boolean, what: string, timeoutMs = 20_000) {
  for (const end = Date.now() + timeoutMs; !ok();) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Short delays so the budget is spent in a test; the shape (bounded, then parked) is the production one. */
const policy = { maxDeliveries: 3, retryDelaysMs: [20, 50] };

function durableContract(
  name: string,
  make: () => Promise<{ a: Bus; b: Bus }>,
  parkedCount: (b: Bus, subject: string) => Promise<number>,
) {
  describe(name, () => {
    it('parks an event refused past the budget or permanently, with its error; the others are handled', async () => {
      const { a, b } = await make();
      const subject = `ev.${randomBytes(3).toString('hex')}`;
      const tries = new Map<string, number>();
      const handled: string[] = [];
      const parked: ParkedEvent[] = [];
      const sub = await b.consumeDurable!(
        subject,
        'c1',
        async (d) => {
          const t = text(d);
          const n = (tries.get(t) ?? 0) + 1;
          tries.set(t, n);
          if (t === 'flaky' && n < 3) throw new Error('database down');
          if (t === 'poison') throw new Error('always refused');
          if (t === 'unstorable') throw Object.assign(new Error('bad bytes'), { permanent: true, code: 'BAD' });
          handled.push(t);
        },
        { onParked: (p) => parked.push(p) },
      );
      for (const t of ['poison', 'unstorable', 'flaky', 'good']) await a.publishDurable!(subject, t, t);
      await until(
        () => parked.length === 2 && handled.length === 2,
        `two handled, two parked: ${JSON.stringify({ handled, parked: parked.map((p) => p.code), tries: [...tries] })}`,
      );
      // The flaky one is handled at its third delivery, within the budget: a transient failure parks nothing.
      expect(handled.sort()).toEqual(['flaky', 'good']);
      expect(tries.get('flaky')).toBe(3);
      const byData = Object.fromEntries(parked.map((p) => [text(p.data), p]));
      expect(byData.poison).toMatchObject({ error: 'always refused', code: 'Error', deliveries: 3, permanent: false });
      expect(byData.unstorable).toMatchObject({ error: 'bad bytes', code: 'BAD', deliveries: 1, permanent: true });
      expect(byData.poison.durable).toBe('c1');
      expect(byData.poison.subject.endsWith(subject)).toBe(true);
      expect(tries.get('poison')).toBe(3);
      expect(await parkedCount(b, subject)).toBe(2);
      sub.unsubscribe();
    });

    it('keeps events until a consumer comes, redelivers a failed one, drops a repeated id', async () => {
      const { a, b } = await make();
      const subject = `ev.${randomBytes(3).toString('hex')}`;
      await a.publishDurable!(subject, 'e1', 'id1');
      await a.publishDurable!(subject, 'e2', 'id2');
      await a.publishDurable!(subject, 'e1 again', 'id1'); // a producer retry: dropped
      const seen: string[] = [];
      let failedOnce = false;
      const sub = await b.consumeDurable!(subject, 'c1', async (d) => {
        const t = text(d);
        seen.push(t);
        if (t === 'e2' && !failedOnce) {
          failedOnce = true;
          throw new Error('database down');
        }
      });
      await until(() => seen.filter((t) => t === 'e2').length === 2, 'e2 redelivered');
      expect(seen.filter((t) => t === 'e1')).toEqual(['e1']);
      expect(seen).not.toContain('e1 again');
      sub.unsubscribe();
    });

    it('one durable name shared by two consumers gets each event once', async () => {
      const { a, b } = await make();
      const subject = `ev.${randomBytes(3).toString('hex')}`;
      const got: string[] = [];
      const subs = [
        await a.consumeDurable!(subject, 'shared', async (d) => void got.push(text(d))),
        await b.consumeDurable!(subject, 'shared', async (d) => void got.push(text(d))),
      ];
      for (let i = 0; i < 20; i++) await a.publishDurable!(subject, `m${i}`, `m${i}`);
      await until(() => got.length >= 20, 'all events');
      expect([...got].sort()).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`).sort());
      for (const s of subs) s.unsubscribe();
    });
  });
}

const quiet = { onHandlerError: () => {}, deliveryPolicy: policy };
const inProcess = new InProcessBus(quiet);
durableContract(
  'InProcessBus',
  async () => ({ a: inProcess, b: inProcess }),
  async (b, subject) => (b as InProcessBus).parkedEvents(subject).length,
);

const prefix = `durable_${randomBytes(4).toString('hex')}`;
const nats: NatsBus[] = [];
durableContract(
  'NatsBus (JetStream)',
  async () => {
    if (nats.length === 0) for (let i = 0; i < 2; i++) nats.push(await NatsBus.connect(NATS_URL, { prefix, ...quiet }));
    return { a: nats[0], b: nats[1] };
  },
  (b, subject) => (b as NatsBus).deadLetters(subject).count(),
);

describe('NatsBus ensureDurable (joke-streams)', () => {
  it('brings a consumer of an older release (unbounded deliveries) to the delivery policy, in place', async () => {
    if (nats.length === 0) for (let i = 0; i < 2; i++) nats.push(await NatsBus.connect(NATS_URL, { prefix, ...quiet }));
    const subject = `ev.${randomBytes(3).toString('hex')}`;
    const full = `${prefix}.${subject}`;
    const jsm = await jetstreamManager(nats[0].nc);
    const stream = streamName(full);
    await jsm.streams.add({ name: stream, subjects: [full] });
    await jsm.consumers.add(stream, { durable_name: 'old', ack_policy: AckPolicy.Explicit, filter_subject: full });
    expect((await jsm.consumers.info(stream, 'old')).config.max_deliver).toBe(-1);
    await nats[0].ensureDurable(subject, 'old');
    expect((await jsm.consumers.info(stream, 'old')).config.max_deliver).toBe(policy.maxDeliveries + 1);
    expect((await jsm.streams.info(deadLetterStream(full))).config.subjects).toEqual([`dead.${full}`]);
  });
});

afterAll(async () => {
  await inProcess.close();
  if (nats.length === 0) return;
  // Streams are per subject, each with its dead-letter stream: remove this run's from the shared server.
  expect(await nats[0].removeDurableStreams()).toBe(8);
  const jsm = await jetstreamManager(nats[0].nc);
  for await (const s of jsm.streams.list()) expect(s.config.name.startsWith(`EV_${prefix}`)).toBe(false);
  for (const b of nats) await b.close();
});
