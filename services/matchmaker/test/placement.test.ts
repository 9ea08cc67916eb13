import { describe, expect, it } from 'vitest';
import { rank, weightOf } from '../src/index.ts';
import { contract, refuse, serve, type bus as wire } from '@joke/protocol';
import { InProcessBus } from '@joke/bus';
import { FakeClock, systemClock, type Clock } from '@joke/bus/clock';
import { deadlineMargin, Placer, type PlacerHost } from '../src/placer.ts';

const ws = (n: number, rooms = 0) => Array.from({ length: n }, (_, i) => ({ workerId: `worker-${i}`, rooms }));
const ids = Array.from({ length: 3000 }, (_, i) => `room-${i}`);
const share = (workers: ReturnType<typeof ws>) => {
  const c = new Map<string, number>();
  for (const id of ids) {
    const w = rank(id, workers, 10_000, 8)[0];
    c.set(w, (c.get(w) ?? 0) + 1);
  }
  return c;
};

describe('rendezvous placement', () => {
  it('gives the same answer for the same heartbeats, whatever their order (replicas agree)', () => {
    const a = ws(5);
    const b = [...a].reverse();
    for (const id of ids.slice(0, 200)) expect(rank(id, a, 10_000, 8)).toEqual(rank(id, b, 10_000, 8));
  });

  it('spreads rooms evenly over equally loaded workers', () => {
    const c = share(ws(3));
    for (const n of c.values()) expect(Math.abs(n - 1000)).toBeLessThan(150);
  });

  it('moves only the rooms of a worker that leaves', () => {
    const all = ws(4);
    const before = new Map(ids.map((id) => [id, rank(id, all, 10_000, 8)[0]]));
    const without = all.filter((w) => w.workerId !== 'worker-2');
    for (const id of ids) {
      const now = rank(id, without, 10_000, 8)[0];
      if (before.get(id) !== 'worker-2') expect(now).toBe(before.get(id));
      else expect(now).not.toBe('worker-2');
    }
  });

  it('sends fewer new rooms to a loaded worker, but never none', () => {
    const workers = [
      { workerId: 'busy', rooms: 8_000 },
      { workerId: 'idle-1', rooms: 0 },
      { workerId: 'idle-2', rooms: 0 },
    ];
    const c = share(workers);
    expect(c.get('busy')!).toBeLessThan(c.get('idle-1')! / 2);
    expect(c.get('busy')!).toBeGreaterThan(0);
  });

  it('rounds load to levels so small heartbeat differences do not change the answer', () => {
    expect(weightOf(100, 10_000, 8)).toBe(weightOf(130, 10_000, 8));
    expect(weightOf(20_000, 10_000, 8)).toBe(1 / 8);
    const a = [
      { workerId: 'x', rooms: 100 },
      { workerId: 'y', rooms: 200 },
    ];
    const b = [
      { workerId: 'x', rooms: 112 },
      { workerId: 'y', rooms: 190 },
    ];
    for (const id of ids.slice(0, 300)) expect(rank(id, a, 10_000, 8)).toEqual(rank(id, b, 10_000, 8));
  });
});

describe('a failover burst spread over the workers (Placer.spread)', () => {
  const workers = ws(2);
  const placer = new Placer({
    cfg: { openRetryRatio: 0.1 },
    rank: (id: string, exclude?: string) =>
      rank(
        id,
        workers.filter((w) => w.workerId !== exclude),
        10_000,
        8,
      ),
  } as unknown as PlacerHost);

  it('gives no worker more than its even share, keeping each room on its best worker where there is room', () => {
    // 34 rooms of one dead worker, as in a cluster-test failover that sent 27 of them to one worker.
    const burst = Array.from({ length: 34 }, (_, i) => `k3-${i}`);
    const first = placer.spread(burst);
    const load = new Map<string, number>();
    for (const w of first.values()) load.set(w, (load.get(w) ?? 0) + 1);
    expect([...load.values()].sort()).toEqual([17, 17]);
    // Only rooms whose best worker was already full were moved to their second choice.
    const moved = burst.filter((id) => first.get(id) !== rank(id, workers, 10_000, 8)[0]);
    const top = new Map<string, number>();
    for (const id of burst)
      top.set(rank(id, workers, 10_000, 8)[0], (top.get(rank(id, workers, 10_000, 8)[0]) ?? 0) + 1);
    expect(moved.length).toBe(Math.max(...top.values()) - 17);
  });

  it('leaves out the excluded (dead) worker', () => {
    const first = placer.spread(['a', 'b', 'c'], 'worker-1');
    expect([...first.values()]).toEqual(['worker-0', 'worker-0', 'worker-0']);
  });
});

/**
 * Workers x then y; x never answers in time (or, with `xCode` 'expired', refuses a request that reached it
 * late), y opens anything; the store's lease is `lease`, and each room whose lease was read is in `leaseReads`.
 */
