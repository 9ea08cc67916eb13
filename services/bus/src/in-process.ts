/**
 * The bus of the embedded single-process mode and of unit tests. It keeps the
 * NATS semantics the services rely on, so code that works here works over NATS:
 * - delivery is asynchronous and in publish order (never inside `publish`);
 * - every plain subscriber gets a copy, each queue group gets one copy for one member;
 * - a request with nobody subscribed fails at once (NATS "no responders"), one
 *   that nobody answers fails after its timeout, both with BusTimeoutError;
 *   the first answer wins and later ones are dropped.
 * Subjects are matched exactly (the services use no wildcards).
 */
import type { DeliveryPolicy, DurableConsumerOptions, ParkedEvent } from './durable-policy.ts';
import { InProcessDurable } from './in-process-durable.ts';
import { systemClock, type Clock } from './clock.ts';
import {
  BusNoRespondersError,
  BusTimeoutError,
  type Bus,
  type BusMessage,
  type BusSubscription,
  type TraceHeaders,
  type Wire,
} from './types.ts';

type Handler = (msg: BusMessage) => void;

interface Sub {
  handler: Handler;
  queue: string | undefined;
  active: boolean;
}

interface Pending {
  sub: Sub;
  msg: BusMessage;
}

export interface InProcessBusOptions {
  /** Prepended (with a dot) to every subject, like NatsBus, so two buses in one process can stay apart. */
  prefix?: string;
  /** Called when a handler throws; defaults to console.error. Delivery to the other subscribers goes on. */
  onHandlerError?: (err: unknown, subject: string) => void;
  /** Deliveries of a durable event before it is parked (default: durable-policy.ts; tests shorten it). */
  deliveryPolicy?: DeliveryPolicy;
  /**
   * The clock a request's timeout runs on (default: the real one). A fake-time test passes its FakeClock,
   * so a request nobody answers times out when the test advances time, not after real milliseconds.
   */
  clock?: Clock;
}

/** `a.b.c` → `a.b.*`: the one wildcard subscription the in-process bus matches a subject against. */
function lastTokenWildcard(subject: string): string {
  return subject.slice(0, subject.lastIndexOf('.') + 1) + '*';
}

export class InProcessBus implements Bus {
  private readonly subs = new Map<string, Sub[]>();
  private readonly prefix: string;
  private readonly onHandlerError: (err: unknown, subject: string) => void;
  private queue: Pending[] = [];
  private scheduled = false;
  private closed = false;
  private drained: (() => void) | null = null;
  /** Round-robin cursor per subject+group: spreads requests like NATS does (it picks at random). */
  private readonly rr = new Map<string, number>();
  private readonly durable: InProcessDurable;
  private plainIds = 0;
  private readonly clock: Clock;

  constructor(opts: InProcessBusOptions = {}) {
    this.clock = opts.clock ?? systemClock;
    this.prefix = opts.prefix ? `${opts.prefix}.` : '';
    this.onHandlerError = opts.onHandlerError ?? ((err, subject) => console.error(`bus handler on ${subject}`, err));
    this.durable = new InProcessDurable(this.onHandlerError, opts.deliveryPolicy);
  }

  publishDurable(subject: string, data: Wire, id: string): Promise<void> {
    this.assertOpen();
    const full = this.prefix + subject;
    // A JetStream publish is a NATS message too: plain subscribers of the subject see it.
    this.route(full, { subject, data });
    return this.durable.publish(full, data, id);
  }

  consumeDurable(
    subject: string,
    durable: string,
    handler: (data: Wire) => Promise<void>,
    options?: DurableConsumerOptions,
  ): Promise<BusSubscription> {
    this.assertOpen();
    return this.durable.consume(this.prefix + subject, durable, handler, options);
  }

  /** The durable events of `subject` parked after their deliveries failed (the dead-letter list). */
  parkedEvents(subject: string): readonly ParkedEvent[] {
    return this.durable.parked(this.prefix + subject);
  }

  publish(subject: string, data: Wire): void {
    this.assertOpen();
    const full = this.prefix + subject;
    this.route(full, { subject, data });
    // A stream stores plain publishes on its subjects too (JetStream does).
    if (this.durable.hasStream(full)) void this.durable.publish(full, data, `core:${++this.plainIds}`);
  }

