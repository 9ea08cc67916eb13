/**
 * The request inbox's deadline queues hold a request while it waits and not a moment longer: an
 * answered request used to stay queued (marked done) until its timeout's length had passed, which
 * kept every request of the last 2 s reachable — its promise, closures and reply bytes. Real NATS.
 */
import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BusTimeoutError } from '../src/index.ts';
import { ReplyInbox } from '../src/nats-replies.ts';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const subject = (name: string) => `test.replies.${randomBytes(4).toString('hex')}.${name}`;
const bytes = (s: string) => new TextEncoder().encode(s);

describe('ReplyInbox', () => {
  let nc: NatsConnection;
  let inbox: ReplyInbox;
  beforeAll(async () => {
    nc = await connect({ servers: NATS_URL });
    inbox = new ReplyInbox(nc);
  });
  afterAll(async () => {
    inbox.endAll();
    await nc.close();
  });

  it('holds an answered request no longer than its answer, at every timeout length', async () => {
    const echo = subject('echo');
    nc.subscribe(echo, { callback: (_e, m) => void m.respond(m.data) });
    await nc.flush();
    const asked = Array.from({ length: 60 }, (_, i) => inbox.request(echo, 'echo', bytes(`q${i}`), 5000 + (i % 3)));
    expect(inbox.held()).toBe(60);
    const answers = await Promise.all(asked);
    expect(answers.map((a) => Buffer.from(a).toString('utf8'))).toEqual(asked.map((_, i) => `q${i}`));
    expect(inbox.held()).toBe(0);
  });

  it('holds a request nobody answers until its timeout, then lets it go', async () => {
    const silent = subject('silent');
    nc.subscribe(silent, { callback: () => {} });
    const echo = subject('echo2');
    nc.subscribe(echo, { callback: (_e, m) => void m.respond(m.data) });
    await nc.flush();
    // 3 s: answering the two below took 0.7 s in a clean-clone suite on a loaded box, past the 0.3 s
    // this timeout first was, and the unanswered request had rightly gone by the first check.
    const unanswered = inbox.request(silent, 'silent', bytes('?'), 3000);
    // Answered ones before and after it in the same queue leave it; the unanswered one stays.
    await inbox.request(echo, 'echo2', bytes('a'), 3000);
    const later = inbox.request(echo, 'echo2', bytes('b'), 3000);
    await later;
    expect(inbox.held()).toBe(1);
    await expect(unanswered).rejects.toBeInstanceOf(BusTimeoutError);
    expect(inbox.held()).toBe(0);
  });
});
