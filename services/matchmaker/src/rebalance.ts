/**
 * Rebalancing: after a scale-up the new workers hold nothing (placement only
 * steers new rooms), so an operator asks a matchmaker to even the load by live
 * migration. The plan is pure and deterministic — from the same heartbeats
 * every replica plans the same moves — and moves as few tables as it can:
 * one at a time from the fullest worker to the emptiest, until no two differ
 * by more than one (or the cap is reached). A worker gives its rooms in the
 * order the store lists its leases.
 */
import type { Bus } from '@joke/bus';
import type { Logger } from '@joke/ops';
import { bus as wire, call, contract, PROTOCOL_VERSION } from '@joke/protocol';

export interface WorkerLoad {
  workerId: string;
  roomIds: readonly string[];
}

export interface Move {
  roomId: string;
  from: string;
  to: string;
}

export function planRebalance(workers: readonly WorkerLoad[], maxMoves: number): Move[] {
  const ws = [...workers]
    .sort((a, b) => (a.workerId < b.workerId ? -1 : a.workerId > b.workerId ? 1 : 0))
    .map((w) => ({ workerId: w.workerId, roomIds: w.roomIds, count: w.roomIds.length, given: 0 }));
  const moves: Move[] = [];
  // Always from the fullest to the emptiest (ties to the lower id), until they differ by at most one.
  while (ws.length > 1 && moves.length < maxMoves) {
    let hi = ws[0];
    let lo = ws[0];
    for (const w of ws) {
      if (w.count > hi.count) hi = w;
      if (w.count < lo.count) lo = w;
    }
    if (hi.count - lo.count <= 1) break;
    moves.push({ roomId: hi.roomIds[hi.given++], from: hi.workerId, to: lo.workerId });
    hi.count--;
    lo.count++;
  }
  return moves;
}

/** Moves grouped per (source, target) pair, in chunks a single migrate request may carry. */
export function batches(moves: readonly Move[], size: number): { from: string; to: string; roomIds: string[] }[] {
  const groups = new Map<string, { from: string; to: string; roomIds: string[] }>();
  for (const m of moves) {
    const key = `${m.from}\u0000${m.to}`;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { from: m.from, to: m.to, roomIds: [] }));
    g.roomIds.push(m.roomId);
  }
  const out: { from: string; to: string; roomIds: string[] }[] = [];
  for (const g of groups.values())
    for (let i = 0; i < g.roomIds.length; i += size)
      out.push({ from: g.from, to: g.to, roomIds: g.roomIds.slice(i, i + size) });
  return out;
}

export interface RebalanceDeps {
  bus: Bus;
  log: Logger;
  /** Live workers that take rooms (not draining), with the rooms their leases name. */
  liveWorkers(): Promise<WorkerLoad[]>;
}

/** Rooms per migrate request: a worker hands them over in chunks and answers when all are placed. */
const BATCH = 200;

export async function rebalance(deps: RebalanceDeps, req: wire.RebalanceRequest): Promise<wire.RebalanceReply> {
  const live = await deps.liveWorkers();
  const count = (ws: WorkerLoad[]) => Object.fromEntries(ws.map((w) => [w.workerId, w.roomIds.length]));
  const moves = planRebalance(live, req.maxMoves);
  const out: wire.RebalanceReply = { before: count(live), planned: moves.length, moved: 0, stayed: 0, after: {} };
  if (!req.dryRun) {
    // Sources work in parallel; one source's batches go one after another so it never pauses too many tables.
    const bySource = new Map<string, ReturnType<typeof batches>>();
    for (const b of batches(moves, BATCH)) bySource.set(b.from, [...(bySource.get(b.from) ?? []), b]);
    await Promise.all(
      [...bySource.values()].map(async (list) => {
        for (const b of list) {
          const msg: wire.MigrateRequest = { v: PROTOCOL_VERSION, roomIds: b.roomIds, toWorkerId: b.to };
          try {
            const r = await call(deps.bus, contract.workerMigrate.at(b.from), msg, 30_000);
            out.moved += r.moved.length;
            out.stayed += r.stayed.length;
          } catch (err) {
            deps.log.warn({ err, from: b.from, to: b.to, rooms: b.roomIds.length }, 'migrate request failed');
            out.stayed += b.roomIds.length;
          }
        }
      }),
    );
  }
  const after = new Map(live.map((w) => [w.workerId, w.roomIds.length]));
  for (const m of moves) {
    after.set(m.from, after.get(m.from)! - 1);
    after.set(m.to, after.get(m.to)! + 1);
  }
  out.after = Object.fromEntries(after);
  deps.log.info(out, req.dryRun ? 'rebalance planned (dry run)' : 'rebalance done');
  return out;
}
