/**
 * The room's snapshot write: conditional on its epoch, retried with backoff on
 * store errors (Redis down) — the room waits rather than answer before its
 * state is safe.
 */
import type { RoomHost } from './room-types.ts';
import { storeLost } from './store-loss.ts';

/** What a write needs from its room. */
export interface PersistedRoom {
  readonly id: string;
  readonly epoch: number;
  readonly seq: number;
  readonly closed: boolean;
  /** The store generation the room was opened under (null: the store has no marker). */
  readonly generation: string | null;
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
  data: string,
  steps: string[],
): Promise<'ok' | 'stale' | 'lost' | 'closed'> {
  const { store, metrics, cfg, log, workerId } = host;
  metrics.snapshotBytes.observe(data.length);
  for (let attempt = 0; ; attempt++) {
    if (room.closed) return 'closed';
    const t0 = performance.now();
    try {
      const r = await store.write(room.id, room.epoch, workerId, { seq: room.seq, data, steps }, cfg.leaseTtlMs);
      metrics.snapshotSeconds.observe((performance.now() - t0) / 1000);
      if (r === 'stale') {
        // A refused write means "another worker took the room" only while the store still holds its data.
        if (await storeLost(store, room.generation)) return 'lost';
        metrics.errors.inc({ kind: 'stale' });
        log.warn({ roomId: room.id, epoch: room.epoch }, 'fenced out: another worker took this room');
        return 'stale';
      }
      return 'ok';
    } catch (err) {
      metrics.errors.inc({ kind: 'store' });
      if (attempt % 10 === 0) log.error({ err, roomId: room.id, attempt }, 'snapshot write failed; retrying');
      await host.clock.sleep(Math.min(20 * 2 ** attempt, 1000));
    }
  }
}
