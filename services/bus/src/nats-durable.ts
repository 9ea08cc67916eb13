/**
 * Durable events over JetStream, for the few facts that must not be lost
 * (a game result): one stream per durable subject (file storage, replicated
 * on a NATS cluster), published with a message id so a producer's retries are
 * dropped as duplicates, and consumed by durable pull consumers that ack only
 * after the handler resolved. Debian's nats-server 2.9 has no multi-filter
 * consumers, so each subject gets its own stream and each consumer one filter.
 */
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { BusSubscription, Wire } from './types.ts';

export interface DurableOptions {
  /** Stream replicas (3 on a 3-node NATS cluster; 1 on a single server). */
  replicas: number;
  /** How long the stream keeps an event nobody acknowledged (a consumer down for days). */
  maxAgeMs: number;
  onHandlerError: (err: unknown, subject: string) => void;
}

/**
 * JetStream calls that time out on a cluster busy electing a stream leader (or on a loaded box) are
 * retried: each is idempotent here — a publish carries its message id (a stored copy makes the retry a
 * duplicate the stream drops), adding a stream or consumer with the same config is a no-op.
 */
async function retryingTimeouts<T>(call: () => Promise<T>, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await call();
    } catch (err) {
      const name = (err as { name?: string; cause?: { name?: string } }).name;
      const cause = (err as { cause?: { name?: string } }).cause?.name;
      const transient = name === 'TimeoutError' || cause === 'TimeoutError' || cause === 'NoRespondersError';
      if (!transient || i >= attempts) throw err;
    }
  }
}

/** Stream names allow letters, digits, _ and - only. */
const streamName = (fullSubject: string) => `EV_${fullSubject.replace(/[^A-Za-z0-9_-]/g, '_')}`;
const NANOS_PER_MS = 1_000_000;

export class JetStreamEvents {
  private manager: Promise<JetStreamManager> | null = null;
  private readonly streams = new Map<string, Promise<string>>();
  private readonly js;

  constructor(
    private readonly nc: NatsConnection,
    private readonly opts: DurableOptions,
  ) {
    this.js = jetstream(nc);
  }

  private jsm(): Promise<JetStreamManager> {
    this.manager ??= jetstreamManager(this.nc).catch((err: unknown) => {
      this.manager = null;
      throw err;
    });
    return this.manager;
  }

  /** Creates the subject's stream once (adding an existing stream with the same config is a no-op). */
  private stream(fullSubject: string): Promise<string> {
    let s = this.streams.get(fullSubject);
    if (!s) {
      const name = streamName(fullSubject);
      s = this.jsm()
        .then((jsm) =>
          retryingTimeouts(() =>
            jsm.streams.add({
              name,
              subjects: [fullSubject],
              num_replicas: this.opts.replicas,
              max_age: this.opts.maxAgeMs * NANOS_PER_MS,
              duplicate_window: 2 * 60_000 * NANOS_PER_MS,
            }),
          ),
        )
        .then(() => name)
        .catch((err: unknown) => {
          this.streams.delete(fullSubject);
          throw err;
        });
      this.streams.set(fullSubject, s);
    }
    return s;
  }

  /** Deletes every durable-event stream under `fullPrefix` (tests on a shared server clean up their own). */
  async removeStreams(fullPrefix: string): Promise<number> {
    const jsm = await this.jsm();
    const start = streamName(fullPrefix);
    const names: string[] = [];
    for await (const s of jsm.streams.list()) if (s.config.name.startsWith(start)) names.push(s.config.name);
    for (const name of names) await jsm.streams.delete(name);
    this.streams.clear();
    return names.length;
  }

  async publish(fullSubject: string, data: Wire, id: string): Promise<void> {
    await this.stream(fullSubject);
    await retryingTimeouts(() => this.js.publish(fullSubject, data, { msgID: id }));
  }

  async consume(
    fullSubject: string,
    durable: string,
    handler: (data: Wire) => Promise<void>,
  ): Promise<BusSubscription> {
    const stream = await this.stream(fullSubject);
    const jsm = await this.jsm();
    await retryingTimeouts(() =>
      jsm.consumers.add(stream, {
        durable_name: durable,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        filter_subject: fullSubject,
        ack_wait: 30_000 * NANOS_PER_MS,
        max_ack_pending: 256,
      }),
    );
    const consumer = await this.js.consumers.get(stream, durable);
    const messages = await consumer.consume({ max_messages: 64 });
    void (async () => {
      for await (const m of messages) {
        // Acked only once handled; a failure comes back after a second, a crash after ack_wait.
        handler(m.data).then(
          () => m.ack(),
          (err: unknown) => {
            this.opts.onHandlerError(err, fullSubject);
            m.nak(1000);
          },
        );
      }
    })().catch((err: unknown) => this.opts.onHandlerError(err, fullSubject));
    return { unsubscribe: () => void messages.stop() };
  }
}
