/**
 * The fenced snapshot write, coalesced per event-loop tick across rooms: the
 * writes many rooms issue in one tick (the rooms of one batch of bus messages)
 * leave as ONE script call per WRITE_BATCH rooms, each room keeping its own
 * epoch and seq check and its own answer, which its caller awaits before
 * acknowledging anything (write-before-ack, per PERFORMANCE.md).
 */
import { createHash } from 'node:crypto';
import type { RedisClient } from './redis.ts';
import type { SnapshotWrite, WriteResult } from './types.ts';

type Client = Pick<RedisClient, 'evalSha' | 'eval'>;

/** A Lua script run by its SHA, loaded on first use (NOSCRIPT). */
export class Script {
  readonly sha: string;
  constructor(readonly src: string) {
    this.sha = createHash('sha1').update(src).digest('hex');
  }
  async run(client: Client, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await client.evalSha(this.sha, { keys, arguments: args });
    } catch (err) {
      if (!String((err as Error)?.message).includes('NOSCRIPT')) throw err;
      return client.eval(this.src, { keys, arguments: args });
    }
  }
}

// The fenced snapshot write of many rooms at once, each 1 written, 0 fenced out (stale epoch) or -1 seq not
// increasing (a bug in the writer): KEYS = 4 per room (epoch, owner, snap, steps); ARGV per room =
// epoch, seq, data, ttl, owner, number of steps, steps…; returns one result per room.
const WRITE_MANY = new Script(`
local out = {}
local a = 1
for i = 1, #KEYS, 4 do
  local epoch, seq, n = ARGV[a], ARGV[a + 1], tonumber(ARGV[a + 5])
  local r = 1
  if redis.call('GET', KEYS[i]) ~= epoch then
    r = 0
  else
    local cur = redis.call('HGET', KEYS[i + 2], 'seq')
    if cur and tonumber(seq) <= tonumber(cur) then
      r = -1
    else
      redis.call('HSET', KEYS[i + 2], 'seq', seq, 'epoch', epoch, 'data', ARGV[a + 2])
      if n > 0 then redis.call('RPUSH', KEYS[i + 3], unpack(ARGV, a + 6, a + 5 + n)) end
      redis.call('SET', KEYS[i + 1], ARGV[a + 4] .. '#' .. epoch, 'PX', ARGV[a + 3])
    end
  end
  out[#out + 1] = r
  a = a + 6 + n
end
return out`);

/** Rooms per WRITE_MANY call: one call stays short (≈ a millisecond of Redis time) even when many rooms wrote. */
const WRITE_BATCH = 128;

interface QueuedWrite {
  keys: string[];
  roomId: string;
  epoch: number;
  owner: string;
  w: SnapshotWrite;
  ttlMs: number;
  resolve(r: WriteResult): void;
  reject(err: unknown): void;
}

export class CoalescedWrites {
  private queued: QueuedWrite[] = [];

  constructor(private readonly client: Client) {}

  write(
    keys: string[],
    roomId: string,
    epoch: number,
    owner: string,
    w: SnapshotWrite,
    ttlMs: number,
  ): Promise<WriteResult> {
    return new Promise<WriteResult>((resolve, reject) => {
      if (this.queued.length === 0) queueMicrotask(this.flush);
      this.queued.push({ keys, roomId, epoch, owner, w, ttlMs, resolve, reject });
    });
  }

  private readonly flush = (): void => {
    const all = this.queued;
    this.queued = [];
    for (let i = 0; i < all.length; i += WRITE_BATCH) void this.writeBatch(all.slice(i, i + WRITE_BATCH));
  };

  private async writeBatch(batch: QueuedWrite[]): Promise<void> {
    const keys: string[] = [];
    const args: string[] = [];
    for (const q of batch) {
      keys.push(...q.keys);
      args.push(String(q.epoch), String(q.w.seq), q.w.data, String(q.ttlMs), q.owner, String(q.w.steps.length));
      for (const step of q.w.steps) args.push(step);
    }
    let results: number[];
    try {
      results = ((await WRITE_MANY.run(this.client, keys, args)) as unknown[]).map(Number);
    } catch (err) {
      for (const q of batch) q.reject(err);
      return;
    }
    batch.forEach((q, i) => {
      if (results[i] === -1) q.reject(new Error(`snapshot seq ${q.w.seq} not above the stored one for ${q.roomId}`));
      else q.resolve(results[i] === 1 ? 'ok' : 'stale');
    });
  }
}
