/**
 * Redis stores (node-redis 6). Every read-check-write is one Lua script, so a
 * lease check and the write it guards can never interleave with another
 * worker's. Snapshot writes are coalesced: those many rooms issue in one
 * event-loop tick go out as one script call (WRITE_MANY), while each room
 * still awaits its own result before acknowledging (write-before-ack, per
 * PERFORMANCE.md).
 *
 * Keys (N = namespace; `{roomId}` is a hash tag so one room's keys share a
 * cluster slot, but the scripts also touch the global `N:rooms` set, so run a
 * single Redis primary, not a cluster):
 *   N:room:{id}:epoch  fencing counter, INCR on every acquisition (outlives the room by an hour)
 *   N:room:{id}:owner  "<owner>#<epoch>", PX lease TTL
 *   N:room:{id}:snap   hash { seq, epoch, data }
 *   N:room:{id}:steps  list of record steps
 *   N:rooms            set of rooms that exist (not dropped)
 *   N:q:<key>          zset userId -> enqueue time;  N:q:<key>:e  hash userId -> entry JSON
 *   N:qu:<userId>      which queue holds the user;   N:claim:<key>  one-shot claims
 */
import { createClient } from 'redis';
import { CoalescedWrites, Script } from './redis-writes.ts';
import type {
  CreateResult,
  LeaseInfo,
  MatchStore,
  QueueEntry,
  SnapshotStore,
  SnapshotWrite,
  StoredRoom,
  WriteResult,
} from './types.ts';

const makeClient = (url: string) =>
  createClient({ url, socket: { reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 1000) } });
export type RedisClient = ReturnType<typeof makeClient>;
type Client = RedisClient;

const CREATE = new Script(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('SET', KEYS[1], 1)
redis.call('SET', KEYS[2], ARGV[1] .. '#1', 'PX', ARGV[2])
redis.call('HSET', KEYS[3], 'seq', ARGV[3], 'epoch', 1, 'data', ARGV[4])
if #ARGV > 5 then redis.call('RPUSH', KEYS[4], unpack(ARGV, 6)) end
redis.call('SADD', KEYS[5], ARGV[5])
return 1`);

const ACQUIRE = new Script(`
if redis.call('EXISTS', KEYS[3]) == 0 then return false end
local e = redis.call('INCR', KEYS[1])
redis.call('SET', KEYS[2], ARGV[1] .. '#' .. e, 'PX', ARGV[2])
local s = redis.call('HMGET', KEYS[3], 'seq', 'epoch', 'data')
return { e, s[1], s[2], s[3], redis.call('LRANGE', KEYS[4], 0, -1) }`);

// KEYS = epoch1, owner1, epoch2, owner2…; ARGV = ttl, owner, epoch1, epoch2…; returns indexes (1-based) lost.
const RENEW = new Script(`
local lost = {}
for i = 1, #KEYS / 2 do
  local e = ARGV[i + 2]
  if redis.call('GET', KEYS[2 * i - 1]) == e then
    redis.call('SET', KEYS[2 * i], ARGV[2] .. '#' .. e, 'PX', ARGV[1])
  else
    lost[#lost + 1] = i
  end
end
return lost`);

const RELEASE = new Script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) return 1 end
return 0`);

const DROP = new Script(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
redis.call('SREM', KEYS[5], ARGV[2])
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], 3600)
return 1`);

// KEYS: zset, hash, user key; ARGV: userId, entry, at, size, staleBefore, queueKey, userKeyPrefix, userTtlMs.
const ENQUEUE = new Script(`
local stale = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[5])
for _, u in ipairs(stale) do
  redis.call('ZREM', KEYS[1], u)
  redis.call('HDEL', KEYS[2], u)
end
local prev = redis.call('GET', KEYS[3])
if prev and prev ~= ARGV[6] then
  redis.call('ZREM', prev, ARGV[1])
  redis.call('HDEL', prev .. ':e', ARGV[1])
