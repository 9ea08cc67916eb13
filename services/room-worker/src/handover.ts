/**
 * Handing live rooms to another worker, shared by drains (every room, until a
 * deadline) and live migration (chosen rooms, once, e.g. to rebalance). For each room: finish the
 * batch in flight (its snapshot write and replies), stop serving it, and ask a
 * matchmaker to restore it elsewhere at the next lease epoch. The players'
 * sockets stay on their gateways; a command that reaches no owner meanwhile is
 * retried by the gateway under the same action id, so nothing acknowledged is
 * lost and nothing is applied twice.
 */
import { bus as wire, call, contract, refuse, PROTOCOL_VERSION, type RefusalCode } from '@joke/protocol';
import type { Bus } from '@joke/bus';
import type { Logger } from '@joke/ops';
import type { SnapshotStore } from '@joke/stores';
import type { WorkerMetrics } from './metrics.ts';
import type { Room } from './room.ts';

export interface HandoverDeps {
  bus: Bus;
  workerId: string;
  metrics: WorkerMetrics;
  log: Logger;
}

export interface HandoverResult {
  placed: { roomId: string; workerId: string }[];
  /** Rooms stopped here that no worker took; the caller retries, reopens or releases them. */
  failed: Room[];
}

/** Rooms per reassign request: bounded so one reply never waits on thousands of restores. */
const CHUNK = 200;

export async function handOver(
  deps: HandoverDeps,
  rooms: Room[],
  opts: { reason: 'drain' | 'migrate'; toWorkerId?: string; timeoutMs: number },
): Promise<HandoverResult> {
  const out: HandoverResult = { placed: [], failed: [] };
  for (let i = 0; i < rooms.length; i += CHUNK) {
    const chunk = rooms.slice(i, i + CHUNK);
    await Promise.all(chunk.map((r) => r.pause()));
    // A room already closed lost its lease (or was dropped) meanwhile: it is someone else's now.
    const live = chunk.filter((r) => !r.closed);
    for (const r of live) r.close();
    if (live.length === 0) continue;
    const req: wire.ReassignRequest = {
      v: PROTOCOL_VERSION,
      fromWorkerId: deps.workerId,
      roomIds: live.map((r) => r.id),
      reason: opts.reason,
      toWorkerId: opts.toWorkerId,
    };
    try {
      const reply = await call(deps.bus, contract.reassign, req, opts.timeoutMs);
      out.placed.push(...reply.placed);
      const failedIds = new Set(reply.failed);
      for (const r of live) if (failedIds.has(r.id)) out.failed.push(r);
    } catch (err) {
      deps.metrics.errors.inc({ kind: 'bus' });
      deps.log.warn({ err, rooms: live.length, reason: opts.reason }, 'reassign request failed');
      out.failed.push(...live);
    }
  }
  return out;
}

const stay = (roomId: string, code: RefusalCode, text?: string) => ({
  roomId,
  code,
  reason: refuse(code, text).reason,
});
const FINISHED = '이미 끝난 방이에요';

export interface MigrationHost extends HandoverDeps {
  store: SnapshotStore;
  room(roomId: string): Room | undefined;
  /** Why this worker cannot migrate to `toWorkerId` now (draining, or it is the target), or null. */
  refusal(toWorkerId: string | undefined): RefusalCode | null;
  /** Takes a room back here from its snapshot at the next epoch. */
  reopen(roomId: string): Promise<boolean>;
  /** Publishes a heartbeat with the new room list. */
  announce(): void;
}

/**
 * Live migration of chosen rooms (rebalancing after a scale-up, emptying a node): each is handed over as in a
 * drain, and one that nobody takes is reopened here at the next epoch, so it never stays unowned.
 */
export async function migrateRooms(host: MigrationHost, req: wire.MigrateRequest): Promise<wire.MigrateReply> {
  const reply: wire.MigrateReply = { moved: [], stayed: [] };
  const moving: Room[] = [];
  for (const id of new Set(req.roomIds)) {
    const r = host.room(id);
    if (!r || r.closed) reply.stayed.push(stay(id, 'notHere'));
    else if (r.finished) reply.stayed.push(stay(id, 'finished', FINISHED));
    else moving.push(r);
  }
  const refusal = host.refusal(req.toWorkerId);
  if (refusal || moving.length === 0) {
    for (const r of moving) reply.stayed.push(stay(r.id, refusal!));
    return reply;
  }
  const t0 = performance.now();
  const r = await handOver(host, moving, { reason: 'migrate', toWorkerId: req.toWorkerId, timeoutMs: 10_000 });
  reply.moved.push(...r.placed);
  for (const room of r.failed) {
    // The reply may have been lost after a restore elsewhere: the lease says who runs the room now.
    const lease = await host.store.lease(room.id).catch(() => null);
    if (lease && lease.owner !== host.workerId) reply.moved.push({ roomId: room.id, workerId: lease.owner });
    else reply.stayed.push(stay(room.id, (await host.reopen(room.id)) ? 'nobodyTook' : 'noSnapshot'));
  }
  host.metrics.migrated.inc(reply.moved.length);
  host.log.info(
    { moved: reply.moved.length, stayed: reply.stayed.length, to: req.toWorkerId, ms: performance.now() - t0 },
    'migration done',
  );
  host.announce();
  return reply;
}
