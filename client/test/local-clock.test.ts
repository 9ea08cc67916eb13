/**
 * The in-page table's clocks (GameLocalSource `timeouts`, harness `timeouts=others`): with 'others' my own
 * deadline never plays for me, however long I take, while with the default it does. Engine in the test,
 * fake time; a 홀덤 table of three, my seat first, the bots on the other two.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { poker } from '@joke/engine/client';
import { GameLocalSource } from '../src/tutorial/game-source.ts';

function table(timeouts: boolean | 'others') {
  const source = new GameLocalSource({
    game: poker,
    players: 3,
    options: { mode: 'holdem', turnSeconds: 15 },
    seed: 'local-clock',
    viewer: 0,
    botDelayMs: 100,
    autoplay: false,
    timeouts,
  });
  source.start({
    frame: () => undefined,
    presence: () => undefined,
    connection: () => undefined,
    error: () => undefined,
  });
  return source;
}

const waitsOnMe = (s: GameLocalSource<never, never>) => poker.activePlayers(s.current as never).includes('p0');

/** Lets the bots play until the table waits on my seat; the number of moves made so far. */
function untilMyTurn(s: GameLocalSource<never, never>): number {
  for (let i = 0; i < 200 && !waitsOnMe(s); i++) vi.advanceTimersByTime(100);
  expect(waitsOnMe(s)).toBe(true);
  return s.current.seq;
}

describe('the in-page table clock', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_800_000_000_000 }));
  afterEach(() => vi.useRealTimers());

  it("with timeouts 'others' my turn waits for me ten minutes and more", () => {
    const s = table('others') as GameLocalSource<never, never>;
    const seq = untilMyTurn(s);
    vi.advanceTimersByTime(10 * 60_000);
    expect(s.current.seq).toBe(seq);
    expect(waitsOnMe(s)).toBe(true);
    s.stop();
  });

  it('with the clock on, my turn is played for me once it runs out', () => {
    const s = table(true) as GameLocalSource<never, never>;
    const seq = untilMyTurn(s);
    vi.advanceTimersByTime(20_000);
    expect(s.current.seq).toBeGreaterThan(seq);
    s.stop();
  });
});
