/**
 * The stores' Lua scripts. Each touches keys of ONE hash slot only, so each
 * runs unchanged on a single Redis and on a Redis Cluster: a room's keys and
 * its slot's room index share the room's slot; the quick-match keys all carry
 * the `{mm}` hash tag (matchmaking is light: one slot serves it).
 */
import { createHash } from 'node:crypto';
import type { RedisConn } from './redis-conn.ts';

/** A Lua script run by its SHA, loaded on first use (NOSCRIPT) on whichever node the keys route to. */
export class Script {
  readonly sha: string;
  constructor(readonly src: string) {
    this.sha = createHash('sha1').update(src).digest('hex');
  }
  async run(conn: Pick<RedisConn, 'evalSha' | 'eval'>, keys: string[], args: string[]): Promise<unknown> {
    try {
      return await conn.evalSha(this.sha, keys, args);
    } catch (err) {
      if (!String((err as Error)?.message).includes('NOSCRIPT')) throw err;
      return conn.eval(this.src, keys, args);
    }
  }
}

// KEYS: epoch, owner, snap, steps, the slot's room index; ARGV: owner, ttl, seq, data, roomId, steps…
export const CREATE = new Script(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('SET', KEYS[1], 1)
redis.call('SET', KEYS[2], ARGV[1] .. '#1', 'PX', ARGV[2])
redis.call('HSET', KEYS[3], 'seq', ARGV[3], 'epoch', 1, 'data', ARGV[4])
if #ARGV > 5 then redis.call('RPUSH', KEYS[4], unpack(ARGV, 6)) end
redis.call('SADD', KEYS[5], ARGV[5])
return 1`);

export const ACQUIRE = new Script(`
if redis.call('EXISTS', KEYS[3]) == 0 then return false end
local e = redis.call('INCR', KEYS[1])
redis.call('SET', KEYS[2], ARGV[1] .. '#' .. e, 'PX', ARGV[2])
local s = redis.call('HMGET', KEYS[3], 'seq', 'epoch', 'data')
return { e, s[1], s[2], s[3], redis.call('LRANGE', KEYS[4], 0, -1) }`);

// KEYS = epoch1, owner1, epoch2, owner2… (one slot on a cluster); ARGV = ttl, owner, epoch1, epoch2…;
// returns the indexes (1-based) lost.
export const RENEW = new Script(`
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

// KEYS: generation key; ARGV: a fresh id, kept only if the store has none (first start, or after a wipe).
export const GENERATION = new Script(`
local g = redis.call('GET', KEYS[1])
if g then return g end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]`);

// KEYS: queue zset, its entries hash; ARGV: lowest enqueue time still counted. Returns user, time, entry… flat.
export const WAITING = new Script(`
local users = redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], '+inf', 'WITHSCORES')
local out = {}
for i = 1, #users, 2 do
  local e = redis.call('HGET', KEYS[2], users[i])
  if e then
    out[#out + 1] = users[i]
    out[#out + 1] = users[i + 1]
    out[#out + 1] = e
  end
end
return out`);

export const RELEASE = new Script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) return 1 end
return 0`);

// KEYS: epoch, owner, snap, steps, the slot's room index; ARGV: epoch, roomId.
export const DROP = new Script(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[2], KEYS[3], KEYS[4])
redis.call('SREM', KEYS[5], ARGV[2])
redis.call('INCR', KEYS[1])
redis.call('EXPIRE', KEYS[1], 3600)
return 1`);

