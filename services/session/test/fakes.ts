/**
 * A transport and a clock a test drives by hand: the transport records what the session sent and
 * lets the test open, feed and close it; the clock fires timers only when `advance` moves it.
 */
import type { ClientMessage } from '@joke/protocol';
import type { SessionClock, Transport, TransportEvents } from '../src/index.ts';

export class FakeClock implements SessionClock {
  private t = 1_000_000;
  private seq = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): number {
    const id = ++this.seq;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  }
  clearTimeout(timer: unknown): void {
    if (typeof timer === 'number') this.timers.delete(timer);
  }
  get armed(): number {
    return this.timers.size;
  }
  /** Moves time by `ms`, firing what falls due in time order. */
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.timers) if (e[1].at <= end && (!next || e[1].at < next[1].at)) next = e;
      if (!next) break;
      this.timers.delete(next[0]);
      this.t = next[1].at;
      next[1].fn();
    }
    this.t = end;
  }
}

export class FakeTransport implements Transport {
  readonly sent: ClientMessage[] = [];
  closed: number | null = null;
  constructor(readonly events: TransportEvents) {}
  send(text: string): void {
    this.sent.push(JSON.parse(text));
  }
  close(code = 1000): void {
    if (this.closed !== null) return;
    this.closed = code;
    this.events.close(code);
  }
  /** What the server got of type `t`. */
  of<T extends ClientMessage['t']>(t: T): Extract<ClientMessage, { t: T }>[] {
    return this.sent.filter((m): m is Extract<ClientMessage, { t: T }> => m.t === t);
  }
  feed(msg: object): void {
    this.events.message(JSON.stringify({ v: 1, ...msg }));
  }
  /** The network drops the socket (no handshake). */
  drop(): void {
    this.close(1006);
  }
}

/** Every socket the session opened, newest last. */
export function fakeNetwork(): { sockets: FakeTransport[]; connect: (e: TransportEvents) => FakeTransport } {
  const sockets: FakeTransport[] = [];
  return {
    sockets,
    connect: (events) => {
      const t = new FakeTransport(events);
      sockets.push(t);
      return t;
    },
  };
}
