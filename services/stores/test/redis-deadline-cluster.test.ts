/**
 * The shared-signal bound on store scripts (src/store/redis-deadline.ts) on a
 * real Redis Cluster (3 primaries + 3 replicas, scripts/cluster.sh), through
 * ClusterRedis: each script reaches its node's connection with its slot's
 * signal and `timeout: 0`, so node-redis arms no timer of its own, and a
 * script whose node cannot be reached is still rejected once the 5 s bound has
 * passed, as node-redis's own timeout did. The node is cut off through a TCP
 * relay the test owns (node-redis's `nodeAddressMap`): the cluster itself
 * stays healthy, so no failover or topology change races the bound.
 */
import { createHash } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { startLocalCluster, type LocalCluster } from '@joke/bus/local-cluster';
import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterRedis, connectRedisConn, type RedisClusterClient } from '../src/index.ts';
import { COMMAND_BOUND_MS } from '../src/redis-deadline.ts';

const SCRIPT = "return redis.call('SET', KEYS[1], ARGV[1])";
const SHA = createHash('sha1').update(SCRIPT).digest('hex');
let cluster: LocalCluster;
let conn: ClusterRedis;
/** One key per primary, so every script path (each node's connection) is covered. */
let keyPerPrimary: string[];

/** Counts node-redis's per-command timers (commands-queue.js arms one `AbortSignal.timeout` per command). */
async function timersArmedBy(run: () => Promise<unknown>): Promise<number> {
  const timeout = AbortSignal.timeout;
  let armed = 0;
  AbortSignal.timeout = (ms: number) => (armed++, timeout.call(AbortSignal, ms));
  try {
    await run();
  } finally {
    AbortSignal.timeout = timeout;
  }
  return armed;
}

/** A TCP relay to 127.0.0.1:`port` that can cut every connection and refuse new ones, then come back. */
async function relay(port: number) {
  const sockets = new Set<Socket>();
  let server: Server;
  const listen = (at: number) =>
    new Promise<number>((ok) => {
      server = createServer((down) => {
        const up = connect(port, '127.0.0.1');
        for (const s of [down, up]) {
          sockets.add(s);
          s.on('error', () => {});
          s.on('close', () => (sockets.delete(s), down.destroy(), up.destroy()));
        }
        down.pipe(up).pipe(down);
      });
      server.listen(at, '127.0.0.1', () => ok((server.address() as { port: number }).port));
    });
  const at = await listen(0);
  return {
    port: at,
    cut: async () => {
      await new Promise<void>((ok) => {
        server.close(() => ok());
        for (const s of sockets) s.destroy();
      });
    },
    restore: () => listen(at),
  };
}

beforeAll(async () => {
  cluster = await startLocalCluster();
  conn = (await connectRedisConn({ clusterUrls: cluster.redisClusterUrls })) as ClusterRedis;
  const byPrimary = new Map<string, string>();
  for (let i = 0; byPrimary.size < conn.client.masters.length; i++) {
    const key = `deadline:{k${i}}`;
    if (!byPrimary.has(conn.primaryOf(key))) byPrimary.set(conn.primaryOf(key), key);
  }
  keyPerPrimary = [...byPrimary.values()];
});
afterAll(async () => {
  try {
    await conn?.close();
  } finally {
    await cluster?.stop();
  }
});

