/**
 * A room's timers for its current state: the game deadline, the bots' think
 * time and the AI substitute's moves for disconnected seats. Each only puts an
 * item on the room's queue; the room decides there whether it still applies.
 */
import type { AnyGame } from '@joke/engine';
import type { Clock, Timer } from '@joke/bus/clock';
import type { WorkerConfig } from './config.ts';
import type { Item, RoomData } from './room-types.ts';
import { SubstituteTimers } from './substitute.ts';

/** What the timers read from their room. */
export interface TimedRoom {
  readonly game: AnyGame;
  readonly data: RoomData;
  readonly finished: boolean;
  readonly closed: boolean;
  isConnected(userId: string): boolean;
  enqueue(item: Item): void;
}

export class RoomTimers {
  private deadlineTimer: Timer | null = null;
  private armedDeadline: number | null = null;
  private readonly botTimers = new Map<string, Timer>();
  private readonly substitutes: SubstituteTimers;

  constructor(
    private readonly room: TimedRoom,
    private readonly cfg: WorkerConfig,
    private readonly clock: Clock,
  ) {
    this.substitutes = new SubstituteTimers(clock, (seat) => room.enqueue({ kind: 'substitute', seat }));
  }

  /**
   * The deadline timer's callback, made once per room: most actions move the deadline, and a closure
   * made per action would live until the next (seconds) and be promoted to the old generation.
   */
  private readonly deadlineDue = (): void => {
    this.deadlineTimer = null;
    this.armedDeadline = null;
    this.room.enqueue({ kind: 'timeout' });
  };

  /** A bot's timer fired (its item is being handled): it may be armed again. */
  botFired(seat: string): void {
    this.botTimers.delete(seat);
  }

  /** See `SubstituteTimers.forgetFired`. */
  forgetFiredSubstitutes(seat?: string): void {
    this.substitutes.forgetFired(seat);
  }

  /** Deadline timer, bot think timers and substitute timers for the current state. */
  rearm(): void {
    const room = this.room;
    if (room.closed) return;
    if (room.finished) return this.clear();
    const { game, data } = room;
    const d = game.deadline(data.state);
    if (d !== this.armedDeadline) {
      this.clock.clearTimeout(this.deadlineTimer);
      this.deadlineTimer = null;
      this.armedDeadline = d;
      if (d !== null) this.deadlineTimer = this.clock.setTimeout(this.deadlineDue, Math.max(0, d - this.clock.now()));
    }
    const { botDelayMs, botJitterMs } = this.cfg;
    // The game says whom it waits on; the bot itself is asked only when its timer fires (room-moves.ts).
    let active: readonly string[] = [];
    try {
      active = game.activePlayers(data.state);
    } catch {
      active = [];
    }
    for (const s of data.seats) {
      if (!s.bot || this.botTimers.has(s.id) || !active.includes(s.id)) continue;
      const delay = botDelayMs + (botJitterMs > 0 ? Math.floor(Math.random() * botJitterMs) : 0);
      this.botTimers.set(
        s.id,
        this.clock.setTimeout(() => room.enqueue({ kind: 'bot', seat: s.id }), delay),
      );
    }
    this.rearmSubstitutes();
  }

  /** A substitute timer for every disconnected human seat the game has a move due for; none for the others. */
  rearmSubstitutes(): void {
    const room = this.room;
    const sub = room.game.substitute;
    if (!sub || room.closed) return;
    for (const s of room.data.seats) {
      let at: number | null = null;
      if (!s.bot && !room.finished && !room.isConnected(s.id)) {
        try {
          at = sub.due(room.data.state, s.id, s.disconnectedSince ?? null);
        } catch {
          at = null;
        }
      }
      this.substitutes.set(s.id, at);
    }
  }

  clear(): void {
    this.clock.clearTimeout(this.deadlineTimer);
    this.deadlineTimer = null;
    this.armedDeadline = null;
    for (const t of this.botTimers.values()) this.clock.clearTimeout(t);
    this.botTimers.clear();
    this.substitutes.clear();
  }
}
