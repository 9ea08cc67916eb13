/**
 * One Redis, or a Redis Cluster, behind the few operations the stores use, so
 * the same store code runs on both: every multi-key operation names keys of
 * one slot and is routed by its first key; scans go node by node.
 */
import { createClient, createCluster } from 'redis';
import { CommandDeadlines } from './redis-deadline.ts';
// For its effect: node-redis's reply queue must not chain shifted commands together (patches/node-redis.ts).
import '@joke/patches';
import { keySlot } from './redis-slots.ts';

const reconnectStrategy = (retries: number) => Math.min(50 * 2 ** retries, 1000);
const makeClient = (url: string) => createClient({ url, socket: { reconnectStrategy } });
const makeCluster = (urls: string[]) =>
  createCluster({ rootNodes: urls.map((url) => ({ url })), defaults: { socket: { reconnectStrategy } } });
export type RedisClient = ReturnType<typeof makeClient>;
export type RedisClusterClient = ReturnType<typeof makeCluster>;

/** What one node can do on its own: the stores only SCAN a node, everything else goes by key. */
export interface RedisNode {
  scan(cursor: string, match: string, type: string): Promise<{ cursor: string; keys: string[] }>;
}

export interface RedisConn {
  readonly cluster: boolean;
  /** EVALSHA, routed by `keys[0]`; every key must share its slot on a cluster. */
  evalSha(sha: string, keys: string[], args: string[]): Promise<unknown>;
  eval(src: string, keys: string[], args: string[]): Promise<unknown>;
  get(key: string): Promise<string | null>;
  /** Milliseconds the key has left (-2: no key, -1: no expiry). */
  pTTL(key: string): Promise<number>;
  /** Same-slot keys only. */
  mGet(keys: string[]): Promise<(string | null)[]>;
  hmGet(key: string, fields: string[]): Promise<(string | null)[]>;
  lRange(key: string, start: number, stop: number): Promise<string[]>;
  sScan(key: string, cursor: string, count: number): Promise<{ cursor: string; members: string[] }>;
  setNxPx(key: string, value: string, ttlMs: number): Promise<boolean>;
  /**
   * WAIT on the connections that wrote `keys` (one WAIT per primary, riding the connection the writes
   * went on): for each key, how many replicas of its primary confirmed every write sent to it so far,
   * after at most `timeoutMs`.
   */
  waitReplicas(keys: string[], replicas: number, timeoutMs: number): Promise<number[]>;
  /**
   * Which primary serves `key` now (an address on a cluster; one name for a single Redis), so writes can be
   * grouped per primary and one failing primary stalls only its own keys.
   */
  primaryOf(key: string): string;
  /** The primaries, for scans. */
  nodes(): Promise<RedisNode[]>;
  /** Whether commands can be sent now (readiness follows it; node-redis reconnects by itself). */
  connected(): boolean;
  close(): Promise<void>;
}

const nodeOf = (c: RedisClient): RedisNode => ({
  async scan(cursor, match, type) {
    const r = await c.scan(cursor, { MATCH: match, TYPE: type, COUNT: 1000 });
    return { cursor: String(r.cursor), keys: r.keys };
  },
});

/** A single Redis (embedded tests, small installs). */
export class SingleRedis implements RedisConn {
  readonly cluster = false;
  /** The scripts (every store write, per player action) bounded by a shared signal, not a timer each. */
  private readonly scripts: CommandDeadlines<RedisClient>;
  constructor(readonly client: RedisClient) {
    this.scripts = new CommandDeadlines((options) => client.withCommandOptions(options) as RedisClient);
  }
  evalSha = (sha: string, keys: string[], args: string[]) =>
    this.scripts.current().evalSha(sha, { keys, arguments: args });
  eval = (src: string, keys: string[], args: string[]) => this.scripts.current().eval(src, { keys, arguments: args });
  get = (key: string) => this.client.get(key);
  pTTL = (key: string) => this.client.pTTL(key);
  mGet = (keys: string[]) => this.client.mGet(keys);
  hmGet = (key: string, fields: string[]) => this.client.hmGet(key, fields);
  lRange = (key: string, start: number, stop: number) => this.client.lRange(key, start, stop);
  async sScan(key: string, cursor: string, count: number) {
    const r = await this.client.sScan(key, cursor, { COUNT: count });
    return { cursor: String(r.cursor), members: r.members };
  }
  async setNxPx(key: string, value: string, ttlMs: number) {
    const r = await this.client.set(key, value, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } });
    return r === 'OK';
  }
  async waitReplicas(keys: string[], replicas: number, timeoutMs: number) {
    const n = Number(await this.client.sendCommand(['WAIT', String(replicas), String(timeoutMs)]));
    return keys.map(() => n);
  }
  primaryOf(): string {
    return 'single';
  }
  async nodes() {
    return [nodeOf(this.client)];
  }
  connected() {
    return this.client.isReady;
  }
  async close() {
    if (this.client.isOpen) await this.client.close();
  }
}