describe('ClusterRedis scripts under the shared deadline', () => {
  it('reach every node with their slot’s one signal and timeout 0, arming no per-command timer', async () => {
    const run = (c: Pick<ClusterRedis, 'eval' | 'evalSha'>) =>
      Promise.all(keyPerPrimary.flatMap((key) => [c.eval(SCRIPT, [key], ['e']), c.evalSha(SHA, [key], ['s'])]));
    // The control: the same scripts through the plain cluster client each arm node-redis's 5 s timer.
    const plain = {
      eval: (src: string, keys: string[], args: string[]) => conn.client.eval(src, { keys, arguments: args }),
      evalSha: (sha: string, keys: string[], args: string[]) => conn.client.evalSha(sha, { keys, arguments: args }),
    };
    // evalSha after eval in one batch: each node has the script cached by its EVAL, sent first on that connection.
    expect(await timersArmedBy(() => run(plain))).toBeGreaterThanOrEqual(keyPerPrimary.length * 2);

    // What each primary's own connection is asked to send (the options node-redis's queue acts on).
    const sent: { timeout?: number; abortSignal?: AbortSignal }[] = [];
    const restore: (() => void)[] = [];
    for (const master of conn.client.masters) {
      const node = await conn.client.nodeClient(master);
      const send = node.sendCommand;
      node.sendCommand = function (this: typeof node, ...a: Parameters<typeof send>) {
        sent.push(a[1] ?? {});
        return send.apply(this, a);
      } as typeof send;
      restore.push(() => (node.sendCommand = send));
    }
    let replies: unknown[];
    const t0 = performance.now();
    let spanMs = 0;
    try {
      expect(
        await timersArmedBy(async () => {
          const answers = run(conn);
          // Every command is handed to its node's connection by now; the answers may come later.
          spanMs = performance.now() - t0;
          replies = await answers;
        }),
      ).toBe(0);
    } finally {
      for (const r of restore) r();
    }
    expect(replies!).toEqual(keyPerPrimary.flatMap(() => ['OK', 'OK']));
    expect(sent).toHaveLength(keyPerPrimary.length * 2);
    expect(sent.every((o) => o.timeout === 0 && o.abortSignal instanceof AbortSignal && !o.abortSignal.aborted)).toBe(
      true,
    );
    // Commands share their 100 ms slot's signal: one signal for the batch on a quiet box. A loaded box may
    // spread the sends over more slots, each opened ≥ 100 ms after the last (the first may be older than t0).
    const signals = new Set(sent.map((o) => o.abortSignal));
    expect(signals.size).toBeLessThanOrEqual(Math.floor(spanMs / 100) + 2);
    expect(signals.size).toBeLessThan(sent.length);
  });

  it('drops the scripts its node could not be sent once the bound has passed, never before bound - 100 ms', async () => {
    // The primary of one key, reached only through the relay; every other node directly.
    const victim = conn.primaryOf(keyPerPrimary[0]);
    const link = await relay(Number(victim.split(':')[1]));
    const client: RedisClusterClient = createCluster({
      rootNodes: cluster.redisClusterUrls.map((url) => ({ url })),
      // As redis-conn.ts: keeps reconnecting, so scripts wait in the node's offline queue meanwhile.
      defaults: { socket: { reconnectStrategy: () => 20 } },
      nodeAddressMap: (address) => (address === victim ? { host: '127.0.0.1', port: link.port } : undefined),
    });
    client.on('error', () => {});
    await client.connect();
    const cut = new ClusterRedis(client);
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    try {
      expect(await cut.eval(SCRIPT, [keyPerPrimary[0]], ['before'])).toBe('OK');
      // node-redis noticed the loss and reconnects (to a closed port): scripts now queue, unsent.
      const down = new Promise((ok) => client.once('node-reconnecting', ok));
      await link.cut();
      await down;
      process.on('warning', onWarning);
      const t0 = performance.now();
      // More than the default listener limit (10) on one slot's signal: no leak warning.
      const settled = await Promise.allSettled(
        Array.from({ length: 20 }, (_, i) => cut.eval(SCRIPT, [keyPerPrimary[0]], [`lost ${i}`])),
      );
      const waited = performance.now() - t0;
      const reasons = settled.map((s) => (s.status === 'rejected' ? (s.reason as Error).constructor.name : s.status));
      // AbortError is the slot's signal; node-redis's own timer would have rejected with a TimeoutError.
      expect(reasons).toEqual(Array(20).fill('AbortError'));
      expect(waited).toBeGreaterThanOrEqual(COMMAND_BOUND_MS - 105);
      expect(waited).toBeLessThan(COMMAND_BOUND_MS + 1500);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);

      // Once the node can be reached again the same connection carries scripts as before.
      await link.restore();
      expect(await cut.eval(SCRIPT, [keyPerPrimary[0]], ['after'])).toBe('OK');
      expect(await conn.get(keyPerPrimary[0])).toBe('after');
    } finally {
      process.off('warning', onWarning);
      client.destroy();
      await link.cut();
    }
  });
});
