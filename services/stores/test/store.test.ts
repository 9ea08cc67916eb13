/**
 * The lease + fencing protocol, run against the in-memory store, the real
 * Redis (unique key namespace per run) and a Redis Cluster of 3 primaries +
 * 3 replicas started for this file (scripts/cluster.sh). All must agree
 * exactly: the embedded platform and the cluster share one worker implementation.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalCluster, type LocalCluster } from '@joke/bus/local-cluster';
import {
  connectRedis,
  connectRedisConn,
  FileSnapshotStore,
  MemoryMatchStore,
  MemorySnapshotStore,
  RedisMatchStore,
  RedisSnapshotStore,
  type MatchStore,
  type RedisConn,
  type SnapshotStore,
} from '../src/index.ts';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TTL = 10_000;
const snap = (seq: number, data = `d${seq}`, steps: string[] = []) => ({ seq, data, steps });
/** A steps-only write: no data, continuing the stored seq `after`. */
const stepsOnly = (seq: number, after: number, steps: string[]) => ({ seq, data: null, after, steps });
let n = 0;
const rid = () => `r${++n}-${randomBytes(3).toString('hex')}`;
async function waitUntil(ok: () => Promise<boolean>, timeoutMs = 10_000) {
  for (const end = Date.now() + timeoutMs; !(await ok());) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

interface SnapshotFixture {
  store: SnapshotStore;
  done: () => Promise<void>;
  /** Deletes a room's entry of the lease-expiry index behind the store's back (an update lost in a store failover). */
  loseExpiry?: (roomId: string) => Promise<void>;
}

function snapshotContract(name: string, make: () => Promise<SnapshotFixture>) {
  describe(name, () => {
    let store: SnapshotStore;
    let done: () => Promise<void>;
    let loseExpiry: SnapshotFixture['loseExpiry'];
    beforeAll(async () => ({ store, done, loseExpiry } = await make()));
    afterAll(() => done());

    it('creates a room once, at epoch 1, owned by its creator', async () => {
      const id = rid();
      expect(await store.createRoom(id, 'w1', snap(1, 'a', ['s1']), TTL)).toEqual({ ok: true, epoch: 1 });
      expect(await store.createRoom(id, 'w2', snap(1), TTL)).toEqual({ ok: false, reason: 'exists' });
      expect(await store.lease(id)).toEqual({ owner: 'w1', epoch: 1 });
      expect(await store.load(id)).toEqual({ roomId: id, epoch: 1, seq: 1, data: 'a', steps: ['s1'] });
    });

    it('raises the epoch on every acquisition and returns the latest snapshot with all steps', async () => {
      const id = rid();
      await store.createRoom(id, 'w1', snap(1, 'a', ['s1']), TTL);
      expect(await store.write(id, 1, 'w1', snap(2, 'b', ['s2', 's3']), TTL)).toBe('ok');
      const a = await store.acquire(id, 'w2', TTL);
      expect(a?.epoch).toBe(2);
      expect(a?.room).toEqual({ roomId: id, epoch: 1, seq: 2, data: 'b', steps: ['s1', 's2', 's3'] });
      expect((await store.acquire(id, 'w2', TTL))?.epoch).toBe(3); // even the same owner gets a new token
      expect(await store.lease(id)).toEqual({ owner: 'w2', epoch: 3 });
    });

    it('writes of many rooms in one tick each get their own answer (fenced, ok, seq not increasing)', async () => {
      const ids = Array.from({ length: 300 }, rid);
      for (const id of ids) await store.createRoom(id, 'w1', snap(1, 'a'), TTL);
      await store.acquire(ids[7], 'w2', TTL); // fenced for w1
      const results = await Promise.allSettled(
        ids.map((id, i) => store.write(id, 1, 'w1', snap(i === 200 ? 1 : 2, `b${i}`, [`s${i}`, `t${i}`]), TTL)),
      );
      results.forEach((r, i) => {
        if (i === 200) expect(r.status).toBe('rejected');
        else expect(r).toEqual({ status: 'fulfilled', value: i === 7 ? 'stale' : 'ok' });
      });
      expect(await store.load(ids[299])).toEqual({
        roomId: ids[299],
        epoch: 1,
        seq: 2,
        data: 'b299',
        steps: ['s299', 't299'],
      });
      expect((await store.load(ids[7]))?.data).toBe('a');
      expect((await store.load(ids[200]))?.data).toBe('a');
    });

    it('a write without data keeps the stored snapshot, appends its steps and renews the lease', async () => {
      const id = rid();
      const control = rid();
      await store.createRoom(id, 'w1', snap(1, 'a', ['s1']), 80);
      await store.createRoom(control, 'w1', snap(1), 80);
      expect(await store.write(id, 1, 'w1', stepsOnly(3, 1, ['s2', 's3']), TTL)).toBe('ok');
      expect(await store.load(id)).toEqual({ roomId: id, epoch: 1, seq: 3, data: 'a', steps: ['s1', 's2', 's3'] });
      // Renewed: still held once a lease of the same length, not renewed, has run out.
      await waitUntil(async () => (await store.lease(control)) === null);
      expect(await store.lease(id)).toEqual({ owner: 'w1', epoch: 1 });
      // The next owner reads the snapshot and every step, and goes on the same way under its own epoch.
      const taken = await store.acquire(id, 'w2', TTL);
      expect(taken?.room).toEqual({ roomId: id, epoch: 1, seq: 3, data: 'a', steps: ['s1', 's2', 's3'] });
      expect(await store.write(id, 2, 'w2', stepsOnly(4, 3, ['s4']), TTL)).toBe('ok');
      expect(await store.load(id)).toEqual({
        roomId: id,
        epoch: 2,
        seq: 4,
        data: 'a',
        steps: ['s1', 's2', 's3', 's4'],
      });
      // A full write replaces the data again.
      expect(await store.write(id, 2, 'w2', snap(5, 'b', ['s5']), TTL)).toBe('ok');
      expect((await store.load(id))?.data).toBe('b');
    });

    it('a write without data that does not continue the stored seq is refused as a gap and changes nothing', async () => {
      const id = rid();
      await store.createRoom(id, 'w1', snap(2, 'a', ['s1', 's2']), TTL);
      // Say the write of seq 3 was lost in a store failover: seq 4 would leave a hole in the steps.
      expect(await store.write(id, 1, 'w1', stepsOnly(4, 3, ['s4']), TTL)).toBe('gap');
      expect(await store.load(id)).toEqual({ roomId: id, epoch: 1, seq: 2, data: 'a', steps: ['s1', 's2'] });
      // The writer then sends the whole snapshot at the same seq.
      expect(await store.write(id, 1, 'w1', snap(4, 'whole', ['s4']), TTL)).toBe('ok');
      expect(await store.load(id)).toEqual({ roomId: id, epoch: 1, seq: 4, data: 'whole', steps: ['s1', 's2', 's4'] });
      // Fencing and the seq check come first, as for a full write.
      await store.acquire(id, 'w2', TTL);
      expect(await store.write(id, 1, 'w1', stepsOnly(5, 4, ['z']), TTL)).toBe('stale');
      await expect(store.write(id, 2, 'w2', stepsOnly(4, 4, []), TTL)).rejects.toThrow(/seq/);
      expect((await store.load(id))?.steps).toEqual(['s1', 's2', 's4']);
    });

    it('full and steps-only writes of many rooms in one tick each apply on their own', async () => {
      const ids = Array.from({ length: 150 }, rid);
      for (const id of ids) await store.createRoom(id, 'w1', snap(1, 'a'), TTL);
      const steps = (i: number) => Array.from({ length: 1 + (i % 4) }, (_, k) => `s${i}.${k}`);
      const results = await Promise.all(
        ids.map((id, i) =>
          store.write(
            id,
            1,
            'w1',
            // Every third room full, one in seven steps-only after a seq it does not hold, the rest steps-only.
            i % 3 === 0 ? snap(2, `b${i}`, [`s${i}`]) : stepsOnly(1 + steps(i).length, i % 7 === 0 ? 0 : 1, steps(i)),
            TTL,
          ),
        ),
      );
      for (const [i, id] of ids.entries()) {
        const gap = i % 3 !== 0 && i % 7 === 0;
        expect(results[i]).toBe(gap ? 'gap' : 'ok');
        const want =
          i % 3 === 0
            ? { seq: 2, data: `b${i}`, steps: [`s${i}`] }
            : gap
              ? { seq: 1, data: 'a', steps: [] }
              : { seq: 1 + steps(i).length, data: 'a', steps: steps(i) };
        expect(await store.load(id)).toEqual({ roomId: id, epoch: 1, ...want });
      }
    });

    it('fences a stale epoch: its write is refused and changes nothing', async () => {
      const id = rid();
      await store.createRoom(id, 'w1', snap(1, 'a'), TTL);
      await store.acquire(id, 'w2', TTL); // w1 presumed dead
      expect(await store.write(id, 1, 'w1', snap(5, 'zombie', ['z']), TTL)).toBe('stale');
      expect(await store.write(id, 2, 'w2', snap(2, 'fresh', ['f']), TTL)).toBe('ok');
      const r = await store.load(id);
      expect(r).toEqual({ roomId: id, epoch: 2, seq: 2, data: 'fresh', steps: ['f'] });
      expect(await store.lease(id)).toEqual({ owner: 'w2', epoch: 2 });
    });

    it('a worker restarted under the same id cannot write with the epoch it held before', async () => {
      const id = rid();
      await store.createRoom(id, 'worker-0', snap(1), TTL);
      await store.acquire(id, 'worker-1', TTL); // failover while worker-0 was down
      // worker-0 comes back with the same id and its pre-crash token:
      expect(await store.write(id, 1, 'worker-0', snap(9), TTL)).toBe('stale');
      expect(await store.renew('worker-0', [{ roomId: id, epoch: 1 }], TTL)).toEqual([id]);
      expect(await store.release(id, 'worker-0', 1)).toBe(false);
      expect(await store.lease(id)).toEqual({ owner: 'worker-1', epoch: 2 });
    });

    it('refuses a seq that does not increase (a writer bug, never silently accepted)', async () => {
      const id = rid();
      await store.createRoom(id, 'w1', snap(3), TTL);
      await expect(store.write(id, 1, 'w1', snap(3), TTL)).rejects.toThrow(/seq/);
      expect((await store.load(id))?.seq).toBe(3);
    });

    it('lets a lease lapse without renewal, and reports the room as an orphan', async () => {
      const id = rid();
      const live = rid();
      await store.createRoom(id, 'w1', snap(1), 80);
      // A scan may take longer than 80 ms on a loaded box: the live lease is the long one — 10 minutes, since
      // under two busy loops the wait and scans below outlasted a 10 s lease and reported it as an orphan.
      await store.createRoom(live, 'w1', snap(1), 600_000);
      expect(await store.orphans(10_000)).not.toContain(live);
      await waitUntil(async () => (await store.lease(id)) === null);
      expect(await store.orphans(10_000)).toContain(id);
      expect(await store.orphans(10_000)).not.toContain(live);
      // The epoch is still current: the owner may keep writing (nobody took over), which renews the lease.
      expect(await store.write(id, 1, 'w1', snap(2), TTL)).toBe('ok');
      expect(await store.lease(id)).toEqual({ owner: 'w1', epoch: 1 });
      expect(await store.orphans(10_000)).not.toContain(id);
    });

    it('lapsed (the cheap sweep) names a lease once it ran out or was released, never a live, written or dropped room', async () => {
      if (!store.lapsed) return;
      const [ranOut, written, live, released, dropped] = [rid(), rid(), rid(), rid(), rid()];
      await store.createRoom(ranOut, 'w1', snap(1), 80);
      await store.createRoom(written, 'w1', snap(1), 80);
      await store.createRoom(live, 'w1', snap(1), TTL);
      await store.createRoom(released, 'w1', snap(1), TTL);
      await store.createRoom(dropped, 'w1', snap(1), 80);
      // A write renews the lease without touching the index: the sweep must read the lease, not trust the index.
      expect(await store.write(written, 1, 'w1', snap(2), TTL)).toBe('ok');
      expect(await store.release(released, 'w1', 1)).toBe(true);
      expect(await store.drop(dropped, 1)).toBe(true);
      // Only this test's rooms (the suite shares one namespace); on a slow store `ranOut` may be due already.
      const mine = async () =>
        (await store.lapsed!(10_000)).filter((id) => [ranOut, written, live, released, dropped].includes(id)).sort();
      // Released: due at once, with no wait for its old lease's end.
      expect(await mine()).toContain(released);
      expect(await mine()).not.toContain(written);
      await waitUntil(async () => (await store.lease(ranOut)) === null);
      // The first call after the lease ran out finds it; a room stays found until someone takes it.
      expect(await mine()).toEqual([ranOut, released].sort());
      expect(await mine()).toEqual([ranOut, released].sort());
      expect((await store.acquire(ranOut, 'w2', TTL))?.epoch).toBe(2);
      expect(await mine()).toEqual([released]);
      expect(await store.orphans(10_000)).not.toContain(written);
    });

    it('a room the expiry index lost is found by the full scan, which puts it back in the index', async () => {
      if (!store.lapsed || !loseExpiry) return;
      const id = rid();
      await store.createRoom(id, 'w1', snap(1), 80);
      await loseExpiry(id);
      await waitUntil(async () => (await store.lease(id)) === null);
      expect(await store.lapsed(10_000)).not.toContain(id);
      expect(await store.orphans(10_000)).toContain(id);
      expect(await store.lapsed(10_000)).toContain(id);
      expect((await store.acquire(id, 'w2', TTL))?.epoch).toBe(2);
      expect(await store.lapsed(10_000)).not.toContain(id);
    });

    it('renews the leases still held and names the lost ones', async () => {
      const a = rid();
      const b = rid();
      await store.createRoom(a, 'w1', snap(1), 100);
      await store.createRoom(b, 'w1', snap(1), 100);
      await store.acquire(b, 'w2', TTL);
      const lost = await store.renew(
        'w1',
        [
          { roomId: a, epoch: 1 },
          { roomId: b, epoch: 1 },
        ],
        TTL,
      );
      expect(lost).toEqual([b]);
      await new Promise((r) => setTimeout(r, 150));
      expect(await store.lease(a)).toEqual({ owner: 'w1', epoch: 1 });
    });

    it('release frees the room at once for the next owner, only for the holder', async () => {
      const id = rid();
      await store.createRoom(id, 'w1', snap(1), TTL);
      expect(await store.release(id, 'w2', 1)).toBe(false);
      expect(await store.release(id, 'w1', 1)).toBe(true);
      expect(await store.lease(id)).toBeNull();
      expect(await store.orphans(10_000)).toContain(id);
      expect((await store.acquire(id, 'w2', TTL))?.epoch).toBe(2);
    });

    it('drop deletes a finished room but keeps it fenced: the id cannot be created again', async () => {
      const id = rid();
      await store.createRoom(id, 'w1', snap(1), TTL);
      expect(await store.drop(id, 2)).toBe(false); // not the current epoch
      expect(await store.drop(id, 1)).toBe(true);
      expect(await store.load(id)).toBeNull();
      expect(await store.acquire(id, 'w2', TTL)).toBeNull();
      expect(await store.orphans(10_000)).not.toContain(id);
      expect((await store.createRoom(id, 'w3', snap(1), TTL)).ok).toBe(false);
      // A late write by the last owner (say, a bot move racing the drop) cannot bring it back.
      expect(await store.write(id, 1, 'w1', snap(2), TTL)).toBe('stale');
      expect(await store.load(id)).toBeNull();
    });

    it('lists the rooms a worker holds a live lease on', async () => {
      const owner = `w-${randomBytes(3).toString('hex')}`;
      const a = rid();
      const b = rid();
      const c = rid();
      await store.createRoom(a, owner, snap(1), TTL);
      await store.createRoom(b, owner, snap(1), TTL);
      await store.createRoom(c, owner, snap(1), TTL);
      await store.acquire(b, 'other', TTL);
      await store.drop(c, 1);
      expect((await store.ownedBy(owner, 10_000)).sort()).toEqual([a]);
      // The fast hint a failover reads first (Redis) agrees, once stale members are checked against the leases.
      if (store.ownedByHint) {
        const d = rid();
        await store.createRoom(d, owner, snap(1), TTL);
        expect(await store.release(d, owner, 1)).toBe(true);
        const e = rid();
        await store.createRoom(e, 'someone', snap(1), TTL);
        expect((await store.acquire(e, owner, TTL))?.epoch).toBe(2);
        expect((await store.ownedByHint(owner, 10_000)).sort()).toEqual([a, e].sort());
        expect(await store.ownedByHint('someone', 10_000)).toEqual([]);
        // A finished table taken out of the hint keeps its lease: only the scan finds it.
        await store.unhint!(owner, e);
        expect(await store.ownedByHint(owner, 10_000)).toEqual([a]);
        expect((await store.ownedBy(owner, 10_000)).sort()).toEqual([a, e].sort());
      }
    });

    it('acquire of an unknown room takes nothing', async () => {
      const id = rid();
      expect(await store.acquire(id, 'w1', TTL)).toBeNull();
      expect(await store.lease(id)).toBeNull();
    });
  });
}

function matchContract(name: string, make: () => Promise<{ store: MatchStore; done: () => Promise<void> }>) {
  describe(name, () => {
    let store: MatchStore;
    let done: () => Promise<void>;
    beforeAll(async () => ({ store, done } = await make()));
    afterAll(() => done());
    const e = (userId: string, at: number) => ({ userId, name: userId, gatewayId: 'g1', at });
    const key = () => `one-card:classic:3:${randomBytes(3).toString('hex')}`;

    it('fills a table with the oldest waiting users once enough wait', async () => {
      const k = key();
      const t = Date.now();
      expect(await store.enqueue(k, e('u1', t), 3, 60_000)).toBeNull();
      expect(await store.enqueue(k, e('u2', t + 1), 3, 60_000)).toBeNull();
      expect(await store.enqueue(k, e('u1', t + 5), 3, 60_000)).toBeNull(); // repeat keeps u1's place
      const table = await store.enqueue(k, e('u3', t + 2), 3, 60_000);
      expect(table?.map((x) => x.userId)).toEqual(['u1', 'u2', 'u3']);
      expect(table?.[0].at).toBe(t);
      expect(await store.enqueue(k, e('u4', t + 3), 3, 60_000)).toBeNull(); // the queue restarted empty
    });

    it('size 0 only joins the line (a full fleet): no table is taken out however many wait', async () => {
      const k = key();
      const t = Date.now();
      for (const [i, u] of ['f1', 'f2', 'f3', 'f4'].entries())
        expect(await store.enqueue(k, e(u, t + i), 0, 60_000)).toBeNull();
      expect((await store.waiting(k, 60_000)).map((x) => x.userId)).toEqual(['f1', 'f2', 'f3', 'f4']);
      // With room again the next arrival takes the oldest table out.
      const table = await store.enqueue(k, e('f5', t + 9), 3, 60_000);
      expect(table?.map((x) => x.userId)).toEqual(['f1', 'f2', 'f3']);
    });

    it('a user sits in one queue at a time and can leave it', async () => {
      const k1 = key();
      const k2 = key();
      const t = Date.now();
      await store.enqueue(k1, e('a', t), 2, 60_000);
      await store.enqueue(k2, e('a', t), 2, 60_000); // moved to k2
      expect(await store.enqueue(k1, e('b', t + 1), 2, 60_000)).toBeNull();
      expect(await store.dequeue('b')).toBe(true);
      expect(await store.dequeue('b')).toBe(false);
      expect((await store.enqueue(k2, e('c', t + 2), 2, 60_000))?.map((x) => x.userId)).toEqual(['a', 'c']);
    });

    it('drops stale entries and can put a popped table back in its places', async () => {
      const k = key();
      const t = Date.now();
      await store.enqueue(k, e('old', t - 120_000), 2, 60_000);
      expect(await store.enqueue(k, e('new', t), 2, 60_000)).toBeNull(); // 'old' was stale
      const table = (await store.enqueue(k, e('x', t + 1), 2, 60_000))!;
      await store.requeue(k, table, 60_000);
      expect((await store.enqueue(k, e('y', t + 2), 3, 60_000))?.map((x) => x.userId)).toEqual(['new', 'x', 'y']);
    });

    it('lists who waits, oldest first, without the stale, each entry with its bots choice', async () => {
      const k = key();
      const t = Date.now();
      expect(await store.waiting(k, 60_000)).toEqual([]);
      await store.enqueue(k, e('old', t - 120_000), 4, 600_000);
      await store.enqueue(k, { ...e('b', t + 2), bots: false }, 4, 600_000);
      await store.enqueue(k, e('a', t + 1), 4, 600_000);
      const w = await store.waiting(k, 60_000);
      expect(w.map((x) => [x.userId, x.at, x.bots])).toEqual([
        ['a', t + 1, undefined],
        ['b', t + 2, false],
      ]);
      expect(await store.dequeue('a')).toBe(true);
      expect((await store.waiting(k, 60_000)).map((x) => x.userId)).toEqual(['b']);
    });

    it('with a gateway hold, seats players of one gateway together and the oldest only once the hold is over', async () => {
      const k = key();
      const t = Date.now();
      const at = (userId: string, gatewayId: string, ms: number) => ({ userId, name: userId, gatewayId, at: t + ms });
      const hold = 500;
      expect(await store.enqueue(k, at('a1', 'gA', 0), 3, 60_000, hold)).toBeNull();
      expect(await store.enqueue(k, at('b1', 'gB', 1), 3, 60_000, hold)).toBeNull();
      expect(await store.enqueue(k, at('a2', 'gA', 2), 3, 60_000, hold)).toBeNull();
      // Three wait, but of two gateways, and the oldest (a1) has waited 3 ms: held.
      expect(await store.enqueue(k, at('b2', 'gB', 3), 3, 60_000, hold)).toBeNull();
      // The third of gB: gB's three, in line order, though a1 and a2 came first.
      const gB = await store.enqueue(k, at('b3', 'gB', 4), 3, 60_000, hold);
      expect(gB?.map((x) => x.userId)).toEqual(['b1', 'b2', 'b3']);
      expect((await store.waiting(k, 60_000)).map((x) => x.userId)).toEqual(['a1', 'a2']);
      expect(await store.enqueue(k, at('c1', 'gC', 5), 3, 60_000, hold)).toBeNull();
      // a1 has now waited its hold by the newcomer's clock: the oldest three, across gateways.
      const mixed = await store.enqueue(k, at('d1', 'gD', hold), 3, 60_000, hold);
      expect(mixed?.map((x) => x.userId)).toEqual(['a1', 'a2', 'c1']);
      expect(mixed?.[0].at).toBe(t);
      expect((await store.waiting(k, 60_000)).map((x) => x.userId)).toEqual(['d1']);
      expect(await store.dequeue('a1')).toBe(false); // seated: in no queue
    });

    it('a request is carried out once: tried again it changes nothing, even after its table left the queue', async () => {
      const k = key();
      const t = Date.now();
      const rid = (u: string) => `${u}-${randomBytes(4).toString('hex')}`;
      const [r1, r2] = [rid('u1'), rid('u2')];
      expect(await store.enqueueRequest(r1, 60_000, k, e('u1', t), 2, 60_000)).toBeNull();
      // The answer was late: the same request again keeps u1 where it was.
      expect(await store.enqueueRequest(r1, 60_000, k, e('u1', t + 5), 2, 60_000)).toBe('repeat');
      expect(await store.waiting(k, 60_000)).toEqual([e('u1', t)]);
      const table = await store.enqueueRequest(r2, 60_000, k, e('u2', t + 1), 2, 60_000, 500);
      expect(table !== 'repeat' && table?.map((x) => x.userId)).toEqual(['u1', 'u2']);
      // u1 is seated: its first request tried once more must not queue it for a second table.
      expect(await store.enqueueRequest(r1, 60_000, k, e('u1', t + 9), 2, 60_000)).toBe('repeat');
      expect(await store.waiting(k, 60_000)).toEqual([]);
      // A new request of u1's queues it as usual.
      expect(await store.enqueueRequest(rid('u1'), 60_000, k, e('u1', t + 10), 2, 60_000)).toBeNull();
      expect((await store.waiting(k, 60_000)).map((x) => x.userId)).toEqual(['u1']);
    });

    it('a claim is granted to exactly one caller until it expires', async () => {
      const k = `c-${randomBytes(4).toString('hex')}`;
      const r = await Promise.all([store.claim(k, 'm1', 100), store.claim(k, 'm2', 100), store.claim(k, 'm3', 100)]);
      expect(r.filter(Boolean).length).toBe(1);
      await new Promise((res) => setTimeout(res, 150));
      expect(await store.claim(k, 'm2', 100)).toBe(true);
    });
  });
}

snapshotContract('MemorySnapshotStore', async () => ({ store: new MemorySnapshotStore(), done: async () => {} }));
snapshotContract('FileSnapshotStore', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'joke-store-'));
  const store = new FileSnapshotStore(dir);
  return { store, done: async () => rmSync(dir, { recursive: true, force: true }) };
});
matchContract('MemoryMatchStore', async () => ({ store: new MemoryMatchStore(), done: async () => {} }));

