/**
 * Per-address and per-user rate limits on the calls an abuser would repeat:
 * guest sign-in, room creation, joining/watching, starting a table (each start
 * opens a live table on a worker: issue 36). rate-limiter-flexible keeps
 * the counters: in Redis when the lobby has one (every replica then shares
 * them, and a Redis outage falls back to per-process counters instead of
 * letting everything through or refusing everyone), in memory otherwise.
 */
import { TRPCError } from '@trpc/server';
import { createClient } from 'redis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from 'pino';
import { MSG } from '../messages.ts';
import type { LobbyLimits } from './options.ts';

export type LimitedAction = 'guest' | 'create' | 'join' | 'start';
export type LimitScope = 'ip' | 'user';

const PER: Record<LimitedAction, Record<LimitScope, keyof LobbyLimits>> = {
  guest: { ip: 'guestPerIp', user: 'guestPerUser' },
  create: { ip: 'createPerIp', user: 'createPerUser' },
  join: { ip: 'joinPerIp', user: 'joinPerUser' },
  start: { ip: 'startPerIp', user: 'startPerUser' },
};

export interface RateLimits {
  /** Counts one call; throws TOO_MANY_REQUESTS (with the wait in Korean) past the limit. */
  hit(action: LimitedAction, scope: LimitScope, key: string): Promise<void>;
  /** Where the counters live. */
  kind: 'redis' | 'memory';
  close(): Promise<void>;
}

type Redis = ReturnType<typeof createClient>;

export async function createRateLimits(
  limits: LobbyLimits,
  opts: {
    redisUrl?: string;
    namespace?: string;
    log: Logger;
    onLimited?: (action: LimitedAction, scope: LimitScope) => void;
  },
): Promise<RateLimits> {
  let redis: Redis | null = null;
  if (opts.redisUrl) {
    redis = createClient({ url: opts.redisUrl });
    // node-redis reconnects by itself; without a listener an outage would crash the process.
    redis.on('error', (err) => opts.log.warn({ err }, 'rate-limit redis error'));
    await redis.connect();
  }
  const prefix = `${opts.namespace ? `${opts.namespace}:` : ''}lobby:rl`;
  const limiters = new Map<string, RateLimiterAbstract>();
  for (const [action, scopes] of Object.entries(PER))
    for (const [scope, key] of Object.entries(scopes)) {
      const points = limits[key] as number;
      if (points === 0) continue;
      const base = { points, duration: 60, keyPrefix: `${prefix}:${action}:${scope}` };
      const memory = new RateLimiterMemory(base);
      limiters.set(
        `${action}:${scope}`,
        redis
          ? new RateLimiterRedis({
              ...base,
              storeClient: redis,
              useRedisPackage: true,
              rejectIfRedisNotReady: true,
              insuranceLimiter: memory,
            })
          : memory,
      );
    }
  return {
    kind: redis ? 'redis' : 'memory',
    async hit(action, scope, key) {
      const limiter = limiters.get(`${action}:${scope}`);
      if (!limiter) return;
      try {
        await limiter.consume(key);
      } catch (e) {
        if (!(e instanceof RateLimiterRes)) throw e;
        const seconds = Math.max(1, Math.ceil(e.msBeforeNext / 1000));
        opts.onLimited?.(action, scope);
        throw new TRPCError({ code: 'TOO_MANY_REQUESTS', message: MSG.tooManyRequests(seconds) });
      }
    },
    async close() {
      await redis?.close();
    },
  };
}
