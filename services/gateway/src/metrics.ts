/** Prometheus metrics of one gateway, in its own registry (several gateways may share a process). */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface GatewayMetrics {
  registry: Registry;
  sockets: Gauge;
  messagesIn: Counter<'type'>;
  messagesOut: Counter;
  actionLatency: Histogram;
  rejects: Counter<'reason'>;
  busErrors: Counter<'op'>;
  slowConsumers: Counter;
}

export function createMetrics(gatewayId: string, defaultMetrics: boolean): GatewayMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ gateway: gatewayId });
  if (defaultMetrics) collectDefaultMetrics({ register: registry });
  return {
    registry,
    sockets: new Gauge({ name: 'gateway_sockets', help: 'Open WebSockets', registers: [registry] }),
    messagesIn: new Counter({
      name: 'gateway_messages_in_total',
      help: 'Client messages received, by type (invalid ones as "invalid")',
      labelNames: ['type'],
      registers: [registry],
    }),
    messagesOut: new Counter({
      name: 'gateway_messages_out_total',
      help: 'Frames sent to sockets',
      registers: [registry],
    }),
    actionLatency: new Histogram({
      name: 'gateway_action_latency_seconds',
      help: 'From receiving an action to sending its ack/rejected',
      buckets: [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10],
      registers: [registry],
    }),
    rejects: new Counter({
      name: 'gateway_rejects_total',
      help: 'Client messages refused, by reason (error code, or "game" for a game rejection)',
      labelNames: ['reason'],
      registers: [registry],
    }),
    busErrors: new Counter({
      name: 'gateway_bus_errors_total',
      help: 'Failed bus requests and publishes, by operation',
      labelNames: ['op'],
      registers: [registry],
    }),
    slowConsumers: new Counter({
      name: 'gateway_slow_consumers_total',
      help: 'Sockets dropped because their send buffer passed maxBackpressureBytes',
      registers: [registry],
    }),
  };
}
