/**
 * Which swarm process runs each table slot, and which gateway URL each of its sockets goes to.
 *
 * Spread (the default): slot i belongs to process i mod count, and a slot's seats go round the URLs
 * seat by seat, as a load balancer that knows nothing of tables would deal them.
 *
 * Packed (`fillSockets` N > 0): slots in order fill the first process and the first URL up to N
 * sockets, then the next, the last taking whatever is left; a table is never cut between two. This
 * is for a box whose open-file limit alone forces a second gateway and a second swarm process: at
 * 5,000 four-seat tables one process would need ≈ 20,020 files where the limit here is 20,000. Packed,
 * all but a few dozen tables run on one gateway and one swarm process — the configuration the
 * capacity figure is asked for (issue 9: one gateway) — instead of two half-loaded ones, each waking
 * for half as much (measured: 15–26 % more CPU per action at 4,000 tables, docs/measurements/stack-capacity.md).
 */
import { mixOf, timelineOf, type SwarmOptions } from './options.ts';
import { mixAssignment } from './scenario.ts';

export interface SeatingInput {
  /** Sockets of each slot, in slot order (players + spectators). */
  socketsOfSlot: readonly number[];
  /** Players of each slot (its first sockets; the rest are spectators). */
  playersOfSlot: readonly number[];
  processes: number;
  urls: number;
  /** 0: spread; else each process and URL holds up to this many sockets before the next takes any. */
  fillSockets: number;
}

export class Seating {
  /** Packed: the bin (process and URL index before clamping) of each slot; null when spread. */
  private readonly bins: Int32Array | null;

  constructor(private readonly s: SeatingInput) {
    if (s.fillSockets <= 0) {
      this.bins = null;
      return;
    }
    this.bins = new Int32Array(s.socketsOfSlot.length);
    let bin = 0;
    let held = 0;
    for (let i = 0; i < s.socketsOfSlot.length; i++) {
      const n = s.socketsOfSlot[i];
      if (held > 0 && held + n > s.fillSockets) {
        bin++;
        held = 0;
      }
      held += n;
      this.bins[i] = bin;
    }
  }

  /** The swarm process (0 … processes − 1) that runs slot `i`. */
  processOf(i: number): number {
    const { processes } = this.s;
    return this.bins === null ? i % processes : Math.min(this.bins[i], processes - 1);
  }

  /** The URL index of player seat `n` of slot `i`. */
  playerUrl(i: number, n: number): number {
    const { urls } = this.s;
    return this.bins === null ? (i * this.s.playersOfSlot[i] + n) % urls : Math.min(this.bins[i], urls - 1);
  }

  /** The URL index of spectator `n` of slot `i`. */
  spectatorUrl(i: number, n: number): number {
    const { urls } = this.s;
    return this.bins === null ? (i + n) % urls : Math.min(this.bins[i], urls - 1);
  }

  /** Sockets each process opens when every slot runs at once (the peak). */
  socketsPerProcess(): number[] {
    const out = new Array<number>(this.s.processes).fill(0);
    this.s.socketsOfSlot.forEach((n, i) => (out[this.processOf(i)] += n));
    return out;
  }

  /** Sockets each URL is sent when every slot runs at once. */
  socketsPerUrl(): number[] {
    const out = new Array<number>(this.s.urls).fill(0);
    this.s.socketsOfSlot.forEach((n, i) => {
      const players = this.s.playersOfSlot[i];
      for (let k = 0; k < players; k++) out[this.playerUrl(i, k)]++;
      for (let k = 0; k < n - players; k++) out[this.spectatorUrl(i, k)]++;
    });
    return out;
  }
}

/** The run's seating: every slot up to the run's peak, with the mix dealt as the swarm deals it. */
export function seatingOf(opts: SwarmOptions): Seating {
  const mix = mixOf(opts);
  const assignment = mixAssignment(mix, timelineOf(opts).peak);
  const playersOfSlot = assignment.map((k) => mix[k].players);
  return new Seating({
    socketsOfSlot: playersOfSlot.map((p) => p + opts.spectators),
    playersOfSlot,
    processes: opts.workers,
    urls: opts.url.split(',').length,
    fillSockets: opts.fillSockets,
  });
}