end
redis.call('ZADD', KEYS[1], 'NX', ARGV[3], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('SET', KEYS[3], ARGV[6], 'PX', ARGV[8])
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[4]) then return {} end
local popped = redis.call('ZPOPMIN', KEYS[1], ARGV[4])
local out = {}
for i = 1, #popped, 2 do
  local u = popped[i]
  out[#out + 1] = redis.call('HGET', KEYS[2], u)
  out[#out + 1] = popped[i + 1]
  redis.call('HDEL', KEYS[2], u)
  redis.call('DEL', ARGV[7] .. u)
end
return out`);

const DEQUEUE = new Script(`
local q = redis.call('GET', KEYS[1])
if not q then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HDEL', q .. ':e', ARGV[1])
return redis.call('ZREM', q, ARGV[1])`);

// KEYS: zset, hash; ARGV: queueKey, userKeyPrefix, ttlMs, then (userId, at, entry) triples.
const REQUEUE = new Script(`
for i = 4, #ARGV, 3 do
  local uk = ARGV[2] .. ARGV[i]
  if redis.call('EXISTS', uk) == 0 then
    redis.call('ZADD', KEYS[1], ARGV[i + 1], ARGV[i])
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2])
    redis.call('SET', uk, ARGV[1], 'PX', ARGV[3])
  end
end
return 1`);

export async function connectRedis(url: string, onError?: (err: unknown) => void): Promise<Client> {
  const client = makeClient(url);
  // Without a listener node-redis would crash the process on a connection error; reconnecting is automatic.
  client.on('error', (err) => onError?.(err));
  await client.connect();
  return client;
}

export class RedisSnapshotStore implements SnapshotStore {
  private readonly writes: CoalescedWrites;

  constructor(
    private readonly client: Client,
    private readonly ns: string,
    private readonly ownsClient = false,
  ) {
    this.writes = new CoalescedWrites(client);
  }

  private keys(roomId: string): [string, string, string, string] {
    const b = `${this.ns}:room:{${roomId}}:`;
    return [`${b}epoch`, `${b}owner`, `${b}snap`, `${b}steps`];
  }

  async createRoom(roomId: string, owner: string, first: SnapshotWrite, ttlMs: number): Promise<CreateResult> {
    const r = await CREATE.run(
      this.client,
      [...this.keys(roomId), `${this.ns}:rooms`],
      [owner, String(ttlMs), String(first.seq), first.data, roomId, ...first.steps],
    );
    return Number(r) === 1 ? { ok: true, epoch: 1 } : { ok: false, reason: 'exists' };
  }

  async acquire(roomId: string, owner: string, ttlMs: number): Promise<{ epoch: number; room: StoredRoom } | null> {
    const r = (await ACQUIRE.run(this.client, this.keys(roomId), [owner, String(ttlMs)])) as
      [number, string, string, string, string[]] | null;
    if (!r) return null;
    return {
      epoch: Number(r[0]),
      room: { roomId, seq: Number(r[1]), epoch: Number(r[2]), data: r[3], steps: r[4] },
    };
  }

  /**
   * Coalesced per event-loop tick across rooms (`redis-writes.ts`): every write issued in one tick
   * leaves in one fenced script call, and each caller awaits its own room's answer.
   */
  write(roomId: string, epoch: number, owner: string, w: SnapshotWrite, ttlMs: number): Promise<WriteResult> {
    return this.writes.write(this.keys(roomId), roomId, epoch, owner, w, ttlMs);
  }

  async renew(owner: string, leases: { roomId: string; epoch: number }[], ttlMs: number): Promise<string[]> {
    const lost: string[] = [];
    // Chunks keep each script short so it never blocks Redis for long.
    for (let i = 0; i < leases.length; i += 500) {
      const chunk = leases.slice(i, i + 500);
      const keys: string[] = [];
      const args = [String(ttlMs), owner];
      for (const l of chunk) {
        const [e, o] = this.keys(l.roomId);
        keys.push(e, o);
        args.push(String(l.epoch));
      }
      const r = (await RENEW.run(this.client, keys, args)) as number[];
      for (const idx of r) lost.push(chunk[Number(idx) - 1].roomId);
    }
    return lost;
  }

  async release(roomId: string, owner: string, epoch: number): Promise<boolean> {
    return Number(await RELEASE.run(this.client, [this.keys(roomId)[1]], [`${owner}#${epoch}`])) === 1;
  }

  async drop(roomId: string, epoch: number): Promise<boolean> {
    const r = await DROP.run(this.client, [...this.keys(roomId), `${this.ns}:rooms`], [String(epoch), roomId]);
    return Number(r) === 1;
  }

  async load(roomId: string): Promise<StoredRoom | null> {
    const [, , snap, steps] = this.keys(roomId);
    const [s, list] = await Promise.all([
      this.client.hmGet(snap, ['seq', 'epoch', 'data']),
      this.client.lRange(steps, 0, -1),
    ]);
    if (s[0] === null || s[2] === null) return null;
    return { roomId, seq: Number(s[0]), epoch: Number(s[1]), data: s[2], steps: list };
  }

  async lease(roomId: string): Promise<LeaseInfo | null> {
    const v = await this.client.get(this.keys(roomId)[1]);
    if (v === null) return null;
    const i = v.lastIndexOf('#');
    return { owner: v.slice(0, i), epoch: Number(v.slice(i + 1)) };
  }

  orphans(limit: number): Promise<string[]> {
    return this.scanOwners(limit, (owner) => owner === null);
  }

  ownedBy(owner: string, limit: number): Promise<string[]> {
    const prefix = `${owner}#`;
    return this.scanOwners(limit, (o) => o !== null && o.startsWith(prefix));
  }

  /** Walks the room set 500 at a time, reading the lease holders with one MGET per page. */
  private async scanOwners(limit: number, keep: (owner: string | null) => boolean): Promise<string[]> {
    const out: string[] = [];
    let cursor = '0';
    do {
      const r = await this.client.sScan(`${this.ns}:rooms`, cursor, { COUNT: 500 });
      cursor = String(r.cursor);
      if (r.members.length === 0) continue;
      const owners = await this.client.mGet(r.members.map((id) => this.keys(id)[1]));
      for (let i = 0; i < owners.length && out.length < limit; i++) if (keep(owners[i])) out.push(r.members[i]);
    } while (cursor !== '0' && out.length < limit);
    return out;
  }

  async close(): Promise<void> {
    if (this.ownsClient && this.client.isOpen) await this.client.close();
  }
}

