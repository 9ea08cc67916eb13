/**
 * Durable events of the in-process bus: what JetStream gives NatsBus, for the
 * life of the process (the embedded mode has one process, so nothing outlives
 * it anyway). An event published before its consumer exists waits for it; each
 * durable name gets every event once acknowledged (handler resolved), retried
 * after a rejection; a repeated id is dropped like a JetStream duplicate.
 *
 * Deliveries are bounded by the same policy as on JetStream (durable-policy.ts): an event refused
 * `maxDeliveries` times, or declared permanent, is parked in this subject's dead-letter list (the last
 * MAX_PARKED kept, readable with `parked()`) and reported to the consumer's `onParked`, so a poisoned
 * event never stalls the others. Retries wait on timers (unref'd: they do not hold the process open).
 */
import {
  DEFAULT_DELIVERY_POLICY,
  describeFailure,
  isPermanent,
  retryDelay,
  type DeliveryPolicy,
  type DurableConsumerOptions,
  type ParkedEvent,
} from './durable-policy.ts';
import type { BusSubscription, Wire } from './types.ts';

/** Ids remembered for duplicate detection (JetStream keeps a time window; this keeps the last N). */
const MAX_IDS = 10_000;
/** Parked events kept per subject (the oldest are dropped past it; the metric still counts them). */
const MAX_PARKED = 10_000;

interface Consumer {
  handlers: ((data: Wire) => Promise<void>)[];
  next: number;
  /** Events not yet acknowledged by this durable. */
  pending: Set<Event>;
  options: DurableConsumerOptions;
}
interface Event {
  data: Wire;
  inFlight: boolean;
  deliveries: number;
}

export class InProcessDurable {
  /** Events published to a subject nobody consumes yet, handed to its first durable. */
  private readonly waiting = new Map<string, Event[]>();
  private readonly consumers = new Map<string, Map<string, Consumer>>();
  private readonly ids = new Set<string>();
  private readonly streams = new Set<string>();
  private readonly dead = new Map<string, ParkedEvent[]>();
  private closed = false;

  constructor(
    private readonly onHandlerError: (err: unknown, subject: string) => void,
    private readonly policy: DeliveryPolicy = DEFAULT_DELIVERY_POLICY,
  ) {}

  /** Whether a stream covers `subject` (someone published durably or consumes it), as JetStream's would. */
  hasStream(subject: string): boolean {
    return this.streams.has(subject);
  }

  /** The events parked for `subject` (full subject), oldest first. */
  parked(subject: string): readonly ParkedEvent[] {
    return this.dead.get(subject) ?? [];
  }

  async publish(subject: string, data: Wire, id: string): Promise<void> {
    this.streams.add(subject);
    if (this.ids.has(id)) return;
    if (this.ids.size >= MAX_IDS) this.ids.delete(this.ids.values().next().value!);
    this.ids.add(id);
    const byName = this.consumers.get(subject);
    if (!byName || byName.size === 0) {
      const w = this.waiting.get(subject);
      const ev = { data, inFlight: false, deliveries: 0 };
      if (w) w.push(ev);
      else this.waiting.set(subject, [ev]);
      return;
    }
    for (const [durable, c] of byName) {
      c.pending.add({ data, inFlight: false, deliveries: 0 });
      this.pump(subject, durable, c);
    }
  }

  async consume(
    subject: string,
    durable: string,
    handler: (data: Wire) => Promise<void>,
    options: DurableConsumerOptions = {},
  ): Promise<BusSubscription> {
    this.streams.add(subject);
    let byName = this.consumers.get(subject);
    if (!byName) this.consumers.set(subject, (byName = new Map()));
    let c = byName.get(durable);
    if (!c) {
      c = { handlers: [], next: 0, pending: new Set(this.waiting.get(subject) ?? []), options };
      this.waiting.delete(subject);
      byName.set(durable, c);
    }
    c.handlers.push(handler);
    const consumer = c;
    this.pump(subject, durable, consumer);
    return {
      unsubscribe: () => {
        const i = consumer.handlers.indexOf(handler);
        if (i >= 0) consumer.handlers.splice(i, 1);
      },
    };
  }

  close(): void {
    this.closed = true;
  }

  private pump(subject: string, durable: string, c: Consumer): void {
    for (const ev of c.pending) {
      if (ev.inFlight || c.handlers.length === 0 || this.closed) continue;
      ev.inFlight = true;
      ev.deliveries++;
      const handler = c.handlers[c.next++ % c.handlers.length];
      setImmediate(() =>
        handler(ev.data).then(
          () => c.pending.delete(ev),
          (err: unknown) => {
            const permanent = isPermanent(err);
            // A permanent failure is reported once, as parked (onParked), not as a handler error.
            if (!permanent) this.onHandlerError(err, subject);
            const delay = permanent ? null : retryDelay(this.policy, ev.deliveries);
            if (delay === null) {
              c.pending.delete(ev);
              this.park(subject, durable, ev, err, permanent, c.options);
              return;
            }
            setTimeout(() => {
              ev.inFlight = false;
              this.pump(subject, durable, c);
            }, delay).unref();
          },
        ),
      );
    }
  }

  private park(
    subject: string,
    durable: string,
    ev: Event,
    err: unknown,
    permanent: boolean,
    options: DurableConsumerOptions,
  ): void {
    const parked: ParkedEvent = {
      subject,
      durable,
      data: ev.data,
      ...describeFailure(err),
      deliveries: ev.deliveries,
      permanent,
      at: new Date().toISOString(),
    };
    let list = this.dead.get(subject);
    if (!list) this.dead.set(subject, (list = []));
    list.push(parked);
    if (list.length > MAX_PARKED) list.shift();
    options.onParked?.(parked);
  }
}
