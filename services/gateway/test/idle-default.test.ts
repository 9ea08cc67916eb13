/** The gateway's socket idle timeout follows the games' disconnection rules (hula §8.5: 30 s). */
import { describe, expect, it } from 'vitest';
import { configFromEnv, GAME_IDLE_TIMEOUT_SEC } from '../src/config.ts';

describe('gateway idle timeout', () => {
  it('§8.5 (훌라) — by default uWS closes a silent socket within 30 s (28 s), and the variable still overrides it', () => {
    expect(GAME_IDLE_TIMEOUT_SEC).toBe(28);
    expect(
      configFromEnv({ GATEWAY_ID: 'gw-idle', JWT_SECRET: 'a-test-secret-of-enough-length-0123456789' }).config
        .idleTimeoutSec,
    ).toBe(28);
    expect(
      configFromEnv({
        GATEWAY_ID: 'gw-idle',
        JWT_SECRET: 'a-test-secret-of-enough-length-0123456789',
        GATEWAY_IDLE_TIMEOUT_SEC: '12',
      }).config.idleTimeoutSec,
    ).toBe(12);
  });
});
