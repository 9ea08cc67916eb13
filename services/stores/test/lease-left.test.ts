/**
 * `leaseLeft` (issue 37, busy is not dead): the time left on a sample of an owner's live leases, from which
 * the matchmaker reads when the owner last renewed one. Memory and Redis alike.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  connectRedis,
  MemorySnapshotStore,
  RedisSnapshotStore,
  type RedisClient,
  type SnapshotStore,
} from '../src/index.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const first = { seq: 0, data: 'd0', steps: [] };
const clients: RedisClient[] = [];
afterAll(async () => {
  for (const c of clients) await c.quit();
});

const stores: [string, () => Promise<SnapshotStore>][] = [
  ['memory', async () => new MemorySnapshotStore()],
  [
    'redis',
    async () => {
      const c = await connectRedis(REDIS_URL);
      clients.push(c);
      return new RedisSnapshotStore(c, `leaseleft-${randomBytes(4).toString('hex')}`);
    },
  ],
];

describe.each(stores)('leaseLeft (%s)', (_name, make) => {
  it("reads only the owner's live leases, each at most its TTL, and a renewal resets it", async () => {
    const s = await make();
    await s.createRoom('a', 'w0', first, 60_000);
    await s.createRoom('b', 'w0', first, 60_000);
    await s.createRoom('c', 'w1', first, 60_000);
    const left = await s.leaseLeft!('w0', 32);
    expect(left).toHaveLength(2);
    for (const ms of left) expect(ms).toBeGreaterThan(50_000);
    for (const ms of left) expect(ms).toBeLessThanOrEqual(60_000);
    // Taken over by w1: no longer w0's, whatever the hint still says.
    await s.acquire('b', 'w1', 60_000);
    expect(await s.leaseLeft!('w0', 32)).toHaveLength(1);
    await s.renew('w0', [{ roomId: 'a', epoch: 1 }], 120_000);
    expect((await s.leaseLeft!('w0', 32))[0]).toBeGreaterThan(60_000);
    expect(await s.leaseLeft!('nobody', 32)).toEqual([]);
    await s.close();
  });
});
