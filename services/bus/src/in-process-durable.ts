/**
 * Durable events of the in-process bus: what JetStream gives NatsBus, for the
 * life of the process (the embedded mode has one process, so nothing outlives
 * it anyway). An event published before its consumer exists waits for it; each
 * durable name gets every event once acknowledged (handler resolved), retried
 * after a rejection; a repeated id is dropped like a JetStream duplicate.
 */
import type { BusSubscription, Wire } from './types.ts';

const RETRY_MS = 200;
/** Ids remembered for duplicate detection (JetStream keeps a time window; this keeps the last N). */
const MAX_IDS = 10_000;

interface Consumer {
  handlers: ((data: Wire) => Promise<void>)[];
  next: number;
  /** Events not yet acknowledged by this durable. */
  pending: Set<Event>;
}
interface Event {
  data: Wire;
  inFlight: boolean;
}

export class InProcessDurable {
  /** Events published to a subject nobody consumes yet, handed to its first durable. */
  private readonly waiting = new Map<string, Event[]>();
  private readonly consumers = new Map<string, Map<string, Consumer>>();
  private readonly ids = new Set<string>();
  private readonly streams = new Set<string>();
  private closed = false;

  constructor(private readonly onHandlerError: (err: unknown, subject: string) => void) {}

  /** Whether a stream covers `subject` (someone published durably or consumes it), as JetStream's would. */
  hasStream(subject: string): boolean {
    return this.streams.has(subject);
  }

  async publish(subject: string, data: Wire, id: string): Promise<void> {
    this.streams.add(subject);
    if (this.ids.has(id)) return;
    if (this.ids.size >= MAX_IDS) this.ids.delete(this.ids.values().next().value!);
    this.ids.add(id);
    const byName = this.consumers.get(subject);
    if (!byName || byName.size === 0) {
      const w = this.waiting.get(subject);
      if (w) w.push({ data, inFlight: false });
      else this.waiting.set(subject, [{ data, inFlight: false }]);
      return;
    }
    for (const c of byName.values()) {
      c.pending.add({ data, inFlight: false });
      this.pump(subject, c);
    }
  }

  async consume(subject: string, durable: string, handler: (data: Wire) => Promise<void>): Promise<BusSubscription> {
    this.streams.add(subject);
    let byName = this.consumers.get(subject);
    if (!byName) this.consumers.set(subject, (byName = new Map()));
    let c = byName.get(durable);
    if (!c) {
      c = { handlers: [], next: 0, pending: new Set(this.waiting.get(subject) ?? []) };
      this.waiting.delete(subject);
      byName.set(durable, c);
    }
    c.handlers.push(handler);
    const consumer = c;
    this.pump(subject, consumer);
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

  private pump(subject: string, c: Consumer): void {
    for (const ev of c.pending) {
      if (ev.inFlight || c.handlers.length === 0 || this.closed) continue;
      ev.inFlight = true;
      const handler = c.handlers[c.next++ % c.handlers.length];
      setImmediate(() =>
        handler(ev.data).then(
          () => c.pending.delete(ev),
          (err: unknown) => {
            this.onHandlerError(err, subject);
            setTimeout(() => {
              ev.inFlight = false;
              this.pump(subject, c);
            }, RETRY_MS).unref();
          },
        ),
      );
    }
  }
}
