/**
 * Several subjects that differ only in their last token (a room's `cmd`, `join`, `presence` and `chat`)
 * served through ONE bus subscription to `<stem>.*`.
 *
 * Why: a room worker holds thousands of rooms, and with a subscription per subject each room cost four
 * NATS subscriptions in the client — ≈ 1.4 KB of heap each with their iterators and promises, 5.8 of
 * the ≈ 38 KB a live room held in a heap snapshot of a worker under the bot swarm, all of it marked by
 * every major GC — and four SUB and four UNSUB protocol lines whenever it was opened, restored, failed
 * over or migrated (docs/measurements/boxes.md, "A sixth box").
 *
 * Each message still reaches only the handler of its own subject; a subject of the stem nobody here
 * serves is dropped as if nobody were subscribed to it (a request to it times out instead of failing at
 * once with no responders).
 *
 * A family is a `BusClient`: services subscribe through it with the contract's `serve`/`listen` as they
 * would on the bus, and send through it to the bus itself. The stem is the first subscribed subject's;
 * the first subscription opens the bus subscription and the last unsubscribe closes it. No queue groups:
 * a family is one process's handlers.
 */
import type { Bus, BusClient, BusMessage, BusSubscription, TraceHeaders, Wire } from './types.ts';

export class SubjectFamily implements BusClient {
  private stem: string | null = null;
  private readonly handlers = new Map<string, (msg: BusMessage) => void>();
  private sub: BusSubscription | null = null;

  constructor(private readonly bus: Bus) {}

  publish(subject: string, data: Wire): void {
    this.bus.publish(subject, data);
  }

  request(
    subject: string,
    data: Wire,
    timeoutMs: number,
    arrived?: (data: Wire) => void,
    headers?: TraceHeaders,
  ): Promise<Wire> {
    return this.bus.request(subject, data, timeoutMs, arrived, headers);
  }

  subscribe(subject: string, handler: (msg: BusMessage) => void, opts: { queue?: string } = {}): BusSubscription {
    if (opts.queue !== undefined) throw new Error(`a subject family has no queue groups (${subject})`);
    const dot = subject.lastIndexOf('.');
    const stem = subject.slice(0, dot);
    const token = subject.slice(dot + 1);
    if (dot <= 0 || token === '' || token === '*' || token === '>' || stem.includes('*') || stem.includes('>'))
      throw new Error(`not a literal subject: ${subject}`);
    if (this.stem !== null && stem !== this.stem) throw new Error(`${subject} is not in the family ${this.stem}.*`);
    if (this.handlers.has(token)) throw new Error(`${subject} is served twice in one family`);
    this.stem = stem;
    this.handlers.set(token, handler);
    this.sub ??= this.bus.subscribe(`${stem}.*`, (m) => this.dispatch(m));
    let active = true;
    return {
      unsubscribe: () => {
        if (!active) return;
        active = false;
        this.handlers.delete(token);
        if (this.handlers.size > 0 || this.sub === null) return;
        this.sub.unsubscribe();
        this.sub = null;
      },
    };
  }

  /** Subjects served now, for tests and logs. */
  get served(): string[] {
    return [...this.handlers.keys()].map((t) => `${this.stem}.${t}`);
  }

  private dispatch(m: BusMessage): void {
    const handler = this.handlers.get(m.subject.slice(m.subject.lastIndexOf('.') + 1));
    if (handler !== undefined) handler(m);
  }
}
