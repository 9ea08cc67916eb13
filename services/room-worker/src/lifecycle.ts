/**
 * The room's part in the lobby's room lifecycle (issue 15): whenever the set
 * of connected human seats or the number of connected spectators changes, one
 * `roomOccupancy` fact tells every lobby, and a last one when the room is
 * dropped for good. Ids and a count only; nothing of the game. A room that
 * merely moves to another worker says nothing: the new owner reports on its
 * first change, and the lobby keeps the last fact meanwhile.
 */
import { contract, emit } from '@joke/protocol';
import type { Bus } from '@joke/bus';
import type { Logger } from '@joke/ops';
import type { Clock } from '@joke/bus/clock';
import { isConnected, type Viewers } from './presence.ts';
import type { SeatMeta } from './room-types.ts';

export class OccupancyReporter {
  private last = '';

  constructor(
    private readonly bus: Bus,
    private readonly roomId: string,
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {}

  /** Publishes the room's occupancy if it changed since the last report. */
  report(seats: readonly SeatMeta[], viewers: Viewers): void {
    const connected = seats.filter((s) => !s.bot && isConnected(viewers, s.id)).map((s) => s.id);
    let spectators = 0;
    for (const v of viewers.values()) if (v.role === 'spectator' && v.connected) spectators++;
    const key = `${connected.join('\u0000')}|${spectators}`;
    if (key === this.last) return;
    this.last = key;
    this.send(connected, spectators, false);
  }

  /** The room is gone for good (dropped after its game). */
  closed(): void {
    this.send([], 0, true);
  }

  private send(connected: string[], spectators: number, closed: boolean): void {
    try {
      emit(this.bus, contract.roomOccupancy, {
        v: 1,
        roomId: this.roomId,
        connected,
        spectators,
        closed,
        at: this.clock.now(),
      });
    } catch (err) {
      this.log.warn({ err, roomId: this.roomId }, 'occupancy publish failed');
    }
  }
}
