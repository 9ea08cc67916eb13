/**
 * Busy is not dead: what besides a heartbeat proves a worker is still working.
 * A saturated worker (or a saturated matchmaker, or bus) delivers heartbeats
 * late, but its snapshot writes and lease renewals still reach the store, and
 * each one resets that room's lease to the worker's TTL. So `now + left - ttl`
 * of its freshest lease is when it last did something: later than its last
 * heartbeat, it is alive. At 6,000 tables on one box the matchmaker failed
 * both live workers over for late heartbeats alone, and the moves kept the
 * stack down (issue 37).
 *
 * Stateless: each call reads a small sample of the worker's leases (a store
 * without `leaseLeft`, or a worker that did not say its TTL, gives no
 * evidence: the heartbeat deadline alone decides, as before). A store error
 * is no evidence either: a worker that cannot reach the store cannot keep its
 * tables anyway.
 */
import type { SnapshotStore } from '@joke/stores';

/** Leases read per look: enough that one busy table among a worker's idle ones is likely in it. */
export const LEASE_SAMPLE = 32;

/**
 * When `workerId` last renewed any lease of the sample (clock ms, on the clock of `now`), or null when
 * nothing can be told.
 */
export async function lastRenewal(
  snapshots: SnapshotStore,
  workerId: string,
  leaseTtlMs: number | undefined,
  now: () => number,
): Promise<number | null> {
  if (!snapshots.leaseLeft || !leaseTtlMs) return null;
  try {
    const left = await snapshots.leaseLeft(workerId, LEASE_SAMPLE);
    if (left.length === 0) return null;
    return now() + Math.max(...left) - leaseTtlMs;
  } catch {
    return null;
  }
}
