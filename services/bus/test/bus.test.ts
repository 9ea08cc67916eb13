/**
 * One behaviour suite for both buses: the services are written against the
 * Bus interface, so the in-process bus must behave like NATS in every way
 * they rely on. The NATS run uses the real server with a unique subject prefix.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BusNoRespondersError,
  BusTimeoutError,
  InProcessBus,
  NatsBus,
  SubjectFamily,
  createBus,
  type Bus,
  type BusMessage,
  type Wire,
} from '../src/index.ts';
import { FakeClock } from '../src/clock.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
/** NATS hands out bytes, the in-process bus what was published: compare as text. */
const txt = (d: Wire): string => (typeof d === 'string' ? d : Buffer.from(d).toString('utf8'));
const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));
/** The server has every subscription of these connections (NATS: a PING round trip each; in-process: at once). */
const ready = async (...buses: Bus[]) => {
  for (const bus of new Set(buses)) await (bus.flush?.() ?? tick());
};
/** Waits for a condition, not a duration: a loaded box delivers late, never out of order. */
async function until(what: string, cond: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await tick(5);
  }
}

function contract(name: string, make: () => Promise<[Bus, Bus]>) {
  describe(name, () => {
    let a: Bus;
    let b: Bus;
    beforeAll(async () => {
      [a, b] = await make();
    });
    afterAll(async () => {
      await a.close();
      if (b !== a) await b.close();
    });

    it('delivers to every plain subscriber, asynchronously and in publish order', async () => {
      const got1: string[] = [];
      const got2: string[] = [];
      const s1 = b.subscribe('order', (m) => got1.push(txt(m.data)));
      const s2 = b.subscribe('order', (m) => got2.push(txt(m.data)));
      await ready(a, b);
      for (let i = 0; i < 50; i++) a.publish('order', String(i));
      expect(got1).toEqual([]); // never delivered inside publish
      await until('50 messages on both', () => got1.length >= 50 && got2.length >= 50);
      const want = Array.from({ length: 50 }, (_, i) => String(i));
      expect(got1).toEqual(want);
      expect(got2).toEqual(want);
      s1.unsubscribe();
      s2.unsubscribe();
    });

    it('gives each queue group one copy, spread over its members, next to plain subscribers', async () => {
      const counts = [0, 0, 0];
      let plain = 0;
      const subs = [
        b.subscribe('work', () => counts[0]++, { queue: 'g' }),
        b.subscribe('work', () => counts[1]++, { queue: 'g' }),
        a.subscribe('work', () => counts[2]++, { queue: 'g' }),
        a.subscribe('work', () => plain++),
      ];
      await ready(a, b);
      for (let i = 0; i < 90; i++) a.publish('work', 'x');
      await until('90 deliveries', () => counts[0] + counts[1] + counts[2] >= 90 && plain >= 90);
      // One more round trip to each: a duplicate delivery would have arrived by now.
      await ready(a, b);
      expect(counts[0] + counts[1] + counts[2]).toBe(90);
      expect(counts.filter((c) => c > 0).length).toBeGreaterThan(1);
      expect(plain).toBe(90);
      for (const s of subs) s.unsubscribe();
    });

    it('answers a request with the first reply and drops later ones', async () => {
      const s1 = b.subscribe('echo', (m) => m.respond?.(`first:${txt(m.data)}`));
      await ready(b);
      const s2 = b.subscribe('echo', (m) => setTimeout(() => m.respond?.(`late:${txt(m.data)}`), 30));
      await ready(b);
      expect(txt(await a.request('echo', 'hi', 1000))).toBe('first:hi');
      s1.unsubscribe();
      s2.unsubscribe();
    });

    it('hands a reply to `arrived` before any message the responder sent after it', async () => {
      const order: string[] = [];
      const s1 = b.subscribe('ask', (m) => {
        m.respond?.(`re:${txt(m.data)}`);
        b.publish('after', txt(m.data));
      });
      const s2 = a.subscribe('after', (m) => order.push(`after:${txt(m.data)}`));
      await ready(a, b);
      // Twenty rounds: the reply and the next message usually share one socket read, where only
      // a synchronous hook (not the promise's continuation) comes before the second message.
      for (let i = 0; i < 20; i++) {
        const reply = await a.request('ask', String(i), 2000, (d) => order.push(`arrived:${txt(d)}`));
        expect(txt(reply)).toBe(`re:${i}`);
      }
      await until('every message after', () => order.filter((o) => o.startsWith('after')).length === 20);
      for (let i = 0; i < 20; i++) expect(order.indexOf(`arrived:re:${i}`)).toBeLessThan(order.indexOf(`after:${i}`));
      s1.unsubscribe();
      s2.unsubscribe();
    });

    it('shows a reply that comes after the timeout to `arrived` once, while the request has failed', async () => {
      let answer: (() => void) | undefined;
      const s1 = b.subscribe('slow', (m) => {
        answer = () => {
          m.respond?.('late');
          m.respond?.('again');
        };
      });
      await ready(a, b);
      const seen: string[] = [];
      const err = await a.request('slow', 'x', 50, (d) => seen.push(txt(d))).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BusTimeoutError);
      await until('the request at the responder', () => answer !== undefined);
      answer!();
      await until('the late reply', () => seen.length > 0);
      await ready(a, b);
      expect(seen).toEqual(['late']);
      s1.unsubscribe();
    });

    it('fails at once with BusTimeoutError when nobody listens (no responders)', async () => {
      const t0 = Date.now();
      const err = await a.request('nobody-here', 'x', 5000).catch((e: unknown) => e);
      expect(Date.now() - t0).toBeLessThan(4000); // well short of the 5 s timeout, with room for a loaded machine
      // Told apart from a plain timeout (failover detection relies on it), and still a BusTimeoutError.
      expect(err).toBeInstanceOf(BusNoRespondersError);
      expect(err).toBeInstanceOf(BusTimeoutError);
    });

    it('fails with BusTimeoutError after the timeout when the listener never answers', async () => {
      const s = b.subscribe('silent', () => {});
      await ready(b);
      const t0 = Date.now();
      const err = await a.request('silent', 'x', 150).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BusTimeoutError);
      expect(err).not.toBeInstanceOf(BusNoRespondersError);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
      s.unsubscribe();
    });

    it('times out each request at its own length, mixed lengths, while answered ones in between resolve', async () => {
      const s = b.subscribe('mixed', (m) => {
        if (txt(m.data) === 'answer') m.respond?.('ok');
      });
      await ready(b);
      const t0 = Date.now();
      const ended: string[] = [];
      const ask = (body: string, ms: number) =>
        a.request('mixed', body, ms).then(
          (r) => void ended.push(`${body}:${txt(r)}`),
          (e: unknown) => void ended.push(`${body}:${e instanceof BusTimeoutError ? 'timeout' : String(e)}`),
        );
      // The long one is asked first: the short one behind it must still time out first.
      const long = ask('long', 600);
      const short = ask('short', 150);
      const answered = ask('answer', 600);
      await short;
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
      await Promise.all([long, answered]);
      expect(Date.now() - t0).toBeGreaterThanOrEqual(590);
      // The answer's round trip may take longer than 150 ms on a loaded box (it did at load 25): only the two
      // timeouts' order is the point.
      expect([...ended].sort()).toEqual(['answer:ok', 'long:timeout', 'short:timeout']);
      expect(ended.indexOf('short:timeout')).toBeLessThan(ended.indexOf('long:timeout'));
      s.unsubscribe();
    });

    it('a subscription is reachable from another connection as soon as flush resolves', async () => {
      for (let i = 0; i < 20; i++) {
        const s = b.subscribe(`fresh.${i}`, (m) => m.respond?.('here'));
        await b.flush!();
        expect(txt(await a.request(`fresh.${i}`, 'x', 1000))).toBe('here');
        s.unsubscribe();
      }
    });

    it('stops delivering after unsubscribe, even what was published just before', async () => {
      const got: string[] = [];
      const s = b.subscribe('gone', (m) => got.push(txt(m.data)));
      let marked = false;
      const marker = b.subscribe('gone-marker', () => (marked = true));
      await ready(b);
      a.publish('gone', '1');
      await until('the first message', () => got.length > 0);
      s.unsubscribe();
      a.publish('gone', '2');
      // Published after '2' from the same connection to the same one: had '2' been delivered, it came first.
      a.publish('gone-marker', 'x');
      await until('the marker', () => marked);
      expect(got).toEqual(['1']);
      marker.unsubscribe();
    });

    it('keeps delivering when one handler throws', async () => {
      const got: string[] = [];
      const s1 = b.subscribe('boom', () => {
        throw new Error('handler bug');
      });
      const s2 = b.subscribe('boom', (m) => got.push(txt(m.data)));
      await ready(b);
      a.publish('boom', '1');
      a.publish('boom', '2');
      await until('both messages', () => got.length >= 2);
      expect(got).toEqual(['1', '2']);
      s1.unsubscribe();
      s2.unsubscribe();
    });

    it('a last-token wildcard gets every subject of its stem, each with the subject it was sent to', async () => {
      const got: string[] = [];
      const s = b.subscribe('wild.r1.*', (m) => {
        got.push(`${m.subject}=${txt(m.data)}`);
        m.respond?.(`re:${m.subject}`);
      });
      await ready(b);
      a.publish('wild.r1.cmd', '1');
      a.publish('wild.r2.cmd', 'other room');
      a.publish('wild.r1.cmd.deeper', 'two tokens more');
      a.publish('wild.r1.presence', '2');
      expect(txt(await a.request('wild.r1.join', '3', 5000))).toBe('re:wild.r1.join');
      await until('three messages', () => got.length >= 3);
      expect(got).toEqual(['wild.r1.cmd=1', 'wild.r1.presence=2', 'wild.r1.join=3']);
      s.unsubscribe();
      await ready(b);
      await expect(a.request('wild.r1.join', 'x', 5000)).rejects.toBeInstanceOf(BusNoRespondersError);
    });

    it('a SubjectFamily serves several subjects of one stem over one subscription, each to its own handler', async () => {
      const seen: Array<[string, string]> = [];
      const subscribed: string[] = [];
      // Counts the bus subscriptions the family opens.
      const counting: Bus = Object.assign(Object.create(b) as Bus, {
        subscribe: (subject: string, h: (m: BusMessage) => void, o?: { queue?: string }) => {
          subscribed.push(subject);
          return b.subscribe(subject, h, o);
        },
      });
      const family = new SubjectFamily(counting);
      const cmd = family.subscribe('fam.r1.cmd', (m) => m.respond?.(`cmd:${txt(m.data)}`));
      const presence = family.subscribe('fam.r1.presence', (m) => seen.push(['presence', txt(m.data)]));
      const join = family.subscribe('fam.r1.join', (m) => m.respond?.(`join:${txt(m.data)}`));
      expect(subscribed).toEqual(['fam.r1.*']);
      expect(() => family.subscribe('fam.r2.cmd', () => {})).toThrow(/not in the family/);
      expect(() => family.subscribe('fam.r1.cmd', () => {})).toThrow(/twice/);
      expect(() => family.subscribe('fam.r1.chat', () => {}, { queue: 'q' })).toThrow(/queue/);
      await ready(b);
      expect(txt(await a.request('fam.r1.cmd', 'a', 5000))).toBe('cmd:a');
      expect(txt(await a.request('fam.r1.join', 'b', 5000))).toBe('join:b');
      a.publish('fam.r1.presence', 'c');
      // Nobody in the family serves `chat`: dropped, as a subject without subscribers is.
      a.publish('fam.r1.chat', 'dropped');
      a.publish('fam.r1.presence', 'd');
      await until('two presence messages', () => seen.length >= 2);
      expect(seen).toEqual([
        ['presence', 'c'],
        ['presence', 'd'],
      ]);
      // The bus subscription lives as long as one member does.
      cmd.unsubscribe();
      presence.unsubscribe();
      expect(family.served).toEqual(['fam.r1.join']);
      expect(txt(await a.request('fam.r1.join', 'e', 5000))).toBe('join:e');
      join.unsubscribe();
      join.unsubscribe();
      await ready(b);
      await expect(a.request('fam.r1.join', 'f', 5000)).rejects.toBeInstanceOf(BusNoRespondersError);
      // Subscribing again opens a new bus subscription.
      const again = family.subscribe('fam.r1.cmd', (m) => m.respond?.('again'));
      expect(subscribed).toEqual(['fam.r1.*', 'fam.r1.*']);
      await ready(b);
      expect(txt(await a.request('fam.r1.cmd', 'g', 5000))).toBe('again');
      again.unsubscribe();
    });
  });
}

