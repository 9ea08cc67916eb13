/** Prometheus metrics of one gateway, in its own registry (several gateways may share a process). */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { aliasPrefix } from '@joke/ops';

export interface GatewayMetrics {
  registry: Registry;
  sockets: Gauge;
  messagesIn: Counter<'type'>;
  messagesOut: Counter;
  actionLatency: Histogram;
  rejects: Counter<'reason'>;
  busErrors: Counter<'op'>;
  /** Every bus request attempt (retries included), by operation. */
  requests: Counter<'op'>;
  /** Requests (with all their retries) not yet answered or given up, by operation. */
  requestsInFlight: Gauge<'op'>;
  /** Requests whose retries stopped because nobody waited any more (socket closed or left the room). */
  requestsAbandoned: Counter<'op'>;
  /** Failed attempts not retried because the gateway's retry budget was spent (GATEWAY_RETRY_RATIO). */
  retriesRefused: Counter<'op'>;
  /**
   * Joins and quick-match requests refused for want of capacity (code `capacity`), by operation and why:
   * `capacity`/`busy`, the worker refused (no headroom, its intake or the room's queue full); `budget`,
   * `deadline`, its worker was too slow to answer within the retry budget or time. Shed load, not errors.
   */
  admissionRefused: Counter<'op' | 'why'>;
  slowConsumers: Counter;
  /** Frames shed under pressure (shed.ts), by kind: spectator, presence, spectatorPaused. */
  framesShed: Counter<'kind'>;
  /** Spectators joined again after they missed frames to shedding. */
  spectatorResyncs: Counter;
  /** Sockets refused at upgrade or hello by a per-address or per-user socket limit. */
  socketsRefused: Counter<'scope'>;
}

/** prom-client's label values. */
type Labels = Partial<Record<string, string | number>>;

/**
 * prom-client hashes and validates the labels on every inc (measured here: ≈ 0.5 µs for a labelled
 * counter, ≈ 1 µs for a gauge's inc + dec), and the gateway counts several things per action (issue 9).
 * The metrics counted per message add to plain numbers instead and hand them to prom-client when the
 * metric is read (a scrape, or `get()`): same series, same values, read the same way.
 */
function countLocally(metric: Counter<string> | Gauge<string>, label: string | null): void {
  const counts = new Map<string, number>();
  const add = (labels: Labels | number | undefined, n: number | undefined, sign: number): void => {
    const key = typeof labels === 'object' ? String(labels[label!]) : '';
    const by = typeof labels === 'object' ? (n ?? 1) : (labels ?? 1);
    counts.set(key, (counts.get(key) ?? 0) + sign * by);
  };
  // prom-client's own inc (one overload each), kept to hand the sums over at read time.
  const incLabelled: (labels: Labels, n: number) => void = metric.inc.bind(metric);
  const incPlain: (n: number) => void = metric.inc.bind(metric);
  const inc = (labels: Labels | number, n: number): void =>
    typeof labels === 'object' ? incLabelled(labels, n) : incPlain(labels);
  metric.inc = (labels?: Labels | number, n?: number) => add(labels, n, 1);
  if (metric instanceof Gauge) metric.dec = (labels?: Labels | number, n?: number) => add(labels, n, -1);
  const collect = (): void => {
    // A gauge's delta may be negative: prom-client's inc takes any finite delta on a gauge.
    for (const [key, n] of counts) inc(label === null ? n : { [label]: key }, n);
    counts.clear();
  };
  Object.assign(metric, { collect });
}

