/**
 * Notices a dead worker from the bus, not only from its missing heartbeats:
 * every `probeMs` each live worker gets a WorkerPing on its own subject. The
 * worker's subscription is its presence on the bus: when its process dies
 * (SIGKILL, OOM) or its connection drops, the NATS server forgets the
 * subscription at once and answers the next ping with "no responders",
 * within a round trip instead of DEAD_AFTER_MS.
 *
 * Only "no responders" counts against a worker. A ping that times out (a
 * worker busy or far away) proves nothing and leaves the heartbeat timeout to
 * judge; a ping answered proves it alive (busy is not dead): its heartbeats
 * may be stuck behind a slow bus while its loop still serves this subject. A false
 * alarm — the worker's NATS node died and it is still reconnecting — is safe:
 * restoring its rooms takes their leases at the next epoch, so the old owner
 * is fenced out of the store on its next write and cannot ack anything after.
 */
import { BusNoRespondersError, type Bus } from '@joke/bus';
import type { Clock, Timer } from '@joke/bus/clock';
import { call, contract } from '@joke/protocol';

export interface ProbeTarget {
  workerId: string;
  incarnation: string;
}

export interface ProbeOptions {
  /** Milliseconds between two pings of a worker; 0 turns probing off. */
  probeMs: number;
  /** How long a ping waits for its answer (a timeout is not a verdict). */
  probeTimeoutMs: number;
  from: string;
  /** Schedules the pings (a ping's own timeout is the bus client's, on real time). */
  clock: Clock;
}

export class WorkerProbe {
  private readonly pending = new Map<string, number>();
  private readonly timer: Timer | null;
  /**
   * Pings one worker may have unanswered at once: enough for one per period until the first times out.
   * A ping delivered just before the process died is never answered, only timed out; with a smaller cap
   * (it was 4) a worker slowed by a loaded box used the cap up in 4 periods and, once dead, was noticed
   * only when those timed out: ≈ 1 s after the kill instead of one period (seen at load 17).
   * The rate stays one ping per period per worker either way, and a slow worker gets no more than that.
   */
  private readonly maxInFlight: number;

  constructor(
    private readonly bus: Bus,
    private readonly opts: ProbeOptions,
    private readonly targets: () => Iterable<ProbeTarget>,
    /** The worker (that incarnation) is not on the bus. */
    private readonly onGone: (t: ProbeTarget) => void,
    /** The worker answered (as that incarnation): it is alive, whatever its heartbeats say. */
    private readonly onAnswer: (t: ProbeTarget) => void = () => {},
  ) {
    this.maxInFlight = opts.probeMs > 0 ? Math.ceil(opts.probeTimeoutMs / opts.probeMs) + 1 : 0;
    this.timer = opts.probeMs > 0 ? opts.clock.setInterval(() => this.round(), opts.probeMs) : null;
  }

  private round(): void {
    // While this replica is itself off the bus, every ping would fail for the wrong reason.
    if (this.bus.connected && !this.bus.connected()) return;
    for (const t of this.targets()) {
      const key = `${t.workerId}/${t.incarnation}`;
      const inFlight = this.pending.get(key) ?? 0;
      if (inFlight >= this.maxInFlight) continue;
      this.pending.set(key, inFlight + 1);
      call(this.bus, contract.workerPing.at(t.workerId), { v: 1, from: this.opts.from }, this.opts.probeTimeoutMs)
        .then(
          (pong) => {
            if (pong.incarnation === t.incarnation) this.onAnswer(t);
          },
          (err: unknown) => {
            if (err instanceof BusNoRespondersError) this.onGone(t);
          },
        )
        .finally(() => {
          const n = (this.pending.get(key) ?? 1) - 1;
          if (n > 0) this.pending.set(key, n);
          else this.pending.delete(key);
        });
    }
  }

  close(): void {
    this.opts.clock.clearInterval(this.timer);
  }
}
