/**
 * Reading and replaying a dead-letter stream (nats-durable.ts parks events there): what the `joke-streams`
 * command's `dead` and `replay` run with an admin user, and what tests check. Replay publishes each parked
 * event back on its subject (message id `replay:<dead-letter sequence>`, so a replay interrupted and run
 * again is dropped as a duplicate within the stream's window) and only then deletes it from the dead-letter
 * stream; an event that fails again is parked again with its new error.
 */
import { jetstreamManager, type JetStreamManager, type StoredMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { ParkedEvent } from './durable-policy.ts';
import { DEAD_HEADERS, deadLetterStream } from './nats-durable.ts';

export interface StoredParkedEvent extends ParkedEvent {
  /** Sequence in the dead-letter stream. */
  seq: number;
}

const parse = (m: StoredMsg): StoredParkedEvent => {
  const h = (k: string) => m.header?.get(k) ?? '';
  return {
    seq: m.seq,
    subject: h(DEAD_HEADERS.subject),
    durable: h(DEAD_HEADERS.durable),
    data: m.data,
    error: h(DEAD_HEADERS.error),
    code: h(DEAD_HEADERS.code),
    deliveries: Number(h(DEAD_HEADERS.deliveries)) || 0,
    permanent: h(DEAD_HEADERS.permanent) === 'true',
    at: h(DEAD_HEADERS.at),
  };
};

export class DeadLetters {
  private manager: Promise<JetStreamManager> | null = null;
  constructor(private readonly nc: NatsConnection) {}

  private jsm(): Promise<JetStreamManager> {
    this.manager ??= jetstreamManager(this.nc);
    return this.manager;
  }

  /** How many events are parked for `fullSubject` (0 when its dead-letter stream does not exist). */
  async count(fullSubject: string): Promise<number> {
    const jsm = await this.jsm();
    try {
      return (await jsm.streams.info(deadLetterStream(fullSubject))).state.messages;
    } catch (err) {
      if ((err as { name?: string }).name === 'StreamNotFoundError') return 0;
      throw err;
    }
  }

  /** The parked events of `fullSubject`, oldest first, at most `limit`. */
  async list(fullSubject: string, limit = 100): Promise<StoredParkedEvent[]> {
    const jsm = await this.jsm();
    const stream = deadLetterStream(fullSubject);
    const out: StoredParkedEvent[] = [];
    const { state } = await jsm.streams.info(stream);
    for (let seq = state.first_seq; seq <= state.last_seq && out.length < limit; seq++) {
      const m = await jsm.streams.getMessage(stream, { seq }).catch(() => null);
      if (m) out.push(parse(m));
    }
    return out;
  }

  /** Publishes up to `limit` parked events back on `fullSubject` and removes them from the dead letters. */
  async replay(fullSubject: string, limit = 1000): Promise<number> {
    const jsm = await this.jsm();
    const js = jsm.jetstream();
    let n = 0;
    for (const ev of await this.list(fullSubject, limit)) {
      await js.publish(fullSubject, ev.data, { msgID: `replay:${ev.seq}` });
      await jsm.streams.deleteMessage(deadLetterStream(fullSubject), ev.seq, false);
      n++;
    }
    return n;
  }
}
