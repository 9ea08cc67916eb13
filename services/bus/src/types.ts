/**
 * The message bus the services talk over: NATS in production, an in-process
 * implementation in the embedded single-process mode and in unit tests. The
 * services depend on this interface only, so the same code runs either way.
 */
import type { DurableConsumerOptions } from './durable-policy.ts';

/** A payload: text or bytes. Decode it with the subject's codec from `@joke/protocol`'s contract. */
export type Wire = string | Uint8Array;

/**
 * Message headers as a plain carrier: in practice the W3C trace context (`traceparent`, `tracestate`) of a
 * traced request (tracing.ts). NATS headers over NATS; only sent when tracing is on, so an untraced
 * message carries none and costs nothing to read.
 */
export type TraceHeaders = Record<string, string>;

export interface BusMessage {
  /**
   * The subject the message was sent to (without the bus's prefix): for a wildcard subscription
   * (`a.b.*`) the one it matched, else the subscribed subject itself.
   */
  subject: string;
  /** Bytes off NATS (valid during the handler), or whatever was published on the in-process bus. */
  data: Wire;
  /** Present when the sender used `request`: answer it exactly once. */
  respond?: (data: Wire) => void;
  /** The sender's headers (first value of each), when it sent any: a traced request's trace context. */
  headers?: TraceHeaders;
}

export interface BusSubscription {
  unsubscribe(): void;
}

export interface Bus {
  /** Fire-and-forget. */
  publish(subject: string, data: Wire): void;
  /**
   * Request/reply; rejects with BusTimeoutError after `timeoutMs` or when nobody is subscribed.
   * `arrived`, if given, sees the reply synchronously as it comes in, before the promise settles (whose
   * continuation runs only after the rest of the socket read is handled): the gateway forwards frames
   * that ride on a reply in order with the deliveries that came in the same read. It also sees a reply
   * that comes after the timeout (within 30 s, once): the frames of an action applied late are still true.
   * `headers` go with the request (NATS headers): the trace context of a traced action (tracing.ts).
   */
  request(
    subject: string,
    data: Wire,
    timeoutMs: number,
    arrived?: (data: Wire) => void,
    headers?: TraceHeaders,
  ): Promise<Wire>;
  /**
   * With `queue`, each message goes to one member of the group (load-balanced services). A `*` may stand
   * for the LAST token only (`a.b.*`: NATS takes it anywhere, the in-process bus only there).
   */
  subscribe(subject: string, handler: (msg: BusMessage) => void, opts?: { queue?: string }): BusSubscription;
  /**
   * Resolves once everything sent so far (subscriptions included) has reached the
   * server, so a service can say "ready" only when others can already reach it.
   * Optional: added after the first version of this interface.
   */
  flush?(): Promise<void>;
  /**
   * Durable publish (a JetStream stream on NATS): resolves once the stream has stored the message.
   * `id` deduplicates a producer's retries (the stream drops a second message with the same id in its
   * duplicate window). Only for facts that must not be lost (a game result); the hot path stays core NATS.
   */
  publishDurable?(subject: string, data: Wire, id: string): Promise<void>;
  /**
   * A durable consumer named `durable` of `subject`: every message stored is handed to one consumer of that
   * name (across processes), and acknowledged only when `handler` resolves; a rejection, or a process that
   * dies before it resolves, gets the message delivered again. Handlers must be idempotent. Deliveries are
   * bounded (durable-policy.ts): an event still refused after them, or refused with a `permanent` error,
   * is parked in the subject's dead-letter stream and reported to `options.onParked`.
   */
  consumeDurable?(
    subject: string,
    durable: string,
    handler: (data: Wire) => Promise<void>,
    options?: DurableConsumerOptions,
  ): Promise<BusSubscription>;
  /**
   * Whether the bus can carry messages now (NATS: connected, not reconnecting); readiness follows it.
   * Optional like `flush`; absent means always.
   */
  connected?(): boolean;
  /**
   * Calls `listener(false)` when the bus loses its server and `listener(true)` once it is back (NATS status
   * events). A room worker holds its rooms across such a gap: while it was away a matchmaker may have failed
   * them over, so it checks every lease before answering again. Returns the unsubscribe. Optional; absent
   * means the bus never drops (the in-process bus).
   */
  onConnectionChange?(listener: (up: boolean) => void): () => void;
  /** Lets in-flight handlers finish, then closes. */
  close(): Promise<void>;
}

/** What a service sends and subscribes with; a `SubjectFamily` is one too. */
export type BusClient = Pick<Bus, 'publish' | 'request' | 'subscribe'>;

/**
 * No reply in time. Routine (a worker restarting, a room being restored), and raised from a timer or
 * the reply subscription, where a stack says nothing: none is captured. Under the bot swarm their
 * stack traces were 1.4 % of the gateway's busy samples (`--cpu-prof`, 2026-12-03).
 */
export class BusTimeoutError extends Error {
  constructor(subject: string) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`no reply on ${subject}`);
    Error.stackTraceLimit = limit;
    this.name = 'BusTimeoutError';
  }
}

/**
 * Nobody was subscribed to the subject at all (NATS "no responders", answered by the server at once): unlike
 * a plain timeout this says the serving process is not on the bus, which failover detection relies on. A
 * BusTimeoutError, so every caller that only retries on "no reply" keeps working unchanged.
 */
export class BusNoRespondersError extends BusTimeoutError {
  constructor(subject: string) {
    super(subject);
    this.message = `no responders on ${subject}`;
    this.name = 'BusNoRespondersError';
  }
}
