/**
 * A worker whose bus drops is, to the matchmakers, a dead worker: their pings find no responder and they fail
 * its rooms over to another worker at the next lease epoch. When the bus comes back the old worker still has
 * those rooms in memory, subscribed to the same subjects as the new owner. Its writes are fenced by the store,
 * but a refusal needs no write: answered from its stale state it races the new owner's acknowledgement, and a
 * player could be told an action was refused that the table has applied.
 *
 * So from the moment the bus reports the loss every room is held (nothing processed, nothing answered), and
 * after the reconnect every lease is renewed at once: the rooms still ours answer what queued up, the others
 * are let go without a word (the gateway's retry reaches the new owner). A store that cannot be reached keeps
 * the rooms held and is asked again.
 */
import type { Bus } from '@joke/bus';
import type { Logger } from '@joke/ops';
import type { Clock } from '@joke/bus/clock';
import type { Room } from './room.ts';
import type { Upkeep } from './upkeep.ts';

export interface ReconnectHost {
  bus: Bus;
  log: Logger;
  clock: Clock;
  rooms: ReadonlyMap<string, Room>;
  upkeep: Pick<Upkeep, 'renewLeases'>;
  closed(): boolean;
}

const RETRY_MS = [50, 100, 250, 500, 1000];

export class ReconnectGuard {
  /** Bumped on every loss, so a check that began before a second loss does not release the rooms. */
  private losses = 0;
  private up = true;
  private readonly stop: () => void;

  constructor(private readonly h: ReconnectHost) {
    this.stop = h.bus.onConnectionChange?.((up) => (up ? void this.reconnected() : this.lost())) ?? (() => {});
  }

  /** Rooms opened while the bus is down (their lease was just written) still wait for the reconnect. */
  adopted(room: Room): void {
    if (!this.up) room.hold();
  }

  private lost(): void {
    this.up = false;
    this.losses++;
    for (const r of this.h.rooms.values()) r.hold();
    this.h.log.warn({ rooms: this.h.rooms.size }, 'bus lost; holding every room until its lease is checked');
  }

  private async reconnected(): Promise<void> {
    this.up = true;
    const loss = this.losses;
    for (let attempt = 0; !this.h.closed() && loss === this.losses; attempt++) {
      const held = [...this.h.rooms.values()].filter((r) => !r.closed && r.isHeld);
      try {
        if (held.length > 0) await this.h.upkeep.renewLeases(held);
        if (loss !== this.losses) return;
        let kept = 0;
        for (const r of held)
          if (!r.closed) {
            r.unhold();
            kept++;
          }
        this.h.log.info({ kept, letGo: held.length - kept }, 'bus back; leases checked');
        return;
      } catch (err) {
        this.h.log.warn({ err, attempt }, 'lease check after reconnect failed; rooms stay held');
        await this.h.clock.sleep(RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]);
      }
    }
  }

  close(): void {
    this.stop();
  }
}
