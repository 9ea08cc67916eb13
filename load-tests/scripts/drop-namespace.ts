/**
 * Removes what one measure-stack run left on the shared NATS and Redis: the namespace's Redis keys
 * (room snapshots, leases, indexes and quick-match queues have no TTL) and its durable-event streams.
 *
 *   node --import tsx load-tests/scripts/drop-namespace.ts NAMESPACE
 *
 * Why: the matchmaker's orphan sweep SCANs the whole keyspace for its namespace's room indexes, so every
 * earlier run's thousands of keys made each later run's sweep slower, and a back-to-back pair of runs
 * was measured on two different Redis contents.
 */
import { NatsBus } from '@joke/bus';
import { connectRedis } from '@joke/stores';

const ns = process.argv[2];
if (!ns || !/^[A-Za-z0-9_-]{1,64}$/.test(ns)) throw new Error('usage: drop-namespace.ts NAMESPACE');
const redis = await connectRedis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
let keys = 0;
for await (const page of redis.scanIterator({ MATCH: `joke:${ns}:*`, COUNT: 1000 })) {
  if (page.length === 0) continue;
  keys += page.length;
  await redis.unlink(page);
}
await redis.close();
const bus = await NatsBus.connect(process.env.NATS_URL ?? 'nats://127.0.0.1:4222', { prefix: ns });
const streams = await bus.removeDurableStreams();
await bus.close();
console.log(`namespace ${ns}: ${keys} Redis keys and ${streams} streams removed`);
