/**
 * Shedding under pressure (issue 37, "spectators and presence updates are shed before players' frames").
 *
 * State: whether the process is behind (its event-loop delay past GATEWAY_SHED_LOOP_LAG_MS in two of
 * the last three heartbeats), the rooms whose spectators missed frames meanwhile, and per player membership
 * the one presence notice held back (`Membership.heldPresence`, the latest only: a presence notice is the
 * whole list, so a newer one replaces an older one).
 *
 * What goes, in order: a player's view frame always goes (the existing slow-consumer bound still applies).
 * A player's presence notice is held while the process is behind or that socket holds more than
 * GATEWAY_SHED_BUFFERED_BYTES unsent, and goes right before that socket's next view of the room (so the view
 * that follows it, which omits an unchanged list, reads against the right one) or at the first heartbeat
 * that finds the pressure gone. A spectator frame (view or presence, one topic publish per room) is dropped
 * while the process is behind; a spectator socket holding more than GATEWAY_SHED_BUFFERED_BYTES at a
 * heartbeat leaves its rooms' topics until it drained. A spectator that missed frames is resynced like a
 * viewer after a failover: it joins again once the pressure is gone, and the join reply brings the whole
 * view with the presence list and the game's fixed members that a dropped frame may have carried.
 *
 * Failure modes: while the process stays behind, spectators see no moves (they catch up in one frame
 * after); a resync is a join, which a worker that is itself behind may defer or refuse (the spectator's
 * client then joins again by itself, as after any refused join). Counted in
 * joke_gateway_frames_shed_total{kind} and joke_gateway_spectator_resyncs_total.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Membership, PresenceShedding, Session, Sock } from './session.ts';
import { spectatorTopic } from './topics.ts';

export interface ShedOptions {
  /** Loop delay (p99 over a heartbeat, ms) past which the process is behind; 0 = never. */
  shedLoopLagMs: number;
  /** Unsent bytes of one socket past which its presence notices are held and its spectating paused; 0 = never. */
  shedBufferedBytes: number;
}

export interface ShedCounters {
  /** A spectator frame dropped, a presence notice held back, or a spectator socket taken off its room's topic. */
  shed(kind: 'spectator' | 'presence' | 'spectatorPaused'): void;
  resync(): void;
}

export class Shedder implements PresenceShedding {
  private behind = false;
  private readonly recentLagMs: number[] = [];
  private readonly lag: IntervalHistogram | null;
  /** Rooms whose spectator topic missed frames while the process was behind. */
  private readonly missed = new Set<string>();

  constructor(
    private readonly opts: ShedOptions,
    private readonly counters: ShedCounters,
    /** Measure the loop delay (real time only: a test on a fake clock sets it with `measured`). */
    measure: boolean,
  ) {
    this.lag = measure && opts.shedLoopLagMs > 0 ? monitorEventLoopDelay({ resolution: 10 }) : null;
    this.lag?.enable();
  }

  /** Whether the process is behind now (from the last heartbeat's measurement). */
  get pressured(): boolean {
    return this.behind;
  }

  /**
   * The loop delay over the last heartbeat (ms). Behind while two of the last three heartbeats measured
   * more than the limit: one pause (a full GC, a busy neighbour on a test box) neither starts shedding nor
   * lets spectators resync into a loop that is still slow.
   */
  measured(lagMs: number): void {
    this.recentLagMs.push(lagMs);
    if (this.recentLagMs.length > 3) this.recentLagMs.shift();
    const secondHighest = [...this.recentLagMs].sort((a, b) => b - a)[1] ?? 0;
    this.behind = this.opts.shedLoopLagMs > 0 && secondHighest > this.opts.shedLoopLagMs;
  }

  /** One spectator frame of `roomId`: false = dropped (the room's spectators are resynced later). */
  spectatorFrame(roomId: string): boolean {
    if (!this.behind) return true;
    this.missed.add(roomId);
    this.counters.shed('spectator');
    return false;
  }

  /** Whether a presence notice for this socket is held back instead of written now. */
  holdPresence(ws: Sock): boolean {
    const limit = this.opts.shedBufferedBytes;
    return this.behind || (limit > 0 && ws.getBufferedAmount() > limit);
  }

  /** Keeps `frame` (copied: the bus reuses its buffer) as the membership's one held presence notice. */
  hold(m: Membership, seq: number, frame: string | Uint8Array): void {
    m.heldPresence = { seq, frame: typeof frame === 'string' ? frame : frame.slice() };
    this.counters.shed('presence');
  }

  /**
   * At each heartbeat: measures, then — when the pressure is gone — writes the held presence notices and
   * hands the rooms whose spectators must join again to `resync`. Spectator sockets past the byte bound
   * leave their topics (`paused`) until a heartbeat finds them drained.
   */
  tick(sessions: Iterable<Session>, resync: (roomId: string, only?: Session) => void): void {
    if (this.lag) {
      this.measured(this.lag.percentile(99) / 1e6);
      this.lag.reset();
    }
    const limit = this.opts.shedBufferedBytes;
    for (const s of sessions) {
      if (s.closed || s.dropping) continue;
      const full = limit > 0 && s.ws.getBufferedAmount() > limit;
      for (const [roomId, m] of s.rooms) {
        if (m.role === 'spectator') {
          if (full && !m.paused) {
            m.paused = true;
            s.ws.unsubscribe(spectatorTopic(roomId));
            this.counters.shed('spectatorPaused');
          } else if (!full && m.paused && !this.behind) {
            m.paused = false;
            s.ws.subscribe(spectatorTopic(roomId));
            this.counters.resync();
            resync(roomId, s);
          }
        } else if (m.heldPresence && !full && !this.behind) s.flushPresence(m);
      }
    }
    if (this.behind) return;
    for (const roomId of this.missed) {
      this.counters.resync();
      resync(roomId);
    }
    this.missed.clear();
  }

  close(): void {
    this.lag?.disable();
  }
}