// The fenced snapshot write of many rooms at once (all of one slot on a cluster), each 1 written, 2 already
// written by this very write (a retry after an unconfirmed replication: nothing re-applied), 0 fenced out
// (stale epoch), -1 seq not increasing (a bug in the writer) or -2 a steps-only write whose `after` is not
// the stored seq (the steps would not continue the stored state: nothing written, the writer sends it whole).
// KEYS = 4 per room (epoch, owner, snap, steps); ARGV per room = epoch, seq, data, ttl, owner, retry (0/1),
// after ('' = a full write: data replaces the stored one; else steps only: data is ignored and kept),
// number of steps, steps…; one result per room.
export const WRITE_MANY = new Script(`
local out = {}
local a = 1
for i = 1, #KEYS, 4 do
  local epoch, seq, after, n = ARGV[a], ARGV[a + 1], ARGV[a + 6], tonumber(ARGV[a + 7])
  local r = 1
  if redis.call('GET', KEYS[i]) ~= epoch then
    r = 0
  else
    local cur = redis.call('HMGET', KEYS[i + 2], 'seq', 'epoch')
    if cur[1] and tonumber(seq) <= tonumber(cur[1]) then
      if ARGV[a + 5] == '1' and seq == cur[1] and epoch == cur[2] then r = 2 else r = -1 end
    elseif after ~= '' and after ~= cur[1] then
      r = -2
    else
      if after == '' then
        redis.call('HSET', KEYS[i + 2], 'seq', seq, 'epoch', epoch, 'data', ARGV[a + 2])
      else
        redis.call('HSET', KEYS[i + 2], 'seq', seq, 'epoch', epoch)
      end
      if n > 0 then redis.call('RPUSH', KEYS[i + 3], unpack(ARGV, a + 8, a + 7 + n)) end
    end
    if r > 0 then redis.call('SET', KEYS[i + 1], ARGV[a + 4] .. '#' .. epoch, 'PX', ARGV[a + 3]) end
  end
  out[#out + 1] = r
  a = a + 8 + n
end
return out`);

// KEYS: zset, hash, user key, and for a client's request (MatchStore.enqueueRequest) its request key; ARGV:
// userId, entry, at, size, staleBefore, queueKey, userKeyPrefix, userTtlMs, then the entry's gatewayId and the
// hold's cutoff for a gateway preference (MatchStore.enqueue; the oldest place that no longer waits for players
// of one gateway; both '' for none), then the request key's ttlMs. A request key already there means the
// request was carried out before: 0 and nothing changed. The previous queue named by the user key is read
// from its value: it shares the {mm} slot, as does the request key.
export const ENQUEUE = new Script(`
if KEYS[4] and not redis.call('SET', KEYS[4], '1', 'NX', 'PX', ARGV[11]) then return 0 end
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
local size = tonumber(ARGV[4])
if size <= 0 or redis.call('ZCARD', KEYS[1]) < size then return {} end
local popped
if ARGV[9] and ARGV[9] ~= '' then
  -- In line order: the first \`size\` of the entry's gateway, else all of them if the oldest's hold is over.
  local line = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
  local own = {}
  for i = 1, #line, 2 do
    local e = redis.call('HGET', KEYS[2], line[i])
    if e and cjson.decode(e).gatewayId == ARGV[9] then
      own[#own + 1] = line[i]
      own[#own + 1] = line[i + 1]
      if #own == 2 * size then break end
    end
  end
  if #own == 2 * size then
    popped = own
  elseif tonumber(line[2]) <= tonumber(ARGV[10]) then
    popped = {unpack(line, 1, 2 * size)}
  else
    return {}
  end
  for i = 1, #popped, 2 do redis.call('ZREM', KEYS[1], popped[i]) end
else
  popped = redis.call('ZPOPMIN', KEYS[1], size)
end
local out = {}
for i = 1, #popped, 2 do
  local u = popped[i]
  out[#out + 1] = redis.call('HGET', KEYS[2], u)
  out[#out + 1] = popped[i + 1]
  redis.call('HDEL', KEYS[2], u)
  redis.call('DEL', ARGV[7] .. u)
end
return out`);

export const DEQUEUE = new Script(`
local q = redis.call('GET', KEYS[1])
if not q then return 0 end
redis.call('DEL', KEYS[1])
redis.call('HDEL', q .. ':e', ARGV[1])
return redis.call('ZREM', q, ARGV[1])`);

// KEYS: zset, hash; ARGV: queueKey, userKeyPrefix, ttlMs, then (userId, at, entry) triples.
export const REQUEUE = new Script(`
for i = 4, #ARGV, 3 do
  local uk = ARGV[2] .. ARGV[i]
  if redis.call('EXISTS', uk) == 0 then
    redis.call('ZADD', KEYS[1], ARGV[i + 1], ARGV[i])
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2])
    redis.call('SET', uk, ARGV[1], 'PX', ARGV[3])
  end
end
return 1`);