const ns = `joke:t${randomBytes(6).toString('hex')}`;
async function redisCleanup(client: Awaited<ReturnType<typeof connectRedis>>) {
  for await (const keys of client.scanIterator({ MATCH: `${ns}:*`, COUNT: 500 }))
    if (keys.length) await client.del(keys);
  await client.close();
}
snapshotContract('RedisSnapshotStore (real Redis)', async () => {
  const client = await connectRedis(REDIS_URL);
  return {
    store: new RedisSnapshotStore(client, ns),
    done: () => redisCleanup(client),
    loseExpiry: async (id) => void (await client.zRem(`${ns}:lease-expiry`, id)),
  };
});
snapshotContract('RedisSnapshotStore (real Redis, writes spaced 5 ms apart)', async () => {
  const client = await connectRedis(REDIS_URL);
  return {
    store: new RedisSnapshotStore(client, `${ns}:gap`, { writeGapMs: 5 }),
    done: () => redisCleanup(client),
    loseExpiry: async (id) => void (await client.zRem(`${ns}:gap:lease-expiry`, id)),
  };
});

describe('snapshot writes spaced by a gap (SNAPSHOT_WRITE_GAP_MS)', () => {
  it('sends the first write of a quiet spell at once and the next turns’ writes in one script call', async () => {
    const conn = await connectRedisConn({ url: REDIS_URL });
    let calls = 0;
    const counting: RedisConn = Object.create(conn);
    counting.evalSha = (sha, keys, args) => {
      calls++;
      return conn.evalSha(sha, keys, args);
    };
    const store = new RedisSnapshotStore(counting, `${ns}:gap2`, { writeGapMs: 3_000 });
    try {
      for (const id of ['a', 'b', 'c']) await store.createRoom(id, 'w1', snap(1), TTL);
      calls = 0;
      expect(await store.write('a', 1, 'w1', snap(2), TTL)).toBe('ok');
      expect(calls).toBe(1);
      const turn = () => new Promise<void>((r) => setImmediate(r));
      const b = store.write('b', 1, 'w1', snap(2), TTL);
      await turn();
      const c = store.write('c', 1, 'w1', snap(2), TTL);
      await turn();
      // Both wait for the gap after the first write's flush, then leave together.
      expect(calls).toBe(1);
      expect(await Promise.all([b, c])).toEqual(['ok', 'ok']);
      expect(calls).toBe(2);
      expect((await store.load('c'))?.seq).toBe(2);
    } finally {
      await conn.close();
      await redisCleanup(await connectRedis(REDIS_URL));
    }
  });
});