export function createMetrics(gatewayId: string, defaultMetrics: boolean): GatewayMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ gateway: gatewayId });
  if (defaultMetrics) collectDefaultMetrics({ register: registry });
  const metrics = {
    registry,
    sockets: new Gauge({ name: 'joke_gateway_sockets', help: 'Open WebSockets', registers: [registry] }),
    messagesIn: new Counter({
      name: 'joke_gateway_messages_in_total',
      help: 'Client messages received, by type (invalid ones as "invalid")',
      labelNames: ['type'],
      registers: [registry],
    }),
    messagesOut: new Counter({
      name: 'joke_gateway_messages_out_total',
      help: 'Frames sent to sockets',
      registers: [registry],
    }),
    actionLatency: new Histogram({
      name: 'joke_gateway_action_latency_seconds',
      help: 'From receiving an action to sending its ack/rejected',
      buckets: [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10],
      registers: [registry],
    }),
    rejects: new Counter({
      name: 'joke_gateway_rejects_total',
      help: 'Client messages refused, by reason (error code, or "game" for a game rejection)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    busErrors: new Counter({
      name: 'joke_gateway_bus_errors_total',
      help: 'Failed bus requests and publishes, by operation',
      labelNames: ['op'],
      registers: [registry],
    }),
    requests: new Counter({
      name: 'joke_gateway_bus_requests_total',
      help: 'Bus request attempts (each retry counts), by operation',
      labelNames: ['op'],
      registers: [registry],
    }),
    requestsInFlight: new Gauge({
      name: 'joke_gateway_bus_requests_in_flight',
      help: 'Bus requests still being attempted or retried, by operation',
      labelNames: ['op'],
      registers: [registry],
    }),
    requestsAbandoned: new Counter({
      name: 'joke_gateway_bus_requests_abandoned_total',
      help: 'Bus requests whose retries stopped because the socket closed or left the room',
      labelNames: ['op'],
      registers: [registry],
    }),
    retriesRefused: new Counter({
      name: 'joke_gateway_bus_retries_refused_total',
      help: 'Failed bus requests not retried because the retry budget (GATEWAY_RETRY_RATIO of first tries) was spent',
      labelNames: ['op'],
      registers: [registry],
    }),
    admissionRefused: new Counter({
      name: 'joke_gateway_admission_refused_total',
      help: 'Joins and quick-match requests refused with code capacity (the fleet too busy: shed load, not errors), by op and why: capacity or busy (the worker refused), budget or deadline (the worker too slow to answer within the retry budget or time), commandsLate (quick match refused while the commands this gateway sends come back late: GATEWAY_ADMIT_MAX_COMMAND_MS)',
      labelNames: ['op', 'why'],
      registers: [registry],
    }),
    socketsRefused: new Counter({
      name: 'joke_gateway_sockets_refused_total',
      help: 'Sockets refused by a per-address (ip) or per-user (user) socket limit',
      labelNames: ['scope'],
      registers: [registry],
    }),
    slowConsumers: new Counter({
      name: 'joke_gateway_slow_consumers_total',
      help: 'Sockets dropped because their send buffer passed maxBackpressureBytes',
      registers: [registry],
    }),
    framesShed: new Counter({
      name: 'joke_gateway_frames_shed_total',
      help: 'Frames shed under pressure, by kind: spectator (a spectator frame dropped), presence (a player presence notice held back; the latest goes later), spectatorPaused (a spectator socket past GATEWAY_SHED_BUFFERED_BYTES taken off its room topic)',
      labelNames: ['kind'],
      registers: [registry],
    }),
    spectatorResyncs: new Counter({
      name: 'joke_gateway_spectator_resyncs_total',
      help: 'Spectator rooms or sockets joined again after they missed frames to shedding',
      registers: [registry],
    }),
  };
  // Counted per client message, per socket write and per bus request.
  countLocally(metrics.framesShed, 'kind');
  countLocally(metrics.messagesIn, 'type');
  countLocally(metrics.messagesOut, null);
  countLocally(metrics.requests, 'op');
  countLocally(metrics.requestsInFlight, 'op');
  // The names before the joke_ prefix, read from these at scrape time (no work per message); next release drops them.
  aliasPrefix(registry, 'joke_gateway_', 'gateway_');
  return metrics;
}
