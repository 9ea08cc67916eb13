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
import { createInbox, type Msg, type NatsConnection } from '@nats-io/transport-node';
import { BusNoRespondersError, BusTimeoutError, type Wire } from './types.ts';

interface Waiting {
  subject: string;
  resolve: (data: Wire) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

export class ReplyInbox {
  private readonly inbox = createInbox();
  private readonly waiting = new Map<string, Waiting>();
  private next = 0;

  constructor(private readonly nc: NatsConnection) {
    nc.subscribe(`${this.inbox}.*`, { callback: (err, m) => (err ? this.endAll() : this.onReply(m)) });
  }

  /** `subject` (without the bus prefix) names the request in its BusTimeoutError. */
  request(fullSubject: string, subject: string, data: Wire, timeoutMs: number): Promise<Wire> {
    const token = (++this.next).toString(36);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(token);
        reject(new BusTimeoutError(subject));
      }, timeoutMs);
      this.waiting.set(token, { subject, resolve, reject, timer });
      try {
        this.nc.publish(fullSubject, data, { reply: `${this.inbox}.${token}` });
      } catch (err) {
        clearTimeout(timer);
        this.waiting.delete(token);
        reject(err as Error);
      }
    });
  }

  /** The bus is closing: nobody will answer what is still waiting. */
  endAll(): void {
    for (const w of this.waiting.values()) {
      clearTimeout(w.timer);
      w.reject(new BusNoRespondersError(w.subject));
    }
    this.waiting.clear();
  }

  private onReply(m: Msg): void {
    const token = m.subject.slice(this.inbox.length + 1);
    const w = this.waiting.get(token);
    if (!w) return;
    this.waiting.delete(token);
    clearTimeout(w.timer);
    if (m.data.length === 0 && m.headers?.code === 503) w.reject(new BusNoRespondersError(w.subject));
    else w.resolve(m.data);
  }
}
