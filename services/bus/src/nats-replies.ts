/**
 * Request/reply over ONE wildcard inbox subscription per connection, each reply matched to its request by
 * the token at the end of its subject.
 *
 * Why not the client's `request()`: it does the same, but on every request that SUCCEEDS its clean-up
 * rejects the already-settled promise with a fresh `RequestError("cancelled")` — an Error, stack trace
 * captured, thrown away. Under the bot swarm that was ≈ 7 % of the gateway's busy CPU (`--cpu-prof`,
 * measure-stack at 1000 tables; the gateway sends one request per player action), plus its garbage.
 *
 * Failure modes, as before: no answer within `timeoutMs`, or the server's "no responders" status
 * message (an empty message with status 503: BusNoRespondersError, a BusTimeoutError the matchmaker's
 * worker probe reads as a death), end the request with BusTimeoutError; a reply that comes
 * after its timeout is dropped; closing the bus ends every waiting request at once.
 */
import { performance } from 'node:perf_hooks';
import { createInbox, headers as natsHeaders, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { TokenSlots } from './slots.ts';
import { BusNoRespondersError, BusTimeoutError, type TraceHeaders, type Wire } from './types.ts';

/** How long after its timeout a request's reply is still handed to its `arrived` hook, and how many such. */
const LATE_MS = 30_000;
const MAX_LATE = 10_000;

interface Waiting {
  token: string;
  subject: string;
  resolve: (data: Wire) => void;
  reject: (err: Error) => void;
  arrived: ((data: Wire) => void) | undefined;
  /** performance.now() ms past which nobody waits. */
  deadline: number;
  /** Its deadline queue's key: the timeout length. */
  queue: number;
  /** Neighbours in its deadline queue while it waits (the queue is a list through the requests). */
  prev: Waiting | null;
  next: Waiting | null;
}

/**
 * Requests of one timeout length, oldest first: their deadlines come in the same order, so only the
 * head can be due. A doubly linked list through the requests themselves, so an answered request
 * leaves it at once. It used to stay in an array, marked done, until the head's deadline passed:
 * every request of the last timeout length (2 s of a gateway's traffic) stayed reachable with its
 * promise, closures and reply bytes. (That was not what drives the gateway's major GCs: its
 * benchmark promoted as much per action either way; docs/measurements/boxes.md, "A seventh box".)
 */
class DeadlineQueue {
  head: Waiting | null = null;
  private tail: Waiting | null = null;
  push(w: Waiting): void {
    w.prev = this.tail;
    w.next = null;
    if (this.tail) this.tail.next = w;
    else this.head = w;
    this.tail = w;
  }
  remove(w: Waiting): void {
    if (w.prev) w.prev.next = w.next;
    else this.head = w.next;
    if (w.next) w.next.prev = w.prev;
    else this.tail = w.prev;
    w.prev = w.next = null;
  }
}

/**
 * Timeouts without a timer per request: the gateway makes one request per player action, and a
 * setTimeout + clearTimeout each (allocation, timer-list insert and unlink) was ≈ 3 % of its busy
 * samples in bench/action.ts. Requests wait in one queue per timeout length, in deadline order, and
 * one timer is armed for the earliest deadline; an answered request leaves its queue. A request
 * times out within a millisecond or so of its deadline, as with its own timer.
 */
export class ReplyInbox {
  private readonly inbox: string;
  /** By reply token; not a Map, whose obsolete tables kept every request's objects past its scavenges (slots.ts). */
  private readonly waiting = new TokenSlots<Waiting>();
  private readonly late = new Map<string, { arrived: (data: Wire) => void; until: number }>();
  private readonly queues = new Map<number, DeadlineQueue>();
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;

  /** `inboxPrefix`: the connection's (`_INBOX.<user>`), so replies arrive where its user may subscribe. */
  constructor(
    private readonly nc: NatsConnection,
    inboxPrefix?: string,
  ) {
    this.inbox = createInbox(inboxPrefix);
    nc.subscribe(`${this.inbox}.*`, { callback: (err, m) => (err ? this.endAll() : this.onReply(m)) });
  }

  /** `subject` (without the bus prefix) names the request in its BusTimeoutError. */
  request(
    fullSubject: string,
    subject: string,
    data: Wire,
    timeoutMs: number,
    arrived?: (data: Wire) => void,
    headers?: TraceHeaders,
  ): Promise<Wire> {
    return new Promise((resolve, reject) => {
      const deadline = performance.now() + timeoutMs;
      const w: Waiting = {
        token: '',
        subject,
        resolve,
        reject,
        arrived,
        deadline,
        queue: timeoutMs,
        prev: null,
        next: null,
      };
      const token = (w.token = this.waiting.add(w));
      try {
        const reply = `${this.inbox}.${token}`;
        if (headers === undefined) this.nc.publish(fullSubject, data, { reply });
        else {
          const h = natsHeaders();
          for (const k in headers) h.set(k, headers[k]);
          this.nc.publish(fullSubject, data, { reply, headers: h });
        }
      } catch (err) {
        this.waiting.take(token);
        reject(err as Error);
        return;
      }
      let q = this.queues.get(timeoutMs);
      if (!q) this.queues.set(timeoutMs, (q = new DeadlineQueue()));
      q.push(w);
      if (deadline < this.timerAt) this.arm(deadline);
    });
  }

  /** Requests held in the deadline queues: exactly those still waiting (tests). */
  held(): number {
    let n = 0;
    for (const q of this.queues.values()) for (let w = q.head; w; w = w.next) n++;
    return n;
  }

  /** The bus is closing: nobody will answer what is still waiting, and no timer may hold the process. */
  endAll(): void {
    const all = this.waiting.all();
    this.waiting.clear();
    this.late.clear();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
    this.queues.clear();
    for (const w of all) w.reject(new BusNoRespondersError(w.subject));
  }

  private arm(at: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    // +1: a timer may fire a fraction of a millisecond early by performance.now(). Unref'd: it may outlive
    // the last request (see onReply), and a waiting request has the NATS socket holding the process anyway.
    this.timer = setTimeout(() => this.expire(), Math.max(0, Math.ceil(at - performance.now())) + 1);
    this.timer.unref();
  }

  private expire(): void {
    this.timer = null;
    this.timerAt = Infinity;
    const now = performance.now();
    let earliest = Infinity;
    const due: Waiting[] = [];
    for (const [ms, q] of this.queues) {
      let w = q.head;
      while (w && w.deadline <= now) {
        q.remove(w);
        due.push(w);
        w = q.head;
      }
      if (w) earliest = Math.min(earliest, w.deadline);
      else this.queues.delete(ms);
    }
    // In deadline order across the queues: after a stall (a loaded box) several lengths fall due in one call,
    // and a 150 ms request asked after a 600 ms one must still end first.
    if (due.length > 1) due.sort((x, y) => x.deadline - y.deadline);
    for (const w of due) {
      this.waiting.take(w.token);
      if (w.arrived) this.keepLate(w.token, w.arrived, now);
      w.reject(new BusTimeoutError(w.subject));
    }
    if (earliest < Infinity) this.arm(earliest);
  }

  /**
   * A timed-out request's `arrived` hook still sees a reply that comes within LATE_MS (Bus.request): what a
   * late reply carries (an applied action's frames) is still true. Kept in timeout order, so the oldest go
   * first; bounded in number.
   */
  private keepLate(token: string, arrived: (data: Wire) => void, now: number): void {
    for (const [t, l] of this.late) {
      if (l.until > now && this.late.size < MAX_LATE) break;
      this.late.delete(t);
    }
    this.late.set(token, { arrived, until: now + LATE_MS });
  }

  private onReply(m: Msg): void {
    const token = m.subject.slice(this.inbox.length + 1);
    const w = this.waiting.take(token);
    if (!w) {
      const l = this.late.get(token);
      if (l === undefined) return;
      this.late.delete(token);
      if (l.until > performance.now() && m.data.length > 0) l.arrived(m.data);
      return;
    }
    // Out of its queue at once. The timer stays armed (it finds nothing due, or arms itself for a later
    // request), so a request at a time arms no timer of its own.
    this.queues.get(w.queue)?.remove(w);
    if (m.data.length === 0 && m.headers?.code === 503) w.reject(new BusNoRespondersError(w.subject));
    else {
      w.arrived?.(m.data);
      w.resolve(m.data);
    }
  }
}