const placerWith = (lease: { owner: string; epoch: number } | null, xCode: 'timeout' | 'expired' = 'timeout') => {
  const asked: string[] = [];
  const leaseReads: string[] = [];
  const placer = new Placer({
    cfg: { openRetryRatio: 0.1 },
    rank: (_id: string, exclude?: string) => ['x', 'y'].filter((w) => w !== exclude),
    shardOf: () => 1,
    snapshots: { lease: async (id: string) => (leaseReads.push(id), lease) },
    metrics: { placed: { inc: () => {} }, errors: { inc: () => {} } },
  } as unknown as PlacerHost);
  placer.openOn = async (workerId) => {
    asked.push(workerId);
    return workerId === 'x' ? refuse(xCode) : { ok: true, epoch: 2, seq: 7 };
  };
  return { placer, asked, leaseReads };
};

describe('a worker that timed out opening a room (Placer.place)', () => {
  it('a restore the slow worker took (the lease is its own now) is not restored again elsewhere', async () => {
    const { placer, asked } = placerWith({ owner: 'x', epoch: 2 });
    expect(await placer.place('r', { v: 1, roomId: 'r', restore: true }, 'dead')).toEqual({
      ok: true,
      workerId: 'x',
      shard: 1,
    });
    expect(asked).toEqual(['x']);
  });

  it('a restore whose lease is still the dead worker’s goes on to the next worker', async () => {
    const { placer, asked } = placerWith({ owner: 'dead', epoch: 1 });
    const r = await placer.place('r', { v: 1, roomId: 'r', restore: true }, 'dead');
    expect(r).toEqual({ ok: true, workerId: 'y', shard: 1 });
    expect(asked).toEqual(['x', 'y']);
  });

  it('an orphan (no lease before) that the slow worker took stays with it', async () => {
    const { placer, asked } = placerWith({ owner: 'x', epoch: 5 });
    expect((await placer.place('r', { v: 1, roomId: 'r', restore: true })).ok).toBe(true);
    expect(asked).toEqual(['x']);
  });
});

describe('the deadline of an open request (Placer.openOn)', () => {
  /** A placer on an in-process bus whose worker `x` records each request and answers it with `answer`. */
  const placerOn = (clock: Clock, answer: wire.OpenRoomReply | null) => {
    const bus = new InProcessBus();
    const got: wire.OpenRoomRequest[] = [];
    serve(
      bus,
      contract.workerOpen.at('x'),
      (req, respond) => {
        got.push(req);
        if (answer) respond(answer);
      },
      () => refuse('malformed'),
    );
    const counted: string[] = [];
    const warned: string[] = [];
    const placer = new Placer({
      bus,
      clock,
      cfg: { openTimeoutMs: 60, openRetryRatio: 0.1 },
      metrics: { placed: { inc: () => {} }, errors: { inc: (l: { kind: string }) => counted.push(l.kind) } },
      log: { warn: (_o: object, msg: string) => warned.push(msg) },
    } as unknown as PlacerHost);
    return { placer, got, counted, warned };
  };

  it('on the wall clock the worker must take the room a margin before the matchmaker gives up', async () => {
    const { placer, got } = placerOn(systemClock, { ok: true, epoch: 1, seq: 0 });
    const before = Date.now();
    expect((await placer.openOn('x', { v: 1, roomId: 'r', restore: true })).ok).toBe(true);
    const after = Date.now();
    expect(deadlineMargin(60)).toBe(20);
    expect(deadlineMargin(3_000)).toBe(1_000);
    expect(deadlineMargin(60_000)).toBe(1_000);
    expect(got[0].deadline).toBeGreaterThanOrEqual(before + 60 - 20);
    expect(got[0].deadline).toBeLessThanOrEqual(after + 60 - 20);
  });

  it('on fake time it sends none: a fake clock has no time another process could compare with', async () => {
    const { placer, got } = placerOn(new FakeClock(), { ok: true, epoch: 1, seq: 0 });
    expect((await placer.openOn('x', { v: 1, roomId: 'r', restore: true })).ok).toBe(true);
    expect(got[0]).not.toHaveProperty('deadline');
  });

  it('an open nobody answers is logged and counted, and comes back as a timeout', async () => {
    const { placer, counted, warned } = placerOn(systemClock, null);
    expect(await placer.openOn('x', { v: 1, roomId: 'r', restore: true })).toMatchObject({
      ok: false,
      code: 'timeout',
    });
    expect(counted).toEqual(['openTimeout']);
    expect(warned).toEqual(['open got no answer in time']);
  });

  it('a worker that refused a late request sends place on as after a timeout, lease read first', async () => {
    const { placer, asked, leaseReads } = placerWith({ owner: 'dead', epoch: 1 }, 'expired');
    expect(await placer.place('r', { v: 1, roomId: 'r', restore: true }, 'dead')).toEqual({
      ok: true,
      workerId: 'y',
      shard: 1,
    });
    expect(asked).toEqual(['x', 'y']);
    expect(leaseReads).toEqual(['r']);
  });
});
