/**
 * The production bus: core NATS (no JetStream on the hot path; room state is
 * made durable by the snapshot store, not by the bus). Callback subscriptions
 * avoid an async iterator per message.
 */
import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { DeliveryPolicy, DurableConsumerOptions } from './durable-policy.ts';
import type { Bus, BusMessage, BusSubscription, TraceHeaders, Wire } from './types.ts';
import { natsServers } from './nats-url.ts';
import { JetStreamEvents } from './nats-durable.ts';
import { DeadLetters } from './nats-dead-letters.ts';
import { ReplyInbox } from './nats-replies.ts';
import { coalesceWrites } from '@joke/patches';

export interface NatsBusOptions {
  /**
   * Prepended (with a dot) to every subject. Tests use a unique one per run so
   * parallel runs on one nats-server never see each other; production leaves it empty.
   */
  prefix?: string;
  onHandlerError?: (err: unknown, subject: string) => void;
  /** Replicas of the durable-event streams (JETSTREAM_REPLICAS; 3 on a 3-node cluster). */
  durableReplicas?: number;
  /**
   * One socket write per event-loop turn instead of one per message (patches/nats-core.ts). On unless
   * NATS_COALESCE_WRITES=0: on the quiet box the whole stack did 23 % more actions/s at 4,000 tables
   * with it, and 19 % less CPU per action (docs/measurements/nats.md, issue 9).
   */
  coalesceWrites?: boolean;
  /**
   * With coalesced writes: at most one socket write per this many ms (NATS_WRITE_GAP_MS, default 1; 0 = every
   * turn). Measured with the whole stack at 1,500 + 1,500 tables side by side: the gateway's CPU per action
   * 271 → 220 µs, the workers' 420 → 397 (docs/measurements/stack-capacity.md, issue 9).
   */
  writeGapMs?: number;
  /**
   * Create the durable-event streams and consumers on first use (JETSTREAM_CREATE_STREAMS, default on). Off
   * under the chart's per-service NATS users, which may not create them: the `joke-streams` setup job does.
   */
  createStreams?: boolean;
  /** Deliveries of a durable event before it is parked (default: durable-policy.ts; tests shorten it). */
  deliveryPolicy?: DeliveryPolicy;
}

/**
 * Where this connection's replies arrive: `_INBOX.<user>` with a NATS user (its permissions allow that
 * subtree only, so one service's credential cannot read another's replies), else the client's `_INBOX`.
 */
export function inboxPrefixOf(user: string | undefined): string {
  return user ? `_INBOX.${user.replace(/[^A-Za-z0-9_-]/g, '_')}` : '_INBOX';
}

/** NATS headers as a plain carrier (first value of each; the trace context has one of each). */
function carrierOf(h: Iterable<[string, string[]]>): TraceHeaders {
  const out: TraceHeaders = {};
  for (const [k, v] of h) if (v.length > 0) out[k] = v[0];
  return out;
}

export class NatsBus implements Bus {
  private readonly prefix: string;
  private readonly onHandlerError: (err: unknown, subject: string) => void;
  private readonly events: JetStreamEvents;
  private readonly replies: ReplyInbox;
  private up = true;
  private readonly connectionListeners = new Set<(up: boolean) => void>();
  /** Whether this connection's writes are coalesced per turn (false: asked not to, or the client's internals changed). */
  readonly writesCoalesced: boolean;

  constructor(
    readonly nc: NatsConnection,
    opts: NatsBusOptions = {},
  ) {
    this.prefix = opts.prefix ? `${opts.prefix}.` : '';
    this.onHandlerError = opts.onHandlerError ?? ((err, subject) => console.error(`bus handler on ${subject}`, err));
    this.events = new JetStreamEvents(nc, {
      replicas: opts.durableReplicas ?? (Number(process.env.JETSTREAM_REPLICAS) || 1),
      maxAgeMs: 7 * 24 * 3600_000,
      onHandlerError: this.onHandlerError,
      createStreams: opts.createStreams ?? process.env.JETSTREAM_CREATE_STREAMS !== '0',
      policy: opts.deliveryPolicy,
    });
    this.replies = new ReplyInbox(nc, (nc as { options?: { inboxPrefix?: string } }).options?.inboxPrefix);
    this.writesCoalesced =
      (opts.coalesceWrites ?? process.env.NATS_COALESCE_WRITES !== '0') &&
      coalesceWrites(nc, opts.writeGapMs ?? Number(process.env.NATS_WRITE_GAP_MS ?? 1));
    void this.watchStatus();
  }

  /** Follows the client's status events: down from a lost socket until the client is back on a server. */
  private async watchStatus(): Promise<void> {
    for await (const s of this.nc.status()) {
      if (s.type === 'disconnect' || s.type === 'reconnecting' || s.type === 'staleConnection') this.setUp(false);
      else if (s.type === 'reconnect') this.setUp(true);
    }
    this.setUp(false);
  }

