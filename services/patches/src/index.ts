/**
 * Every change this project makes to a third-party library's internals, in one place, each pinned to
 * the versions it was written and measured against (docs/perf-decisions.md says why each exists and
 * when to drop it).
 *
 * - `node-redis.ts`: node-redis's reply queue unlinks shifted commands. Global; applied when this
 *   module loads (the Redis connections import it).
 * - `nats-core.ts`: the NATS client writes its outbound buffer once per event-loop turn. Per connection;
 *   NatsBus applies it with `coalesceWrites(nc, gapMs)`, which changes nothing when the client's
 *   internals differ from what it expects.
 *
 * State: none beyond the patched prototypes. Failure modes: an upgrade outside a pin, or internals that
 * moved, make test/patches.test.ts fail (the NATS patch then leaves the client alone at run time; the
 * node-redis one would no longer take, `redisReplyQueueUnlinks()` false). Widen a pin only after the
 * patch's benchmark and tests pass on the new version.
 */
import './node-redis.ts';

export { coalesceWrites, protocolInternals } from './nats-core.ts';
export { redisReplyQueueUnlinks } from './node-redis.ts';

/** A patched library and the versions the patch is known to fit: `from` ≤ installed < `below`. */
export interface Pin {
  library: string;
  /** The module of this folder that patches it. */
  module: string;
  /** The version the patch was written and measured against. */
  tested: string;
  from: string;
  below: string;
}

export const PINS: readonly Pin[] = [
  { library: '@nats-io/nats-core', module: 'nats-core.ts', tested: '3.4.0', from: '3.4.0', below: '3.5.0' },
  { library: '@redis/client', module: 'node-redis.ts', tested: '6.3.1', from: '6.3.0', below: '6.4.0' },
];

const parts = (v: string): number[] => {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(v);
  if (!m) throw new Error(`not a version: ${v}`);
  return [Number(m[1]), Number(m[2]), Number(m[3])];
};
const compare = (a: string, b: string): number => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
};

/** Whether `version` lies in the pin's range. A pre-release of `from` (3.4.0-rc.1) is outside. */
export function withinPin(version: string, pin: Pin): boolean {
  if (/-/.test(version)) return false;
  return compare(version, pin.from) >= 0 && compare(version, pin.below) < 0;
}