export class RedisMatchStore implements MatchStore {
  private readonly writes: CoalescedWrites;

  constructor(
    private readonly client: Client,
    private readonly ns: string,
    private readonly ownsClient = false,
  ) {
    this.writes = new CoalescedWrites(client);
  }

  private q(key: string): [string, string] {
    return [`${this.ns}:q:${key}`, `${this.ns}:q:${key}:e`];
  }

  async enqueue(key: string, entry: QueueEntry, size: number, staleMs: number): Promise<QueueEntry[] | null> {
    const [zset, hash] = this.q(key);
    const r = (await ENQUEUE.run(
      this.client,
      [zset, hash, `${this.ns}:qu:${entry.userId}`],
      [
        entry.userId,
        JSON.stringify(entry),
        String(entry.at),
        String(size),
        String(Date.now() - staleMs),
        zset,
        `${this.ns}:qu:`,
        String(staleMs),
      ],
    )) as string[];
    if (r.length === 0) return null;
    const table: QueueEntry[] = [];
    // The zset score is the user's place in line; the entry may carry a later re-queue time.
    for (let i = 0; i < r.length; i += 2) table.push({ ...(JSON.parse(r[i]) as QueueEntry), at: Number(r[i + 1]) });
    return table;
  }

  async dequeue(userId: string): Promise<boolean> {
    return Number(await DEQUEUE.run(this.client, [`${this.ns}:qu:${userId}`], [userId])) === 1;
  }

  async waiting(key: string, staleMs: number): Promise<QueueEntry[]> {
    const [zset, hash] = this.q(key);
    const users = await this.client.zRangeByScoreWithScores(zset, Date.now() - staleMs, '+inf');
    if (users.length === 0) return [];
    const raw = await this.client.hmGet(
      hash,
      users.map((u) => u.value),
    );
    const out: QueueEntry[] = [];
    users.forEach((u, i) => {
      const text = raw[i];
      if (text) out.push({ ...(JSON.parse(text) as QueueEntry), at: u.score });
    });
    return out;
  }

  async requeue(key: string, entries: QueueEntry[], staleMs: number): Promise<void> {
    const [zset, hash] = this.q(key);
    const args = [zset, `${this.ns}:qu:`, String(staleMs)];
    for (const e of entries) args.push(e.userId, String(e.at), JSON.stringify(e));
    await REQUEUE.run(this.client, [zset, hash], args);
  }

  async claim(key: string, owner: string, ttlMs: number): Promise<boolean> {
    const r = await this.client.set(`${this.ns}:claim:${key}`, owner, {
      condition: 'NX',
      expiration: { type: 'PX', value: ttlMs },
    });
    return r === 'OK';
  }

  async close(): Promise<void> {
    if (this.ownsClient && this.client.isOpen) await this.client.close();
  }
}
