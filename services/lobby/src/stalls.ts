/**
 * Durations of the lobby's background work (lifecycle ticks, room-list reads), published on the
 * `lobby:stall` diagnostics channel only while someone listens (bench/loop-stalls.ts), so the
 * benchmark can tell which of them lines up with its slow calls. Costs one check otherwise.
 */
import diagnostics from 'node:diagnostics_channel';

const channel = diagnostics.channel('lobby:stall');

/** Reports `what` took from `since` (performance.now()) until now. */
export function reportStall(what: string, since: number): void {
  if (channel.hasSubscribers) channel.publish({ what, ms: performance.now() - since });
}

export const stallWatched = (): boolean => channel.hasSubscribers;
