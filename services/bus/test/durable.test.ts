/**
 * Durable events, on the in-process bus and on the real NATS (JetStream on
 * 127.0.0.1:4222): stored before any consumer exists, acknowledged only when
 * the handler resolves (a rejection is delivered again), a repeated id dropped,
 * and one consumer name shared by several processes gets each event once.
 */
import { randomBytes } from 'node:crypto';
import { jetstreamManager } from '@nats-io/jetstream';
import { afterAll, describe, expect, it } from 'vitest';
import { InProcessBus, NatsBus, type Bus } from '../src/index.ts';

const NATS_URL = process.env.NATS_URL || 'nats://127.0.0.1:4222';
const text = (d: string | Uint8Array) => (typeof d === 'string' ? d : new TextDecoder().decode(d));

async function until(ok: () => boolean, what: string, timeoutMs = 20_000) {
  for (const end = Date.now() + timeoutMs; !ok();) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function durableContract(name: string, make: () => Promise<{ a: Bus; b: Bus }>) {
  describe(name, () => {
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

const quiet = { onHandlerError: () => {} };
const inProcess = new InProcessBus(quiet);
durableContract('InProcessBus', async () => ({ a: inProcess, b: inProcess }));

const prefix = `durable_${randomBytes(4).toString('hex')}`;
const nats: NatsBus[] = [];
durableContract('NatsBus (JetStream)', async () => {
  if (nats.length === 0) for (let i = 0; i < 2; i++) nats.push(await NatsBus.connect(NATS_URL, { prefix, ...quiet }));
  return { a: nats[0], b: nats[1] };
});

afterAll(async () => {
  await inProcess.close();
  if (nats.length === 0) return;
  // Streams are per subject: remove this run's from the shared server.
  expect(await nats[0].removeDurableStreams()).toBe(2);
  const jsm = await jetstreamManager(nats[0].nc);
  for await (const s of jsm.streams.list()) expect(s.config.name.startsWith(`EV_${prefix}`)).toBe(false);
  for (const b of nats) await b.close();
});
