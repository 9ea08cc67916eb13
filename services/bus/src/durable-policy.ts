/**
 * How often a durable event is handed to its consumer before it is parked (dead-lettered), shared by the
 * JetStream consumer (nats-durable.ts) and the in-process one (in-process-durable.ts) so both behave alike.
 *
 * Two kinds of failure, told apart by the handler:
 * - permanent: the handler rejects with an error marked `permanent: true` (an event PostgreSQL refuses,
 *   one that does not decode): redelivering cannot help, so it is parked at once;
 * - anything else counts as transient (the database is down, a timeout): delivered again after a growing
 *   delay (1 s … 5 min, ≈ 29 min in all over 12 deliveries), then parked. A PostgreSQL outage of a few
 *   minutes therefore parks nothing; a longer one parks what it could not store, and an operator replays
 *   the dead-letter stream once it is back (docs/operations.md, "Dead letters").
 * A delivery the consumer never answers (the process died, or hung past the ack wait) is delivered again
 * by the server; past the budget it is parked without running the handler, so a crash loop is bounded too.
 */
import type { Wire } from './types.ts';

export interface DeliveryPolicy {
  /** Deliveries before an event that keeps failing is parked. */
  maxDeliveries: number;
  /** Delay before delivery n+1 after the n-th failed (index n-1; the last value repeats). */
  retryDelaysMs: readonly number[];
}

const S = 1000;
export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  maxDeliveries: 12,
  retryDelaysMs: [1 * S, 5 * S, 15 * S, 30 * S, 60 * S, 120 * S, 300 * S],
};

/** What is parked with an event: where it came from and why it could not be handled. */
export interface ParkedEvent {
  /** The subject the event was published on (with the bus prefix). */
  subject: string;
  durable: string;
  data: Wire;
  /** The handler's last error message (cut to 1,000 characters). */
  error: string;
  /** A machine code: the error's `code` (a PostgreSQL SQLSTATE, a Prisma code, …) or its name. */
  code: string;
  /** Deliveries made, the failed last one included. */
  deliveries: number;
  /** Whether the handler declared it permanent (parked at its first failure). */
  permanent: boolean;
  /** ISO time it was parked. */
  at: string;
}

export interface DurableConsumerOptions {
  /** Called once an event is parked (stored in the dead-letter stream), e.g. to count it. */
  onParked?: (event: ParkedEvent) => void;
}

/** Whether a handler said its event can never be handled (`permanent: true` on the error). */
export function isPermanent(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { permanent?: unknown }).permanent === true;
}

/** The error's message and machine code, fit for a NATS header (one line, bounded). */
export function describeFailure(err: unknown): { error: string; code: string } {
  const e = err as { message?: unknown; code?: unknown; name?: unknown } | null;
  const raw = typeof e?.message === 'string' ? e.message : String(err);
  const code = typeof e?.code === 'string' && e.code ? e.code : typeof e?.name === 'string' ? e.name : 'Error';
  const oneLine = (s: string, max: number) => s.replace(/[\r\n\0]+/g, ' ').slice(0, max);
  return { error: oneLine(raw, 1000), code: oneLine(code, 64) };
}

/** Delay before the next delivery after `deliveries` failed ones; null once the budget is spent. */
export function retryDelay(policy: DeliveryPolicy, deliveries: number): number | null {
  if (deliveries >= policy.maxDeliveries) return null;
  const d = policy.retryDelaysMs;
  return d[Math.min(deliveries - 1, d.length - 1)] ?? 0;
}

/** The dead-letter subject of a durable subject (full, prefix included): its own tree, no route under it. */
export const deadLetterSubject = (fullSubject: string) => `dead.${fullSubject}`;
