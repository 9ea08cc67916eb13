/** §8.5 자리 비움: three timeouts in a row shrink that player's timer to 5 s until they act themselves. */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/core/index.ts';
import { verifyRecord, type RecordedStep } from '../../src/record/record.ts';
import { oneCard } from '../../src/games/one-card/index.ts';
import { AWAY_TURN_MS, WILD4_RESPONSE_MS } from '../../src/games/one-card/timeouts.ts';
import type { OneCardState } from '../../src/games/one-card/types.ts';
import { fresh, NOW, ok, options, play, players, rejects, rig } from './helpers.ts';

const TURN_MS = 30_000;

/** p1 lets the timer run out; p2 draws on its own one second into each of its turns. */
function p1TimesOut(s: OneCardState, times: number): OneCardState {
  for (let i = 0; i < times; i++) {
    expect(s.current).toBe('p1');
    s = ok(oneCard.onTimeout(s, oneCard.deadline(s)!)).state;
    s = ok(oneCard.apply(s, 'p2', { type: 'draw' }, s.turnStartedAt + 1000)).state;
  }
  return s;
}

const twoPlayers = () =>
  rig({ turnSeconds: 30 }, 2, {
    hands: { p1: ['C9', 'D9'], p2: ['C4', 'D4'] },
    discard: ['H8'],
    pile: Array.from({ length: 30 }, () => 'S2'),
    current: 'p1',
  });

describe('§8.5 자리 비움 timer', () => {
  it('§8.5 — after 3 timeouts in a row the player’s turn timer is 5 s; the others keep the full timer', () => {
    const s = p1TimesOut(twoPlayers(), 3);
    expect(s.timeoutsInRow).toEqual({ p1: 3, p2: 0 });
    expect(oneCard.deadline(s)).toBe(s.turnStartedAt + AWAY_TURN_MS);
    expect(oneCard.view(s, 'p2').deadline).toBe(s.turnStartedAt + AWAY_TURN_MS);
    const next = ok(oneCard.onTimeout(s, s.turnStartedAt + AWAY_TURN_MS)).state;
    expect(next.current).toBe('p2');
    expect(oneCard.deadline(next)).toBe(next.turnStartedAt + TURN_MS);
  });

  it('§8.5 — two timeouts in a row are not yet 자리 비움: the full timer still applies', () => {
    const s = p1TimesOut(twoPlayers(), 2);
    expect(s.timeoutsInRow.p1).toBe(2);
    expect(oneCard.deadline(s)).toBe(s.turnStartedAt + TURN_MS);
  });

  it('§8.5 — the shortened timer is enforced: onTimeout is refused before 5 s and keeps counting at 5 s', () => {
    const s = p1TimesOut(twoPlayers(), 3);
    rejects(s, (x) => oneCard.onTimeout(x, x.turnStartedAt + AWAY_TURN_MS - 1), '아직 시간이 남아 있어요');
    const t = ok(oneCard.onTimeout(s, s.turnStartedAt + AWAY_TURN_MS));
    expect(t.events.find((e) => e.type === 'timeout')).toMatchObject({ player: 'p1', action: 'draw' });
    expect(t.state.timeoutsInRow.p1).toBe(4);
  });

  it('§8.5 — acting oneself ends 자리 비움: the count resets and the next turn has the full timer again', () => {
    const s = p1TimesOut(twoPlayers(), 3);
    const back = ok(oneCard.apply(s, 'p1', { type: 'draw' }, s.turnStartedAt + 1000)).state;
    expect(back.timeoutsInRow.p1).toBe(0);
    const again = ok(oneCard.apply(back, 'p2', { type: 'draw' }, back.turnStartedAt + 1000)).state;
    expect(again.current).toBe('p1');
    expect(oneCard.deadline(again)).toBe(again.turnStartedAt + TURN_MS);
  });

  it('§8.5 — an automatic move is not acting oneself: the timer stays short after every further timeout', () => {
    let s = p1TimesOut(twoPlayers(), 3);
    s = p1TimesOut(s, 2);
    expect(s.timeoutsInRow.p1).toBe(5);
    expect(oneCard.deadline(s)).toBe(s.turnStartedAt + AWAY_TURN_MS);
  });

  it('§8.5 — the +4 response of an away player is also shortened (10 s → 5 s)', () => {
    const o = { mode: 'uno-style', unoWild4Rule: 'challenge' };
    const base = rig(o, 3, { hands: { p1: ['W4', 'R3', 'G7'], p2: ['B1'] }, discard: ['R5'], current: 'p1' });
    const present = ok(play(base, 'p1', ['W4'], { chooseColor: 'B' })).state;
    expect(oneCard.deadline(present)).toBe(present.turnStartedAt + WILD4_RESPONSE_MS);
    const away = ok(
      play({ ...base, timeoutsInRow: { ...base.timeoutsInRow, p2: 3 } }, 'p1', ['W4'], { chooseColor: 'B' }),
    ).state;
    expect(away.phase.kind).toBe('wild4Response');
    expect(oneCard.deadline(away)).toBe(away.turnStartedAt + AWAY_TURN_MS);
  });

  it('§8.5 — the rule lives in the engine: a game with an away player replays step for step from its record', () => {
    const rng = Rng.fromSeed('away-replay');
    const seed = 'away-replay-seed';
    let s = fresh({}, 3, seed);
    const actions: RecordedStep[] = [];
    let shortTurns = 0;
    const timeout = () => {
      const at = oneCard.deadline(s)!;
      s = ok(oneCard.onTimeout(s, at)).state;
      actions.push({ timeout: true, now: at });
    };
    for (let i = 0; i < 5000 && !oneCard.result(s); i++) {
      const mover = s.phase.kind === 'wild4Response' ? s.phase.target : s.current;
      if (mover === 'p2') {
        // p2 is gone for the whole game: every one of its turns runs out.
        if (s.timeoutsInRow.p2 >= 3) {
          expect(oneCard.deadline(s)! - s.turnStartedAt).toBe(AWAY_TURN_MS);
          shortTurns++;
        }
        timeout();
        continue;
      }
      const a = oneCard.bot(oneCard.view(s, mover), rng);
      if (!a) {
        timeout();
        continue;
      }
      const at = s.turnStartedAt + 500;
      s = ok(oneCard.apply(s, mover, a, at)).state;
      actions.push({ actor: mover, action: a, now: at });
    }
    expect(oneCard.result(s)).not.toBeNull();
    expect(shortTurns).toBeGreaterThan(0);
    const v = verifyRecord(oneCard, {
      game: 'one-card',
      options: { ...options({}) },
      players: players(3),
      startedAt: NOW,
      seedCommit: s.seedCommit,
      rulesVersion: s.rulesVersion,
      seed,
      actions,
      result: oneCard.result(s),
    });
    expect(v.problems).toEqual([]);
    expect(v.steps).toBe(actions.length);
  });
});
