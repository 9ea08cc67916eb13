/** hula §8.5 disconnection rule → the runtime's socket idle timeout (no real waiting: the window is computed). */
import { describe, expect, it } from 'vitest';
import { socketIdleTimeoutSec } from '../src/core/presence.ts';
import { games } from '../src/games/index.ts';
import { DISCONNECT_AFTER_MS } from '../src/games/hula/timers.ts';

describe('disconnection windows', () => {
  it('§8.5 (훌라) — the game declares its 30 s rule and the socket idle timeout notices a dead client at or before it', () => {
    expect(games.hula.disconnectAfterMs).toBe(DISCONNECT_AFTER_MS);
    expect(DISCONNECT_AFTER_MS).toBe(30_000);
    const sec = socketIdleTimeoutSec(Object.values(games));
    expect(sec).toBe(28);
    expect(sec * 1000).toBeLessThanOrEqual(DISCONNECT_AFTER_MS);
    expect(sec % 4).toBe(0);
  });

  it('the shortest window wins, rounded down to uWS 4 s steps, never under 8 s; no rule = the fallback', () => {
    expect(socketIdleTimeoutSec([{ disconnectAfterMs: 45_000 }, { disconnectAfterMs: 30_000 }, {}])).toBe(28);
    expect(socketIdleTimeoutSec([{ disconnectAfterMs: 32_000 }])).toBe(32);
    expect(socketIdleTimeoutSec([{ disconnectAfterMs: 3_000 }])).toBe(8);
    expect(socketIdleTimeoutSec([{}, {}], 60)).toBe(60);
  });
});