  request(
    subject: string,
    data: Wire,
    timeoutMs: number,
    arrived?: (data: Wire) => void,
    headers?: TraceHeaders,
  ): Promise<Wire> {
    this.assertOpen();
    const full = this.prefix + subject;
    if (!this.hasSubscribers(full)) return Promise.reject(new BusNoRespondersError(subject));
    return new Promise<Wire>((resolve, reject) => {
      let done = false;
      let timedOut = false;
      const timer = this.clock.setTimeout(() => {
        if (done) return;
        done = true;
        timedOut = true;
        reject(new BusTimeoutError(subject));
      }, timeoutMs);
      const respond = (reply: Wire): void => {
        if (done) {
          // As over NATS: a reply after the timeout is still shown to `arrived` (once).
          if (timedOut && arrived) {
            timedOut = false;
            setImmediate(() => arrived(reply));
          }
          return;
        }
        done = true;
        this.clock.clearTimeout(timer);
        // Replies travel through the bus too: the requester sees them on a later tick, as over a socket.
        setImmediate(() => {
          arrived?.(reply);
          resolve(reply);
        });
      };
      const msg: BusMessage = { subject, data, respond };
      if (headers) msg.headers = { ...headers };
      this.route(full, msg);
    });
  }

  subscribe(subject: string, handler: Handler, opts: { queue?: string } = {}): BusSubscription {
    this.assertOpen();
    const full = this.prefix + subject;
    const star = full.indexOf('*');
    if (full.includes('>') || (star >= 0 && (star !== full.length - 1 || !full.endsWith('.*'))))
      throw new Error(`in-process bus: a wildcard only as the last token (${subject})`);
    const sub: Sub = { handler, queue: opts.queue, active: true };
    const list = this.subs.get(full);
    if (list) list.push(sub);
    else this.subs.set(full, [sub]);
    return {
      unsubscribe: () => {
        if (!sub.active) return;
        sub.active = false;
        const l = this.subs.get(full);
        if (!l) return;
        const i = l.indexOf(sub);
        if (i >= 0) l.splice(i, 1);
        if (l.length === 0) this.subs.delete(full);
      },
    };
  }

  /** Subscriptions take effect at once here; nothing to wait for. */
  async flush(): Promise<void> {}

  /** Delivers what was already published, then refuses further use. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.durable.close();
    if (this.queue.length > 0 || this.scheduled) await new Promise<void>((r) => (this.drained = r));
    this.subs.clear();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('bus closed');
  }

  private hasSubscribers(full: string): boolean {
    const l = this.subs.get(full);
    if (l !== undefined && l.length > 0) return true;
    const w = this.subs.get(lastTokenWildcard(full));
    return w !== undefined && w.length > 0;
  }

  /** The subscriptions of `full` itself and of `full` with its last token a `*` (all this bus matches). */
  private matching(full: string): Sub[] | undefined {
    const exact = this.subs.get(full);
    const wild = this.subs.get(lastTokenWildcard(full));
    if (wild === undefined || full.endsWith('.*')) return exact;
    return exact === undefined ? wild : [...exact, ...wild];
  }

  private route(full: string, msg: BusMessage): void {
    const list = this.matching(full);
    if (!list) return;
    let groups: Map<string, Sub[]> | null = null;
    for (const s of list) {
      if (s.queue === undefined) this.queue.push({ sub: s, msg });
      else {
        groups ??= new Map();
        const g = groups.get(s.queue);
        if (g) g.push(s);
        else groups.set(s.queue, [s]);
      }
    }
    if (groups) {
      for (const [name, members] of groups) {
        const key = `${full}\u0000${name}`;
        const i = (this.rr.get(key) ?? 0) % members.length;
        this.rr.set(key, i + 1);
        this.queue.push({ sub: members[i], msg });
      }
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(this.deliverQueued);
  }

  private readonly deliverQueued = (): void => {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    for (const { sub, msg } of batch) {
      // A subscription removed after the publish no longer receives it (NATS drops it too).
      if (!sub.active) continue;
      try {
        sub.handler(msg);
      } catch (err) {
        this.onHandlerError(err, msg.subject);
      }
    }
    if (this.queue.length > 0) this.schedule();
    else if (this.drained) {
      const d = this.drained;
      this.drained = null;
      d();
    }
  };
}