  private setUp(up: boolean): void {
    if (up === this.up) return;
    this.up = up;
    for (const l of this.connectionListeners) {
      try {
        l(up);
      } catch (err) {
        this.onHandlerError(err, '(connection status)');
      }
    }
  }

  onConnectionChange(listener: (up: boolean) => void): () => void {
    this.connectionListeners.add(listener);
    return () => this.connectionListeners.delete(listener);
  }

  connected(): boolean {
    return this.up && !this.nc.isClosed();
  }

  static async connect(url: string, opts: NatsBusOptions & { name?: string } = {}): Promise<NatsBus> {
    // servers, and user/pass when the URL carries them (nats-url.ts)
    const servers = natsServers(url);
    const nc = await connect({
      ...servers,
      name: opts.name,
      // Replies (own requests, JetStream pulls and acks) under the user's own inbox subtree.
      inboxPrefix: inboxPrefixOf(servers.user),
      // Keep trying for ever: a service without its bus is useless, and NATS restarts are routine.
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      pingInterval: 10_000,
      // Every request would otherwise capture two stack traces up front (≈ 10 % of the gateway's CPU
      // under the bot swarm, per --cpu-prof); a timeout here is routine and BusTimeoutError names it.
      noAsyncTraces: true,
    });
    return new NatsBus(nc, opts);
  }

  publish(subject: string, data: Wire): void {
    this.nc.publish(this.prefix + subject, data);
  }

  /** Over this connection's own reply inbox (nats-replies.ts: the client's request() costs an Error each). */
  request(
    subject: string,
    data: Wire,
    timeoutMs: number,
    arrived?: (data: Wire) => void,
    headers?: TraceHeaders,
  ): Promise<Wire> {
    return this.replies.request(this.prefix + subject, subject, data, timeoutMs, arrived, headers);
  }

  subscribe(subject: string, handler: (msg: BusMessage) => void, opts: { queue?: string } = {}): BusSubscription {
    // The subject a message matched is decoded from its bytes only where it can differ from the subscribed one.
    const wildcard = subject.split('.').some((token) => token === '*' || token === '>');
    const cut = this.prefix.length;
    const sub = this.nc.subscribe(this.prefix + subject, {
      queue: opts.queue,
      callback: (err, m) => {
        if (err) {
          this.onHandlerError(err, subject);
          return;
        }
        // The bytes go to the codec as they are: a delivery's frames are never turned into strings here.
        const msg: BusMessage = { subject: wildcard ? m.subject.slice(cut) : subject, data: m.data };
        if (m.reply) msg.respond = (reply: Wire) => void m.respond(reply);
        // Decoded only when the message has headers (a traced request): an untraced one costs one check.
        const h = m.headers;
        if (h) msg.headers = carrierOf(h);
        try {
          handler(msg);
        } catch (e) {
          this.onHandlerError(e, subject);
        }
      },
    });
    return { unsubscribe: () => sub.unsubscribe() };
  }

  publishDurable(subject: string, data: Wire, id: string): Promise<void> {
    return this.events.publish(this.prefix + subject, data, id);
  }

  consumeDurable(
    subject: string,
    durable: string,
    handler: (data: Wire) => Promise<void>,
    options?: DurableConsumerOptions,
  ): Promise<BusSubscription> {
    return this.events.consume(this.prefix + subject, durable, handler, options);
  }

  /**
   * Creates (or brings to the current delivery policy) a durable subject's stream, its dead-letter stream and
   * the durable consumer `durable`: what the `joke-streams` setup command does with an admin user.
   */
  ensureDurable(subject: string, durable: string): Promise<void> {
    return this.events.ensure(this.prefix + subject, durable);
  }

  /** The dead-letter stream of a durable subject: count, list and replay its parked events (ops, tests). */
  deadLetters(subject: string) {
    const full = this.prefix + subject;
    const dl = new DeadLetters(this.nc);
    return {
      count: () => dl.count(full),
      list: (limit?: number) => dl.list(full, limit),
      replay: (limit?: number) => dl.replay(full, limit),
    };
  }

  /**
   * Deletes the durable-event streams of this bus's prefix (tests on a shared server; each prefix is one
   * run). Refuses without a prefix: production streams are never removed from code.
   */
  removeDurableStreams(): Promise<number> {
    if (!this.prefix) return Promise.reject(new Error('removeDurableStreams needs a prefixed bus'));
    return this.events.removeStreams(this.prefix);
  }

  flush(): Promise<void> {
    return this.nc.flush();
  }

  async close(): Promise<void> {
    if (this.nc.isClosed()) return;
    await this.nc.drain();
    this.replies.endAll();
  }
}
