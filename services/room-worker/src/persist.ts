/**
 * The room's snapshot write: conditional on its epoch, retried with backoff on
 * store errors (Redis down) — the room waits rather than answer before its
 * state is safe. A steps-only write (snapshot.ts) that the store answers with
 * `gap` (it lost the write these steps continue, in a failover) is sent again
 * whole at once, so the room's state is stored either way.
 *
 * A write is never given up (the room's acknowledged actions depend on it),
 * so its retries are bounded in rate instead: they draw on one RetryBudget
 * per worker (RETRY_RATIO of its first writes, plus a floor), and a retry past
 * the budget waits the longest back-off (MAX_BACKOFF_MS). A store that stalls
 * under N rooms' writes so gets at most budget × N quick retries, then about
 * one a second per room, instead of every room retrying every 20–40 ms.
 */
import { RetryBudget, backoffMs } from '@joke/bus';
import { type SnapshotWrite } from '@joke/stores';
import type { RoomData, RoomHost } from './room-types.ts';
import type { SnapshotEncoder } from './snapshot.ts';
import { storeLost } from './store-loss.ts';

const RETRY_RATIO = 0.1;
const RETRY_FLOOR = 50;
const BASE_BACKOFF_MS = 20;
const MAX_BACKOFF_MS = 1_000;
/** One budget per worker (its RoomHost), made on its first write. */
const budgets = new WeakMap<RoomHost, RetryBudget>();
function budgetOf(host: RoomHost): RetryBudget {
  let b = budgets.get(host);
  if (!b) budgets.set(host, (b = new RetryBudget({ ratio: RETRY_RATIO, floor: RETRY_FLOOR })));
  return b;
}

/** What a write needs from its room. */
export interface PersistedRoom {
  readonly id: string;
  readonly epoch: number;
  readonly seq: number;
  readonly closed: boolean;
  /** The store generation the room was opened under (null: the store has no marker). */
  readonly generation: string | null;
}

/** The room at its current seq, written whole or as its `unwritten` steps only, as `snapshot` decides. */
export function writeRoom(
  host: RoomHost,
  room: PersistedRoom & { readonly data: RoomData; readonly writtenSeq: number },
  snapshot: SnapshotEncoder,
  unwritten: string[],
): ReturnType<typeof writeSnapshot> {
  const seq = room.seq;
  const text = snapshot.next(room.data, seq, unwritten.length);
  const w: SnapshotWrite =
    text === null
      ? { seq, data: null, after: room.writtenSeq, steps: unwritten }
      : { seq, data: text, steps: unwritten };
  // The room does not change while its batch is written (one batch at a time): `whole` is the same room.
  return writeSnapshot(host, room, w, () => snapshot.whole(room.data, seq));
}

/**
 * 'ok' = written; 'stale' = fenced out (another worker owns the room now);
 * 'lost' = refused because the store lost the room (store-loss.ts);
 * 'closed' = the room closed while waiting. Any but 'ok' means the
 * room is gone from this worker.
 */
export async function writeSnapshot(
  host: RoomHost,
  room: PersistedRoom,
  first: SnapshotWrite,
  /** The whole snapshot at `first.seq`, for a steps-only write the store cannot take. */
  whole: () => string,
): Promise<'ok' | 'stale' | 'lost' | 'closed'> {
  const { store, metrics, cfg, log, workerId } = host;
  let w = first;
  const budget = budgetOf(host);
  budget.first();
  for (let attempt = 0; ; attempt++) {
    if (room.closed) return 'closed';
    const t0 = performance.now();
    try {
      const r = await store.write(room.id, room.epoch, workerId, w, cfg.leaseTtlMs);
      metrics.snapshotSeconds.observe((performance.now() - t0) / 1000);
      if (r === 'gap' && w.data === null) {
        metrics.errors.inc({ kind: 'gap' });
        log.warn(
          { roomId: room.id, seq: w.seq, after: w.after },
          'store lacks the write these steps follow; writing whole',
        );
        w = { seq: w.seq, data: whole(), steps: w.steps };
        continue;
      }
      if (r === 'gap') throw new Error(`store answered gap to a whole snapshot of ${room.id}`);
      if (r === 'stale') {
        // A refused write means "another worker took the room" only while the store still holds its data.
        if (await storeLost(store, room.generation)) return 'lost';
        metrics.errors.inc({ kind: 'stale' });
        log.warn({ roomId: room.id, epoch: room.epoch }, 'fenced out: another worker took this room');
        return 'stale';
      }
      observe(host, w);
      return 'ok';
    } catch (err) {
      metrics.errors.inc({ kind: 'store' });
      if (attempt % 10 === 0) log.error({ err, roomId: room.id, attempt }, 'snapshot write failed; retrying');
      // Half the back-off fixed, half jittered, so the rooms of one stalled store do not retry in step.
      const ceiling = budget.tryRetry() ? Math.min(BASE_BACKOFF_MS * 2 ** attempt, MAX_BACKOFF_MS) : MAX_BACKOFF_MS;
      await host.clock.sleep(ceiling / 2 + backoffMs(1, ceiling / 2, ceiling / 2));
    }
  }
}

/** What a write stored: its bytes (the whole text, if any, and the steps) and whether it was whole. */
function observe({ metrics }: RoomHost, w: SnapshotWrite): void {
  let bytes = w.data?.length ?? 0;
  for (const s of w.steps) bytes += s.length;
  metrics.snapshotBytes.observe(bytes);
  metrics.snapshotWrites.inc({ kind: w.data === null ? 'steps' : 'whole' });
}
