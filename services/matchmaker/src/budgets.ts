/**
 * Quick-match budgets (issue 36): how often one user and one client address
 * may ask for a quick match, and how many tables one address may start, per
 * minute. One address with 59 guests opened 663 live tables in 67 s before.
 *
 * The counters are the lobby's mechanism (services/lobby/src/limits/rate.ts):
 * rate-limiter-flexible fixed windows, in Redis when the matchmaker is given a
 * client (every replica then shares one count), in this process otherwise.
 * While Redis is unreachable each replica counts on its own (the insurance
 * limiter) instead of letting everything through or refusing everyone.
 *
 * A user waits in at most one queue at a time: that is the match store's rule
 * (MatchStore.enqueue leaves any other queue), not a counter here.
 */
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RedisClient } from '@joke/stores';
import type { RefusalCode } from '@joke/protocol';
import type { MatchmakerConfig } from './config.ts';

/** The window of every budget here: the per-minute figures of the configuration. */
const WINDOW_SECONDS = 60;

export interface QueueBudgets {
  /**
   * Counts one quick-match request of `userId` from `addr` (a cancel is never counted). The refusal
   * code when a budget is spent: the user's rate, the address's rate, or the address's tables (read,
   * not charged: a table is charged when it starts).
   */
  admit(userId: string, addr: string | undefined): Promise<RefusalCode | null>;
  /**
   * Charges one started table to each address (callers pass them deduplicated). All or nothing: when
   * some address has no table left, the others are given theirs back and the spent addresses returned.
   */
  chargeTable(addrs: string[]): Promise<{ ok: true } | { ok: false; spent: string[] }>;
  /** Gives back what `chargeTable` took (the table could not start after all). */
  refund(addrs: string[]): Promise<void>;
  readonly kind: 'redis' | 'memory';
}

type Limiter = RateLimiterAbstract;

function limiter(points: number, name: string, redis: RedisClient | null, namespace: string): Limiter | null {
  if (points === 0) return null;
  const base = { points, duration: WINDOW_SECONDS, keyPrefix: `${namespace ? `${namespace}:` : ''}mm:rl:${name}` };
  const memory = new RateLimiterMemory(base);
  return redis
    ? new RateLimiterRedis({
        ...base,
        storeClient: redis,
        useRedisPackage: true,
        rejectIfRedisNotReady: true,
        insuranceLimiter: memory,
      })
    : memory;
}

/** True when allowed; false past the limit; store failures other than a refusal propagate. */
const consume = (l: Limiter, key: string): Promise<boolean> =>
  l.consume(key).then(
    () => true,
    (e: unknown) => {
      if (e instanceof RateLimiterRes) return false;
      throw e;
    },
  );

export function createQueueBudgets(
  cfg: Pick<MatchmakerConfig, 'queueRatePerUser' | 'queueRatePerAddress' | 'queueTablesPerAddress' | 'namespace'>,
  redis: RedisClient | null,
): QueueBudgets {
  const ns = cfg.namespace;
  const perUser = limiter(cfg.queueRatePerUser, 'queue:user', redis, ns);
  const perAddress = limiter(cfg.queueRatePerAddress, 'queue:addr', redis, ns);
  const tables = limiter(cfg.queueTablesPerAddress, 'tables:addr', redis, ns);

  const tablesLeft = async (addr: string): Promise<boolean> => {
    if (!tables) return true;
    const res = await tables.get(addr);
    // The memory store reports a window that has ended until its own timer deletes it.
    return !res || res.msBeforeNext <= 0 || res.consumedPoints < cfg.queueTablesPerAddress;
  };

  return {
    kind: redis ? 'redis' : 'memory',
    async admit(userId, addr) {
      if (perUser && !(await consume(perUser, userId))) return 'tooMany';
      if (addr === undefined) return null;
      if (perAddress && !(await consume(perAddress, addr))) return 'addressQueueRate';
      if (!(await tablesLeft(addr))) return 'addressTables';
      return null;
    },
    async chargeTable(addrs) {
      if (!tables || addrs.length === 0) return { ok: true };
      const charged: string[] = [];
      const spent: string[] = [];
      for (const a of addrs) {
        // A refused consume still counts in rate-limiter-flexible: give that point back as well.
        if (await consume(tables, a)) charged.push(a);
        else spent.push(a);
      }
      if (spent.length === 0) return { ok: true };
      await Promise.all([...charged, ...spent].map((a) => tables.reward(a, 1)));
      return { ok: false, spent };
    },
    async refund(addrs) {
      if (tables) await Promise.all(addrs.map((a) => tables.reward(a, 1)));
    },
  };
}
