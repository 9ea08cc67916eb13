/**
 * A finished room's last duties on this worker: publish its record (at least
 * once: again after a crash before it was marked), then linger for late
 * viewers and leave.
 *
 * Failure modes: the record's publish is retried by the next owner if this
 * process dies before the stream stored it (the mark travels in the snapshot);
 * a drop the store refuses leaves the lease to lapse, and a sweep retries it.
 */
import type { Timer } from '@joke/bus/clock';
import type { HostedRoom, Item, RoomData, RoomHost } from './room-types.ts';

/** What the linger needs of its room (room.ts's Room), named here so this file does not import room.ts back. */
export interface LingeringRoom extends HostedRoom {
  readonly data: RoomData;
  readonly closed: boolean;
  enqueue(item: Item): void;
  pause(): Promise<void>;
  close(): void;
}

export class FinishLinger {
  private dropTimer: Timer | null = null;

  constructor(
    private readonly host: RoomHost,
    private readonly room: LingeringRoom,
    /** Stops the room's deadline and bot timers: nothing moves in a finished game. */
    private readonly stopTimers: () => void,
    /** Tells the lobby the room is closed for good (lifecycle.ts). */
    private readonly reportClosed: () => void,
  ) {}

  afterFinish(): void {
    const { host, room } = this;
    this.stopTimers();
    // Once its record is out the table only lingers for late viewers: out of the owner hint, so a failover
    // resumes the live tables first and this one from the scan after them (a restore costs the same CPU).
    const settled = () => void host.store.unhint?.(host.workerId, room.id).catch(() => {});
    if (!room.data.finishedPublished) {
      // Marked only once the stream stored it: a crash before that publishes it again (same id: a duplicate
      // the stream drops, and the lobby's history is idempotent anyway).
      void host.onFinished(room).then(() => {
        if (!room.closed) room.enqueue({ kind: 'markPublished' });
        settled();
      });
    } else settled();
    if (!this.dropTimer) {
      const { clock } = host;
      const left = Math.max(0, (room.data.finishedAt ?? clock.now()) + host.cfg.finishedLingerMs - clock.now());
      this.dropTimer = clock.setTimeout(() => void this.drop(), left);
    }
  }

  cancel(): void {
    this.host.clock.clearTimeout(this.dropTimer);
  }

  private async drop(): Promise<void> {
    const { host, room } = this;
    await room.pause();
    if (room.closed) return;
    try {
      await host.store.drop(room.id, room.epoch);
    } catch (err) {
      host.metrics.errors.inc({ kind: 'store' });
      host.log.warn({ err, roomId: room.id }, 'drop failed; the lease will lapse and a sweep retries');
    }
    this.reportClosed();
    host.onClosedForGood(room);
    room.close();
  }
}
