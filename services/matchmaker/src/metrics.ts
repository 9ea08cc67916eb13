/** The matchmaker's Prometheus metrics (served on its ops port). */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import { aliasPrefix } from '@joke/ops';

export type MatchmakerMetrics = ReturnType<typeof createMatchmakerMetrics>;

export function createMatchmakerMetrics(registry: Registry) {
  const registers = [registry];
  const metrics = {
    live: new Gauge({ name: 'joke_matchmaker_live_workers', help: 'Live, non-draining workers', registers }),
    placed: new Counter({
      name: 'joke_matchmaker_rooms_placed_total',
      help: 'Rooms opened on a worker',
      labelNames: ['kind'] as const,
      registers,
    }),
    failovers: new Counter({
      name: 'joke_matchmaker_failovers_total',
      help: 'Worker deaths handled by this replica',
      registers,
    }),
    deaths: new Counter({
      name: 'joke_matchmaker_worker_deaths_total',
      help: 'Workers this replica found dead, by how: heartbeat timeout or no responders to its ping',
      labelNames: ['why'] as const,
      registers,
    }),
    busyNotDead: new Counter({
      name: 'joke_matchmaker_busy_not_dead_total',
      help: 'Workers late with their heartbeats that were kept (or whose failover stopped) for a sign of life, by sign: lease, ping, heartbeat',
      labelNames: ['sign'] as const,
      registers,
    }),
    refusedCapacity: new Counter({
      name: 'joke_matchmaker_refused_capacity_total',
      help: 'New tables refused because no worker had headroom (code capacity)',
      registers,
    }),
    pauses: new Counter({
      name: 'joke_matchmaker_paused_checks_total',
      help: 'Dead checks that ran over a period late (this process was paused); the pause was not counted as silence',
      registers,
    }),
    failoverSeconds: new Histogram({
      name: 'joke_matchmaker_failover_seconds',
      help: 'Death detected → every room restored',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers,
    }),
    matched: new Counter({
      name: 'joke_matchmaker_queue_tables_total',
      help: 'Quick-match tables started, by how many gateways their human players came through (one: each move reaches one gateway)',
      labelNames: ['gateways'] as const,
      registers,
    }),
    botFilled: new Counter({
      name: 'joke_matchmaker_queue_bot_filled_total',
      help: 'Quick-match tables started with bots in the seats nobody came for',
      registers,
    }),
    refused: new Counter({
      name: 'joke_matchmaker_queue_refused_total',
      help: 'Quick-match requests refused, and queued users turned away, by a budget (code: tooMany, addressQueueRate, addressTables)',
      labelNames: ['code'] as const,
      registers,
    }),
    errors: new Counter({
      name: 'joke_matchmaker_errors_total',
      help: 'Failures by kind',
      labelNames: ['kind'] as const,
      registers,
    }),
  };
  // The names before joke_matchmaker_ (joke_mm_), for one release (docs/operations.md, "Metric names").
  aliasPrefix(registry, 'joke_matchmaker_', 'joke_mm_');
  return metrics;
}