/** A Redis Cluster (node-redis follows MOVED/ASK and failovers; one connection per primary). */
export class ClusterRedis implements RedisConn {
  readonly cluster = true;
  /**
   * The scripts bounded by a shared signal, as on a single Redis. The cluster's own `withCommandOptions`
   * (@redis/client 6.3) hands these options to whichever node the key's slot, a MOVED or an ASK leads to,
   * where they override that node's default 5 s timeout; a redirected script keeps its first slot's
   * deadline instead of getting a fresh 5 s per attempt.
   */
  private readonly scripts: CommandDeadlines<RedisClusterClient>;
  constructor(readonly client: RedisClusterClient) {
    this.scripts = new CommandDeadlines((options) => client.withCommandOptions(options) as RedisClusterClient);
  }
  evalSha = (sha: string, keys: string[], args: string[]) =>
    this.scripts.current().evalSha(sha, { keys, arguments: args });
  eval = (src: string, keys: string[], args: string[]) => this.scripts.current().eval(src, { keys, arguments: args });
  get = (key: string) => this.client.get(key);
  pTTL = (key: string) => this.client.pTTL(key);
  mGet = (keys: string[]) => this.client.mGet(keys);
  hmGet = (key: string, fields: string[]) => this.client.hmGet(key, fields);
  lRange = (key: string, start: number, stop: number) => this.client.lRange(key, start, stop);
  async sScan(key: string, cursor: string, count: number) {
    const r = await this.client.sScan(key, cursor, { COUNT: count });
    return { cursor: String(r.cursor), members: r.members };
  }
  async setNxPx(key: string, value: string, ttlMs: number) {
    const r = await this.client.set(key, value, { condition: 'NX', expiration: { type: 'PX', value: ttlMs } });
    return r === 'OK';
  }
  async waitReplicas(keys: string[], replicas: number, timeoutMs: number) {
    // One WAIT per primary that took the writes, on that primary's own connection (the one the writes went
    // on). Not `sendCommand(key, …)`: node-redis routes WAIT to ALL shards by its command table and keeps the
    // minimum, so one dead primary held up every shard's confirmations.
    const primaryOf = keys.map((key) => this.primaryOf(key));
    const byPrimary = new Map<string, Promise<number>>();
    keys.forEach((key, i) => {
      if (byPrimary.has(primaryOf[i])) return;
      const master = this.client.slots[keySlot(key)]?.master;
      const wait = master
        ? this.client.nodeClient(master).then((node) => node.sendCommand(['WAIT', String(replicas), String(timeoutMs)]))
        : Promise.reject(new Error(`no primary known for ${key}`));
      byPrimary.set(primaryOf[i], wait.then(Number));
    });
    return Promise.all(primaryOf.map((p) => byPrimary.get(p)!));
  }
  primaryOf(key: string): string {
    const slot = keySlot(key);
    return this.client.slots[slot]?.master.address ?? `slot:${slot}`;
  }
  async nodes() {
    return Promise.all(this.client.masters.map(async (m) => nodeOf(await this.client.nodeClient(m))));
  }
  connected() {
    return this.client.isReady;
  }
  async close() {
    if (this.client.isOpen) await this.client.close();
  }
}

export interface RedisTarget {
  /** A single Redis. */
  url?: string;
  /** Seed nodes of a Redis Cluster (any few of its primaries or replicas); wins over `url`. */
  clusterUrls?: string[];
  onError?: (err: unknown) => void;
}

export async function connectRedis(url: string, onError?: (err: unknown) => void): Promise<RedisClient> {
  const client = makeClient(url);
  // Without a listener node-redis would crash the process on a connection error; reconnecting is automatic.
  client.on('error', (err) => onError?.(err));
  await client.connect();
  return client;
}

/** The store connection for a single Redis or a cluster; its `close()` closes the client. */
export async function connectRedisConn(target: RedisTarget): Promise<RedisConn> {
  if (target.clusterUrls?.length) {
    const cluster = makeCluster(target.clusterUrls);
    cluster.on('error', (err) => target.onError?.(err));
    await cluster.connect();
    return new ClusterRedis(cluster);
  }
  if (!target.url) throw new Error('connectRedisConn: no Redis URL');
  return new SingleRedis(await connectRedis(target.url, target.onError));
}

/** Stores accept a connection or a plain client (tests and tools that hold one). */
export const asConn = (c: RedisConn | RedisClient): RedisConn =>
  c instanceof SingleRedis || c instanceof ClusterRedis ? c : new SingleRedis(c as RedisClient);
