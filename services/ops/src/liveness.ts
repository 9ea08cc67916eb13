/**
 * Liveness from the event loop: a timer that should fire every `intervalMs`
 * measures how late it runs. A loop stuck in a long computation (or a process
 * frozen by the kernel) cannot run the timer, so `/healthz` compares both the
 * last measured lag and the time since the last tick with `maxLagMs`; when
 * either is over (a stall stays visible for `holdMs`, one probe period), the
 * process is alive but useless and the kubelet should restart it. A loop that is merely busy (a few hundred ms under load) stays
 * healthy: the threshold is an operator's choice (LIVENESS_MAX_LAG_MS).
 */
import { int, opt } from './config.ts';

export interface LoopLagMonitor {
  /** The worst lag within the hold window, or the time the current tick is overdue, whichever is larger (ms). */
  lagMs(): number;
  healthy(): boolean;
  readonly maxLagMs: number;
  stop(): void;
}

export interface LoopLagOptions {
  maxLagMs: number;
  /** How often the timer should fire (default 500 ms). */
  intervalMs?: number;
  /**
   * How long a stall past `maxLagMs` keeps /healthz failing after the loop runs again (default 10 s, the
   * kubelet's probe period), so a stall between two probes is still seen by the next one.
   */
  holdMs?: number;
}

export function startLoopLagMonitor(opts: LoopLagOptions): LoopLagMonitor {
  const intervalMs = opts.intervalMs ?? 500;
  const holdMs = opts.holdMs ?? 10_000;
  let lastTick = performance.now();
  let worst = { lag: 0, at: -Infinity };
  const timer = setInterval(() => {
    const now = performance.now();
    const lag = Math.max(0, now - lastTick - intervalMs);
    lastTick = now;
    if (lag > opts.maxLagMs || now - worst.at > holdMs || lag >= worst.lag) worst = { lag, at: now };
  }, intervalMs);
  timer.unref();
  const lagMs = (): number => {
    const now = performance.now();
    const held = now - worst.at <= holdMs ? worst.lag : 0;
    return Math.max(held, now - lastTick - intervalMs);
  };
  return {
    maxLagMs: opts.maxLagMs,
    lagMs,
    healthy: () => lagMs() <= opts.maxLagMs,
    stop: () => clearInterval(timer),
  };
}

/** The config entry every service shares (spread into its own spec). */
export const livenessOptions = () => ({
  livenessMaxLagMs: opt(
    'LIVENESS_MAX_LAG_MS',
    int(50, 600_000),
    5000,
    'Event-loop lag (ms) past which GET /healthz answers 503, so the kubelet restarts a stuck process.',
  ),
});
