/**
 * The lease-expiry index, so the orphan sweep reads the rooms whose lease may
 * have lapsed instead of every room: one sorted set `N:lease-expiry`, room id
 * → a time (ms) at or before which its lease may lapse — never after it.
 *
 * Why a lower bound and not the exact expiry: every snapshot write and every
 * renewal pushes a lease further out, and keeping the score exact would cost
 * a ZADD on each of them (the action path). Instead only the rare events touch
 * it — create and acquire (score: the new lease's end), release (score 0: an
 * orphan at once), drop (removed) — and the sweep, for each room whose score
 * came due, reads the lease: lapsed, it is an orphan; still running, its score
 * moves to the lease's real end (PTTL). A busy room is so read once per lease
 * TTL, an orphan within one sweep of its lapse, and a sweep costs in proportion
 * to the rooms that came due, whatever the number of rooms.
 *
 * The set lives in its own slot, so on a cluster it is written beside, not
 * inside, the rooms' scripts: an update can be lost (a crash between the two,
 * a store failover). A lost raise only costs an early re-read; a lost entry
 * would hide a room, so the full scan (`orphans`, every ORPHAN_SCAN_MS) puts
 * back every room it walks past. Scores are the writers' clocks: a clock ahead
 * by X delays the finding of that room's lapse by X.
 */
import type { RedisConn } from './redis-conn.ts';
import { Script } from './redis-scripts.ts';
import { bySlot } from './redis-slots.ts';

/** Due entries read (and their leases checked) per round trip. */
const PAGE = 500;
/** Entries one call looks at, at most: a sweep stays bounded even if the set is far behind. */
const MAX_VISIT = 50_000;

// KEYS: the set; ARGV: score, member, score, member… (flags in front when asked: NX).
const ADD = new Script(`return redis.call('ZADD', KEYS[1], unpack(ARGV))`);
const ADD_NX = new Script(`return redis.call('ZADD', KEYS[1], 'NX', unpack(ARGV))`);
const REMOVE = new Script(`return redis.call('ZREM', KEYS[1], unpack(ARGV))`);

// KEYS: the set; ARGV: now, offset, count. Room id, score… of the entries due by now, earliest first.
const DUE = new Script(`
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', ARGV[2], ARGV[3])`);

// KEYS: owner, snap of each room (one slot on a cluster). Per room: -2 the room is gone (no snapshot),
// -1 its lease lapsed, else the lease's remaining ms.
const LEASE_STATE = new Script(`
local out = {}
for i = 1, #KEYS, 2 do
  if redis.call('EXISTS', KEYS[i + 1]) == 0 then
    out[#out + 1] = -2
  else
    local t = redis.call('PTTL', KEYS[i])
    if t == -2 then t = -1 elseif t == -1 then t = 3600000 end
    out[#out + 1] = t
  end
end
return out`);

// KEYS: the set; ARGV: (member, score read, new score or '' to remove)… Applied only where the score is still
// the one read (a create, acquire or release in between wins); returns how many were not applied.
const RESCORE = new Script(`
local skipped = 0
for i = 1, #ARGV, 3 do
  local cur = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if cur and tonumber(cur) == tonumber(ARGV[i + 1]) then
    if ARGV[i + 2] == '' then redis.call('ZREM', KEYS[1], ARGV[i])
    else redis.call('ZADD', KEYS[1], ARGV[i + 2], ARGV[i]) end
  else
    skipped = skipped + 1
  end
end
return skipped`);

const GONE = -2;
const LAPSED = -1;

export class LeaseExpiries {
  readonly key: string;

  constructor(
    private readonly conn: RedisConn,
    ns: string,
    /** The room's lease and snapshot keys. */
    private readonly keysOf: (roomId: string) => { owner: string; snap: string },
  ) {
    this.key = `${ns}:lease-expiry`;
  }

  /**
   * A lease of `ttlMs` is being taken (`since`: a time read before the script that takes it, so the score is not
   * after its end). `create`: only if the room has no entry (an id in use keeps its own, lower score).
   */
  async taken(roomId: string, ttlMs: number, since: number, create = false): Promise<void> {
    await (create ? ADD_NX : ADD).run(this.conn, [this.key], [String(since + ttlMs), roomId]);
  }

  /** The lease ended early: due at once. */
  async released(roomId: string): Promise<void> {
    await ADD.run(this.conn, [this.key], ['0', roomId]);
  }

  async dropped(roomId: string): Promise<void> {
    await REMOVE.run(this.conn, [this.key], [roomId]);
  }

  /** Puts back rooms the set may have lost (the full scan walks past every room), due at once; others keep theirs. */
  async repair(roomIds: string[]): Promise<void> {
    for (let i = 0; i < roomIds.length; i += PAGE) {
      const args: string[] = [];
      for (const id of roomIds.slice(i, i + PAGE)) args.push('0', id);
      await ADD_NX.run(this.conn, [this.key], args);
    }
  }

  /**
   * The rooms whose lease lapsed, from the entries that came due: each due entry's lease is read; a live one
   * moves to its lease's real end, a gone room leaves the set, and a lapsed one stays due (it is found again
   * until someone takes it, whose acquire moves it).
   */
  async lapsed(limit: number): Promise<string[]> {
    const out: string[] = [];
    let offset = 0;
    for (let visited = 0; visited < MAX_VISIT && out.length < limit;) {
      const now = Date.now();
      const flat = (await DUE.run(this.conn, [this.key], [String(now), String(offset), String(PAGE)])) as string[];
      if (flat.length === 0) break;
      const page: { id: string; score: string }[] = [];
      for (let i = 0; i < flat.length; i += 2) page.push({ id: flat[i], score: flat[i + 1] });
      visited += page.length;
      const state = await this.leaseStates(page.map((e) => e.id));
      const updates: string[] = [];
      let stay = 0;
      for (const e of page) {
        const t = state.get(e.id);
        if (t === undefined) stay++;
        else if (t === LAPSED) {
          if (out.length < limit) out.push(e.id);
          stay++;
        } else updates.push(e.id, e.score, t === GONE ? '' : String(now + t));
      }
      const skipped = updates.length > 0 ? Number(await RESCORE.run(this.conn, [this.key], updates)) : 0;
      // What is still due sits before the next page's first entry: step over it.
      offset += stay + skipped;
      if (page.length < PAGE) break;
    }
    return out;
  }

  /** Each room's lease state (LEASE_STATE), one script per slot on a cluster, one per page on a single Redis. */
  private async leaseStates(roomIds: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const groups = bySlot(this.conn.cluster, roomIds, (id) => this.keysOf(id).owner, PAGE);
    await Promise.all(
      groups.map(async (ids) => {
        const keys: string[] = [];
        for (const id of ids) {
          const k = this.keysOf(id);
          keys.push(k.owner, k.snap);
        }
        const r = (await LEASE_STATE.run(this.conn, keys, [])) as number[];
        ids.forEach((id, i) => out.set(id, Number(r[i])));
      }),
    );
    return out;
  }
}