const quiet = { onHandlerError: () => {} };

contract('InProcessBus', async () => {
  const bus = new InProcessBus(quiet);
  return [bus, bus];
});

contract('NatsBus (real nats-server)', async () => {
  const prefix = `t${randomBytes(6).toString('hex')}`;
  return [await NatsBus.connect(NATS_URL, { prefix, ...quiet }), await NatsBus.connect(NATS_URL, { prefix, ...quiet })];
});

describe('bus isolation and lifecycle', () => {
  it('two NATS prefixes never see each other', async () => {
    const x = await NatsBus.connect(NATS_URL, { prefix: `t${randomBytes(6).toString('hex')}` });
    const y = await NatsBus.connect(NATS_URL, { prefix: `t${randomBytes(6).toString('hex')}` });
    const got: string[] = [];
    y.subscribe('same', (m) => got.push(txt(m.data)));
    let marked = false;
    y.subscribe('marker', () => (marked = true));
    await ready(y);
    x.publish('same', 'leak?');
    // The same publish under y's own prefix, after x's: it arrives after x's would have.
    await ready(x);
    y.publish('marker', 'x');
    await until('the marker', () => marked);
    await expect(x.request('same', 'q', 500)).rejects.toBeInstanceOf(BusTimeoutError);
    expect(got).toEqual([]);
    await x.close();
    await y.close();
  });

  it('an InProcessBus on a fake clock times a request out when the test moves time, not before', async () => {
    const clock = new FakeClock();
    const bus = new InProcessBus({ clock });
    const asked: BusMessage[] = [];
    bus.subscribe('slow', (m) => void asked.push(m));
    let ended: unknown = null;
    const req = bus.request('slow', 'q', 2_000).catch((e: unknown) => (ended = e));
    await until('the request at its listener', () => asked.length === 1);
    await clock.advance(1_999);
    expect(ended).toBeNull();
    // Settled within the advance (its promise turns), no real time waited.
    await clock.advance(1);
    expect(ended).toBeInstanceOf(BusTimeoutError);
    await req;
    await bus.close();
  });

  it('InProcessBus.close delivers what was published, then refuses new work', async () => {
    const bus = new InProcessBus();
    const got: string[] = [];
    bus.subscribe('s', (m) => got.push(txt(m.data)));
    bus.publish('s', '1');
    await bus.close();
    expect(got).toEqual(['1']);
    expect(() => bus.publish('s', '2')).toThrow();
  });

  it('createBus picks the in-process bus without a NATS URL and NATS with one', async () => {
    const mem = await createBus({ natsUrl: '' });
    expect(mem).toBeInstanceOf(InProcessBus);
    await mem.close();
    const nats = await createBus({ natsUrl: NATS_URL, namespace: `t${randomBytes(4).toString('hex')}` });
    expect(nats).toBeInstanceOf(NatsBus);
    await nats.close();
  });
});
