/**
 * What replica confirmation costs a snapshot write (SNAPSHOT_REPLICAS=0 vs 1),
 * on the local Redis Cluster of scripts/cluster.sh (3 primaries + 3 replicas,
 * started and stopped here), in one run so the rows compare:
 *
 *   npm run bench:replicas -w services/stores -- --rooms 200 --seconds 8
 *
 * Each room writes as a worker does under write-before-ack: its next snapshot
 * (one action: a step and the new state, ≈ 600 bytes) only once the previous
 * write resolved, so writes/s is the actions/s the store lets through and the
 * latency is what every action's ack waits for in the store. Figures, not
 * assertions: the box is shared.
 */
import { randomBytes } from 'node:crypto';
import { startLocalCluster } from '@joke/bus/local-cluster';
import { connectRedisConn, RedisSnapshotStore } from '../src/index.ts';

const arg = (name: string, def: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : def;
};
const ROOMS = Number(arg('rooms', '200'));
const SECONDS = Number(arg('seconds', '8'));
const SETTINGS = arg('replicas', '0,1,0,1').split(',').map(Number);
const DATA = 'x'.repeat(600);

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

const cluster = await startLocalCluster();
try {
  const conn = await connectRedisConn({ clusterUrls: cluster.redisClusterUrls });
  console.log(`Redis Cluster 3 primaries + 3 replicas, ${ROOMS} rooms writing back to back, ${SECONDS} s per row`);
  console.log('SNAPSHOT_REPLICAS | writes/s | p50 ms | p99 ms | max ms | refused');
  for (const [row, replicas] of SETTINGS.entries()) {
    const ns = `joke:bench${randomBytes(4).toString('hex')}`;
    const store = new RedisSnapshotStore(conn, ns, { confirm: { replicas, timeoutMs: 1_000 } });
    const rooms = Array.from({ length: ROOMS }, (_, i) => `b${row}-${i}`);
    for (const id of rooms) await store.createRoom(id, 'w', { seq: 1, data: DATA, steps: [] }, 60_000);
    const lat: number[] = [];
    let refused = 0;
    const end = performance.now() + SECONDS * 1000;
    await Promise.all(
      rooms.map(async (id) => {
        for (let seq = 2; performance.now() < end;) {
          const t0 = performance.now();
          try {
            await store.write(id, 1, 'w', { seq, data: DATA, steps: [`{"a":${seq}}`] }, 60_000);
            lat.push(performance.now() - t0);
            seq++;
          } catch {
            refused++;
          }
        }
      }),
    );
    lat.sort((a, b) => a - b);
    const f = (n: number) => n.toFixed(1);
    console.log(
      `${replicas} | ${Math.round(lat.length / SECONDS)} | ${f(pct(lat, 0.5))} | ${f(pct(lat, 0.99))} | ${f(lat[lat.length - 1])} | ${refused}`,
    );
  }
  await conn.close();
} finally {
  await cluster.stop();
}
