/**
 * From the games' disconnection rules to the runtime's socket settings. A
 * silently dead client is only noticed when its socket goes quiet: uWS
 * pings an idle socket and closes it when `idleTimeout` seconds pass with no
 * traffic (no pong). uWS counts that timeout in 4-second steps, so the
 * window is rounded down to a multiple of 4 — the runtime notices at or
 * before the game's limit, never after — and never below uWS's 8 s minimum.
 */
export const UWS_IDLE_STEP_SEC = 4;
export const UWS_IDLE_MIN_SEC = 8;

/** The socket idle timeout (seconds) that honours the shortest `disconnectAfterMs` of `games`, or `fallbackSec`. */
export function socketIdleTimeoutSec(games: Iterable<{ disconnectAfterMs?: number }>, fallbackSec = 60): number {
  let shortest = Infinity;
  for (const g of games) if (g.disconnectAfterMs !== undefined) shortest = Math.min(shortest, g.disconnectAfterMs);
  if (shortest === Infinity) return fallbackSec;
  const steps = Math.floor(shortest / 1000 / UWS_IDLE_STEP_SEC);
  return Math.max(UWS_IDLE_MIN_SEC, steps * UWS_IDLE_STEP_SEC);
}
