/**
 * When the clock decides for me the table says what it did (issue 16 §3):
 * real poker engine states played by its bots up to the moment, the clock
 * run out with the engine's own onTimeout, and the notice read from the views
 * before and after — the same inputs PokerScene gets.
 */
import { describe, expect, it } from 'vitest';
import { poker, Rng, type PokerState, type PokerView } from '@joke/engine/client';
import { clockDecided } from '../src/games/poker/clock-notice.ts';
import { PREPARED } from '../src/harness/prepared.ts';

const players = ['p0', 'p1', 'p2'].map((id) => ({ id, name: id }));

function start(mode: string, seed: string): PokerState {
  const options = poker.optionsSchema.parse({ mode });
  return poker.setup({ seed, players, options, now: 1_000 });
}

/** Bots play every seat (p0 too) until `until` holds for p0's view. */
function playUntil(s: PokerState, until: (v: PokerView) => boolean, seed: string): PokerState {
  const rng = Rng.fromSeed(seed, 'clock-notice');
  for (let step = 0; step < 500; step++) {
    if (until(poker.view(s, 'p0'))) return s;
    let moved = false;
    for (const p of players) {
      const a = poker.bot(poker.view(s, p.id), rng);
      if (!a) continue;
      const r = poker.apply(s, p.id, a, 2_000 + step);
      if (r.ok) {
        s = r.state;
        moved = true;
        break;
      }
    }
    if (!moved) {
      const r = poker.onTimeout(s, poker.deadline(s) ?? 0);
      if (!r.ok) break;
      s = r.state;
    }
  }
  throw new Error('the moment never came');
}

/** Runs the clock out on p0's decision and returns what the table would say. */
function runOut(s: PokerState): string | null {
  const before = poker.view(s, 'p0');
  const r = poker.onTimeout(s, poker.deadline(s)!);
  if (!r.ok) throw new Error(r.reason);
  return clockDecided(before, poker.view(r.state, 'p0'), r.events);
}

const mine = (type: string) => (v: PokerView) => v.legalActions.some((a) => a.type === type);

describe('the clock decided for me', () => {
  it('betting: a free turn checks, a bet to face folds (다이 in the Korean betting)', () => {
    const facing = playUntil(start('holdem', 'c1'), (v) => mine('nl.fold')(v) && !mine('nl.check')(v), 'c1');
    expect(runOut(facing)).toBe('시간이 다 되어 자동으로 폴드했어요');
    const free = playUntil(start('holdem', 'c2'), mine('nl.check'), 'c2');
    expect(runOut(free)).toBe('시간이 다 되어 자동으로 체크했어요');
    const korean = playUntil(start('sevenPoker', 'c3'), (v) => mine('k.die')(v) && !mine('k.check')(v), 'c3');
    expect(runOut(korean)).toBe('시간이 다 되어 자동으로 다이했어요');
  });

  it('the 7포커 choice, a draw and a declaration each say what the clock chose', () => {
    expect(runOut(playUntil(start('sevenPoker', 'c4'), mine('choose'), 'c4'))).toBe(
      '시간이 다 되어 가장 낮은 카드를 버리고 다음 카드를 공개했어요',
    );
    expect(runOut(playUntil(start('badugi', 'c5'), mine('draw'), 'c5'))).toBe(
      '시간이 다 되어 카드를 바꾸지 않고 넘겼어요',
    );
    expect(runOut(playUntil(start('sevenHiLo', 'c6'), mine('declare'), 'c6'))).toBe('시간이 다 되어 하이로 선언했어요');
  });

  it('an unanswered rebuy declines; another seat’s clock says nothing to me', () => {
    const s = structuredClone(start('holdem', 'c7'));
    PREPARED.rebuy(
      s,
      players.map((p) => p.id),
    );
    expect(runOut(s)).toBe('시간이 다 되어 리바이하지 않았어요');
    const other = playUntil(start('holdem', 'c8'), (v) => v.hand?.phase === 'betting' && v.hand.toAct !== 'p0', 'c8');
    expect(runOut(other)).toBeNull();
  });
});