matchContract('RedisMatchStore (real Redis)', async () => {
  const client = await connectRedis(REDIS_URL);
  return { store: new RedisMatchStore(client, ns), done: () => redisCleanup(client) };
});

// One cluster for the whole file (≈ 8 s to start); every suite of the file runs on it.
let cluster: LocalCluster;
beforeAll(async () => {
  cluster = await startLocalCluster();
});
afterAll(() => cluster?.stop());

async function clusterCleanup(conn: RedisConn) {
  await conn.close();
}
snapshotContract('RedisSnapshotStore (Redis Cluster, 3 primaries + 3 replicas)', async () => {
  const conn = await connectRedisConn({ clusterUrls: cluster.redisClusterUrls });
  return {
    store: new RedisSnapshotStore(conn, ns),
    done: () => clusterCleanup(conn),
    loseExpiry: async (id) =>
      void (await conn.eval(`return redis.call('ZREM', KEYS[1], ARGV[1])`, [`${ns}:lease-expiry`], [id])),
  };
});
snapshotContract('RedisSnapshotStore (Redis Cluster, each write confirmed by 1 replica)', async () => {
  const conn = await connectRedisConn({ clusterUrls: cluster.redisClusterUrls });
  const store = new RedisSnapshotStore(conn, `${ns}:w1`, { confirm: { replicas: 1, timeoutMs: 5_000 } });
  return { store, done: () => clusterCleanup(conn) };
});
matchContract('RedisMatchStore (Redis Cluster)', async () => {
  const conn = await connectRedisConn({ clusterUrls: cluster.redisClusterUrls });
  return { store: new RedisMatchStore(conn, ns), done: () => clusterCleanup(conn) };
});

describe('MemoryMatchStore claims', () => {
  it('drop the expired ones as new claims come, so one per quick-match request does not pile up', async () => {
    let now = 0;
    const store = new MemoryMatchStore(() => now);
    for (let i = 0; i < 300; i++) expect(await store.claim(`queue-request:${i}`, 'mm', 1_000)).toBe(true);
    expect(store.claimCount).toBe(300);
    // A live claim still holds.
    expect(await store.claim('queue-request:7', 'mm', 1_000)).toBe(false);
    now = 1_000;
    for (let i = 300; i < 600; i++) expect(await store.claim(`queue-request:${i}`, 'mm', 1_000)).toBe(true);
    // The 300 expired ones went in a sweep; only the newer live ones remain (a sweep runs every 256 claims).
    expect(store.claimCount).toBeLessThanOrEqual(300);
    expect(await store.claim('queue-request:7', 'mm', 1_000)).toBe(true);
  });
});
