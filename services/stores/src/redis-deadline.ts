/**
 * node-redis's 5 s bound on a command, at a fraction of its cost, for the
 * scripts the stores run per player action (the room worker's snapshot write).
 *
 * Why: node-redis (@redis/client 6, `DEFAULT_COMMAND_TIMEOUT`) gives every
 * command its own `AbortSignal.timeout(5000)`. Such a signal's timer cannot be
 * cleared: it fires 5 s later even for a command answered in 100 µs, and builds
 * a DOMException (a stack trace) when it does. One awaited 4 KB SET cost
 * 37-40 µs of CPU with it and 22-25 µs without, plus ≈ 15 µs per command when
 * the timers fire 5 s later (bench/redis-deadline.ts); the room worker's profile
 * under bench/capacity.ts had ≈ 5 % of its busy samples in AbortSignal,
 * DOMException and their timers.
 *
 * What that timeout does (commands-queue.js): a command still waiting to be
 * WRITTEN after 5 s — the connection is down and it sits in the offline queue —
 * is taken out of the queue and rejected; once written, a command has no
 * timeout (it waits for its answer or the connection's loss), so on a healthy
 * connection the listener is removed within a tick and only the timer is left.
 *
 * Here the commands of one 100 ms slot share ONE AbortController, aborted 5 s
 * after the slot opened, which node-redis honours exactly where it honours its
 * timeout (`abortSignal` option, same `#rejectCommand`): an unsent command is
 * still dropped after at most 5 s (4.9 s at least). Only the error differs —
 * `AbortError` instead of `TimeoutError`; the stores treat both as a failed
 * write and retry.
 *
 * Both connections use it (redis-conn.ts): a single client's and a cluster
 * client's `withCommandOptions` proxies, the cluster's passing the options on
 * to the node connection each script is routed (or redirected) to.
 */
import { setMaxListeners } from 'node:events';

/** node-redis's default command timeout (`DEFAULT_COMMAND_TIMEOUT`), kept. */
export const COMMAND_BOUND_MS = 5000;
const SLOT_MS = 100;
/** Given to abort() so that aborting does not build a DOMException per slot. */
const EXPIRED = new Error(`redis command not sent within ${COMMAND_BOUND_MS} ms`);

/** Client options for a bounded command: no per-command timer, the slot's signal instead. */
export interface BoundedOptions {
  timeout: 0;
  abortSignal: AbortSignal;
}

/**
 * Hands out `make(options)` for the current slot (`make` is called once per slot, e.g.
 * `client.withCommandOptions`), opening a new slot when the last is older than 100 ms.
 */
export class CommandDeadlines<T> {
  private slot: { until: number; value: T } | null = null;

  constructor(
    private readonly make: (options: BoundedOptions) => T,
    private readonly boundMs = COMMAND_BOUND_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  current(): T {
    const now = this.now();
    if (this.slot !== null && now < this.slot.until) return this.slot.value;
    const ctrl = new AbortController();
    // One listener per command in flight: no leak warning for a busy slot.
    setMaxListeners(0, ctrl.signal);
    // Unref'd like node-redis's own timeout signals: it never keeps a process alive.
    setTimeout(() => ctrl.abort(EXPIRED), this.boundMs).unref();
    this.slot = { until: now + SLOT_MS, value: this.make({ timeout: 0, abortSignal: ctrl.signal }) };
    return this.slot.value;
  }
}
