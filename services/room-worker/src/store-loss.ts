/**
 * Telling "the store was wiped" from "another worker took the room" (issue 10).
 *
 * Both make the store refuse a room's write or lease renewal, but they call
 * for opposite answers: a room taken over lives on elsewhere and this worker
 * just lets go; a room whose state the store lost (Redis flushed, or restarted
 * without persistence) lives nowhere, and silently letting go left players
 * with "서버가 잠시 바빠요" forever and the lobby showing the table `playing`
 * for 12 hours. The store keeps a generation marker (a random id written once
 * when missing, `SnapshotStore.generation`); each room remembers the value it
 * was opened under, next to its lease epoch. A refusal while the marker still
 * has that value is a takeover; a different value (a wiped store gets a fresh
 * one from whoever asks first) is a loss.
 *
 * A loss is reported as `joke_worker_store_lost_total` (alert JokeStoreLost in
 * the Helm chart), an error log, `error tableLost` to the room's viewers and
 * `RoomLost` to the lobby.
 */
import { contract, emit, PROTOCOL_VERSION } from '@joke/protocol';
import type { Bus } from '@joke/bus';
import type { Logger } from '@joke/ops';
import type { SnapshotStore } from '@joke/stores';
import type { Clock } from '@joke/bus/clock';
import type { WorkerMetrics } from './metrics.ts';

/** The store's marker now, or null when it has none (memory stores, test doubles) or cannot say. */
export async function currentGeneration(store: SnapshotStore): Promise<string | null> {
  if (!store.generation) return null;
  try {
    return await store.generation();
  } catch {
    return null;
  }
}

/** true = the store's marker changed since `openedUnder`: the store lost its data. */
export async function storeLost(store: SnapshotStore, openedUnder: string | null): Promise<boolean> {
  if (openedUnder === null) return false;
  const now = await currentGeneration(store);
  return now !== null && now !== openedUnder;
}

export function reportStoreLost(
  deps: { bus: Bus; log: Logger; metrics: WorkerMetrics; clock: Clock },
  room: { id: string; epoch: number; seq: number },
): void {
  deps.metrics.storeLost.inc();
  deps.log.error(
    { roomId: room.id, epoch: room.epoch, seq: room.seq },
    'the store lost this room (wiped, or restarted without persistence); the table cannot be recovered',
  );
  try {
    emit(deps.bus, contract.roomLost, {
      v: PROTOCOL_VERSION,
      roomId: room.id,
      reason: 'storeLost',
      at: deps.clock.now(),
    });
  } catch (err) {
    deps.metrics.errors.inc({ kind: 'bus' });
    deps.log.error({ err, roomId: room.id }, 'could not publish RoomLost');
  }
}
