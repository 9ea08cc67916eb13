import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { aliasMetrics } from '@joke/ops';

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;

/** One registry per worker, so several workers (tests, embedded mode) never clash. */
export function createWorkerMetrics(registry = new Registry()) {
  const registers = [registry];
  const metrics = {
    registry,
    rooms: new Gauge({ name: 'joke_worker_rooms', help: 'Rooms held by this worker', registers }),
    transitions: new Counter({
      name: 'joke_worker_transitions_total',
      help: 'Accepted transitions by origin',
      labelNames: ['kind'] as const,
      registers,
    }),
    rejected: new Counter({ name: 'joke_worker_rejected_total', help: 'Actions the game refused', registers }),
    duplicates: new Counter({
      name: 'joke_worker_duplicate_commands_total',
      help: 'Retried actionIds answered from memory',
      registers,
    }),
    actionSeconds: new Histogram({
      name: 'joke_worker_action_seconds',
      help: 'Command received → persisted and answered',
      buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers,
    }),
    snapshotSeconds: new Histogram({
      name: 'joke_worker_snapshot_write_seconds',
      help: 'Snapshot write (conditional on the lease epoch) round trip',
      buckets: [0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1],
      registers,
    }),
    snapshotBytes: new Histogram({
      name: 'joke_worker_snapshot_bytes',
      help: 'Bytes of a snapshot write: the whole snapshot when it carries one, plus its record steps',
      buckets: [128, 256, 512, 1024, 2048, 4096, 8192, 16384, 65536],
      registers,
    }),
    snapshotWrites: new Counter({
      name: 'joke_worker_snapshot_writes_total',
      help: 'Snapshot writes by kind: whole (the room snapshot) or steps (record steps only, SNAPSHOT_BASE_STEPS)',
      labelNames: ['kind'] as const,
      registers,
    }),
    errors: new Counter({
      name: 'joke_worker_errors_total',
      help: 'Failures by kind: bus, store (Redis), stale (fenced out), game (engine threw), gap (steps-only write sent whole)',
      labelNames: ['kind'] as const,
      registers,
    }),
    storeLost: new Counter({
      name: 'joke_worker_store_lost_total',
      help: 'Rooms whose state the store lost (wiped, or restarted without persistence): tables that could not go on',
      registers,
    }),
    restores: new Counter({ name: 'joke_worker_restores_total', help: 'Rooms taken over from a snapshot', registers }),
    migrated: new Counter({
      name: 'joke_worker_migrated_total',
      help: 'Rooms handed to another worker by live migration',
      registers,
    }),
    intakeDeferred: new Counter({
      name: 'joke_worker_intake_deferred_total',
      help: 'Opens and joins that waited behind the commands of playing tables (outcome deferred), and how each ended: started, or refused with code capacity',
      labelNames: ['kind', 'outcome'] as const,
      registers,
    }),
    intakeBacklog: new Gauge({
      name: 'joke_worker_intake_backlog',
      help: 'Items waiting in the room queues at the last heartbeat (what INTAKE_DEFER_QUEUED compares)',
      registers,
    }),
    liveRooms: new Gauge({
      name: 'joke_worker_live_rooms',
      help: 'Rooms not finished with a connected player at the last heartbeat (the rest play out on substitutes); admission projects a new table from their CPU',
      registers,
    }),
    loopLag: new Gauge({
      name: 'joke_worker_event_loop_lag_seconds',
      help: 'Event loop delay p99 over the last heartbeat, in seconds',
      registers,
    }),
  };
  // The gauge was in ms before base units; its old name stays for one release (docs/operations.md, "Metric names").
  aliasMetrics(registry, [
    { current: 'joke_worker_event_loop_lag_seconds', old: 'joke_worker_event_loop_lag_ms', scale: 1000 },
  ]);
  return metrics;
}
