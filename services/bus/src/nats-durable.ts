/**
 * Durable events over JetStream, for the few facts that must not be lost
 * (a game result): one stream per durable subject (file storage, replicated
 * on a NATS cluster), published with a message id so a producer's retries are
 * dropped as duplicates, and consumed by durable pull consumers that ack only
 * after the handler resolved. Debian's nats-server 2.9 has no multi-filter
 * consumers, so each subject gets its own stream and each consumer one filter.
 *
 * Deliveries are bounded (durable-policy.ts): an event the handler keeps refusing, or declares permanent,
 * is parked in the subject's dead-letter stream (`EV_<subject>_dead` over `dead.<subject>`) with its error
 * in headers, then terminated, so a poisoned event never holds one of the consumer's 256 unacknowledged
 * slots for long. Parking that fails (NATS down) naks the event: it is parked on a later delivery.
 *
 * Streams and consumers are created here only with `createStreams` (development, tests, the `joke-streams`
 * setup command run with an admin user). With the chart's per-service NATS users they exist already, and
 * a service only publishes, pulls and acks: a consumer not there yet (the setup job still running) is
 * looked up again for a minute, then the start fails with the reason.
 */
import {
  AckPolicy,
  DeliverPolicy,
  jetstream,
  jetstreamManager,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { headers, type NatsConnection } from '@nats-io/transport-node';
import {
  DEFAULT_DELIVERY_POLICY,
  deadLetterSubject,
  describeFailure,
  isPermanent,
  retryDelay,
  type DeliveryPolicy,
  type DurableConsumerOptions,
  type ParkedEvent,
} from './durable-policy.ts';
import type { BusSubscription, Wire } from './types.ts';

export interface DurableOptions {
  /** Stream replicas (3 on a 3-node NATS cluster; 1 on a single server). */
  replicas: number;
  /** How long the stream keeps an event nobody acknowledged (a consumer down for days). */
  maxAgeMs: number;
  onHandlerError: (err: unknown, subject: string) => void;
  /** Create streams and durable consumers (JETSTREAM_CREATE_STREAMS); off under the chart's NATS users. */
  createStreams?: boolean;
  policy?: DeliveryPolicy;
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
export const streamName = (fullSubject: string) => `EV_${fullSubject.replace(/[^A-Za-z0-9_-]/g, '_')}`;
export const deadLetterStream = (fullSubject: string) => `${streamName(fullSubject)}_dead`;
const NANOS_PER_MS = 1_000_000;
/**
 * Redelivery after a delivery nobody answered (a crash). No server-side `backoff` list: on nats-server 2.9 a
 * consumer's BackOff overrides the delay of every nak (measured: naks of 20 ms came back after the ack wait),
 * and the handler's own delays (durable-policy.ts) are what bound a failing event.
 */
const ACK_WAIT_MS = 30_000;
const CONSUMER_LOOKUP_MS = 60_000;

/** Parked-event headers (NATS headers: one line each). */
export const DEAD_HEADERS = {
  subject: 'Joke-Dead-Subject',
  durable: 'Joke-Dead-Durable',
  error: 'Joke-Dead-Error',
  code: 'Joke-Dead-Code',
  deliveries: 'Joke-Dead-Deliveries',
  permanent: 'Joke-Dead-Permanent',
  at: 'Joke-Dead-At',
  sequence: 'Joke-Dead-Stream-Seq',
} as const;

export class JetStreamEvents {
  private manager: Promise<JetStreamManager> | null = null;
  private readonly ensured = new Map<string, Promise<void>>();
  private readonly js;
  private readonly policy: DeliveryPolicy;

  constructor(
    private readonly nc: NatsConnection,
    private readonly opts: DurableOptions,
  ) {
    this.js = jetstream(nc);
    this.policy = opts.policy ?? DEFAULT_DELIVERY_POLICY;
  }

  private jsm(): Promise<JetStreamManager> {
    this.manager ??= jetstreamManager(this.nc).catch((err: unknown) => {
      this.manager = null;
      throw err;
    });
    return this.manager;
  }

  /** Creates a stream once per process (adding an existing stream with the same config is a no-op). */
  private ensureStream(name: string, subject: string): Promise<void> {
    let s = this.ensured.get(name);
    if (!s) {
      s = this.jsm()
        .then((jsm) =>
          retryingTimeouts(() =>
            jsm.streams.add({
              name,
              subjects: [subject],
              num_replicas: this.opts.replicas,
              max_age: this.opts.maxAgeMs * NANOS_PER_MS,
              duplicate_window: 2 * 60_000 * NANOS_PER_MS,
            }),
          ).catch(async (err: unknown) => {
            // There already, set up otherwise (by hand, another replica count): kept as it is, it stores the subject.
            if (!/already in use/i.test(String((err as Error).message))) throw err;
            const info = await jsm.streams.info(name);
            if (!info.config.subjects?.includes(subject)) throw err;
          }),
        )
        .then(() => {})
        .catch((err: unknown) => {
          this.ensured.delete(name);
          throw err;
        });
      this.ensured.set(name, s);
    }
    return s;
  }

  /**
   * The event stream, its dead-letter stream and (with `durable`) its durable consumer, created or brought
   * to the current delivery policy. What the `joke-streams` setup command runs; idempotent.
   */
  async ensure(fullSubject: string, durable?: string): Promise<void> {
    const stream = streamName(fullSubject);
    await this.ensureStream(stream, fullSubject);
    await this.ensureStream(deadLetterStream(fullSubject), deadLetterSubject(fullSubject));
    if (!durable) return;
    const jsm = await this.jsm();
    const config = {
      ack_wait: ACK_WAIT_MS * NANOS_PER_MS,
      max_ack_pending: 256,
      // One more than the handler's budget: the extra delivery (after a crash on the last one) parks it.
      max_deliver: this.policy.maxDeliveries + 1,
    };
    try {
      await retryingTimeouts(() =>
        jsm.consumers.add(stream, {
          durable_name: durable,
          ack_policy: AckPolicy.Explicit,
          deliver_policy: DeliverPolicy.All,
          filter_subject: fullSubject,
          ...config,
        }),
      );
    } catch (err) {
      // A consumer made by an older release (unbounded deliveries): brought to the policy in place.
      if (!/already exists|already in use/i.test(String((err as Error).message))) throw err;
      await retryingTimeouts(() => jsm.consumers.update(stream, durable, config));
    }
  }

  /** Deletes every durable-event stream under `fullPrefix` (tests on a shared server clean up their own). */
  async removeStreams(fullPrefix: string): Promise<number> {
    const jsm = await this.jsm();
    const start = streamName(fullPrefix);
    const names: string[] = [];
    for await (const s of jsm.streams.list()) if (s.config.name.startsWith(start)) names.push(s.config.name);
    for (const name of names) await jsm.streams.delete(name);
    this.ensured.clear();
    return names.length;
  }

  async publish(fullSubject: string, data: Wire, id: string): Promise<void> {
    if (this.opts.createStreams !== false) await this.ensure(fullSubject);
    await retryingTimeouts(() => this.js.publish(fullSubject, data, { msgID: id }));
  }

  /** The durable consumer, waiting up to a minute for the setup job to have made it. */
  private async consumer(stream: string, durable: string) {
    for (const end = Date.now() + CONSUMER_LOOKUP_MS; ;) {
      try {
        return await retryingTimeouts(() => this.js.consumers.get(stream, durable));
      } catch (err) {
        if (this.opts.createStreams !== false || Date.now() > end) {
          throw new Error(`durable consumer ${durable} of stream ${stream} is missing (run joke-streams)`, {
            cause: err,
          });
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  }

  async consume(
    fullSubject: string,
    durable: string,
    handler: (data: Wire) => Promise<void>,
    options: DurableConsumerOptions = {},
  ): Promise<BusSubscription> {
    if (this.opts.createStreams !== false) await this.ensure(fullSubject, durable);
    const consumer = await this.consumer(streamName(fullSubject), durable);
    const messages = await consumer.consume({ max_messages: 64 });
    const fail = (m: JsMsg, err: unknown, permanent: boolean) => {
      const deliveries = m.info.deliveryCount;
      const delay = permanent ? null : retryDelay(this.policy, deliveries);
      if (delay !== null) return m.nak(delay);
      this.park(m, fullSubject, durable, err, permanent, options);
    };
    void (async () => {
      for await (const m of messages) {
        // A delivery past the budget: the last one was never answered (a crash); parked without a rerun.
        if (m.info.deliveryCount > this.policy.maxDeliveries) {
          fail(m, new Error('no answer within the ack wait (the consumer died or hung)'), false);
          continue;
        }
        // Acked only once handled; a failure comes back after its delay, a crash after the ack wait.
        handler(m.data).then(
          () => m.ack(),
          (err: unknown) => {
            const permanent = isPermanent(err);
            // A permanent failure is reported once, as parked (onParked), not as a handler error.
            if (!permanent) this.opts.onHandlerError(err, fullSubject);
            fail(m, err, permanent);
          },
        );
      }
    })().catch((err: unknown) => this.opts.onHandlerError(err, fullSubject));
    return { unsubscribe: () => void messages.stop() };
  }

  /** Stores the event in the dead-letter stream, then terminates it; if that fails it comes back later. */
  private park(
    m: JsMsg,
    fullSubject: string,
    durable: string,
    err: unknown,
    permanent: boolean,
    options: DurableConsumerOptions,
  ): void {
    const { error, code } = describeFailure(err);
    const data = new Uint8Array(m.data);
    const parked: ParkedEvent = {
      subject: fullSubject,
      durable,
      data,
      error,
      code,
      deliveries: m.info.deliveryCount,
      permanent,
      at: new Date().toISOString(),
    };
    const h = headers();
    h.set(DEAD_HEADERS.subject, fullSubject);
    h.set(DEAD_HEADERS.durable, durable);
    h.set(DEAD_HEADERS.error, error || '(no message)');
    h.set(DEAD_HEADERS.code, code);
    h.set(DEAD_HEADERS.deliveries, String(parked.deliveries));
    h.set(DEAD_HEADERS.permanent, String(permanent));
    h.set(DEAD_HEADERS.at, parked.at);
    h.set(DEAD_HEADERS.sequence, String(m.info.streamSequence));
    // The message id makes a second parking of the same event (term lost, redelivered) a duplicate.
    const id = `${durable}:${m.info.streamSequence}`;
    retryingTimeouts(() => this.js.publish(deadLetterSubject(fullSubject), data, { msgID: id, headers: h })).then(
      (ack) => {
        // No reason text: nats-server 2.9 does not read `+TERM <reason>` (2.10 does).
        m.term();
        // Heard once per event: a redelivery parked again (its first term came after the ack wait, on a
        // loaded box) is the stream's duplicate and was already reported.
        if (!ack.duplicate) options.onParked?.(parked);
      },
      (e: unknown) => {
        this.opts.onHandlerError(e, deadLetterSubject(fullSubject));
        m.nak(this.policy.retryDelaysMs.at(-1) ?? 60_000);
      },
    );
  }
}
