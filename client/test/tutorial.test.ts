/**
 * The first-game tutorial's step logic over several seeds, engine only: at
 * every learner turn the highlighted moves are exactly the engine's legal
 * moves (each one is accepted by the engine's apply; for 원카드 every other
 * card of the hand is refused), the coach line is Korean and names the
 * situation, and the hand reaches its end.
 */
import { describe, expect, it } from 'vitest';
import { Rng, type GameStateBase, type OneCardView } from '@joke/engine/client';
import { LESSONS, type TutorialGame } from '../src/tutorial/lessons.ts';
import { learnerMoves } from '../src/tutorial/moves.ts';
import { coachLine } from '../src/tutorial/coach.ts';
import { lessonState } from '../src/tutorial/session-state.ts';

interface Run {
  turns: number;
  lines: string[];
  labels: string[];
  ended: boolean;
  /** The coach's line once the lesson is over. */
  last: string;
}

/** Plays a lesson: bots by the engine's bot, the learner by a random highlighted move. */
function play(game: TutorialGame, seed: string | undefined, pickSeed: string, prefer?: RegExp): Run {
  const lesson = LESSONS[game];
  const g = lesson.def;
  const { state: s0, players } = lessonState(lesson, seed);
  let s: GameStateBase = s0;
  const me = players[0];
  const botRng = Rng.fromSeed(pickSeed, 'bots');
  const pick = Rng.fromSeed(pickSeed, 'learner');
  const run: Run = { turns: 0, lines: [], labels: [], ended: false, last: '' };
  for (let step = 0; step < 2000; step++) {
    if (lesson.done(s)) {
      run.ended = true;
      run.last = coachLine(game, g.view(s, me), []);
      break;
    }
    const v = g.view(s, me);
    const moves = learnerMoves(game, v);
    const line = coachLine(game, v, moves);
    expect(line).toMatch(/[가-힣]/);
    if (moves.length > 0) {
      run.turns++;
      run.lines.push(line);
      run.labels.push(...moves.map((m) => m.label));
      // Every highlighted move is one the engine accepts now.
      for (const m of moves) expect(g.apply(s, me, m.action, 0).ok, `${game} ${m.label}`).toBe(true);
      if (game === 'one-card') {
        const ov = v as OneCardView;
        for (const c of ov.hand ?? [])
          if (!moves.some((m) => m.key === c.id))
            expect(g.apply(s, me, { type: 'play', cardIds: [c.id], chooseSuit: 'S' }, 0).ok).toBe(false);
      }
    }
    let moved = false;
    for (const p of players) {
      const liked = prefer ? moves.find((m) => prefer.test(m.label)) : undefined;
      const mine = liked ?? (moves.length ? moves[pick.int(moves.length)] : null);
      const a = p === me ? (mine?.action ?? null) : g.bot(g.view(s, p), botRng);
      if (!a) continue;
      const r = g.apply(s, p, a, 0);
      if (r.ok) {
        s = r.state as GameStateBase;
        moved = true;
        break;
      }
    }
    expect(moved, `${game}: somebody can move`).toBe(true);
  }
  return run;
}

describe('first-game tutorial', () => {
  for (const game of ['one-card', 'poker', 'hula'] as const) {
    it(`${game}: highlighted moves are the engine's legal moves at every learner turn, and the hand ends`, () => {
      for (const pickSeed of ['a', 'b', 'c', 'd', 'e']) {
        for (const seed of [undefined, 'other-1', 'other-2']) {
          const run = play(game, seed, pickSeed);
          expect(run.ended, `${game} ${seed} ${pickSeed}`).toBe(true);
          expect(run.turns).toBeGreaterThan(0);
        }
      }
    });
  }

  it('원카드 lesson meets following the pile, an attack and its defence on its own seed', () => {
    const lines = new Set<string>();
    for (const p of ['a', 'b', 'c', 'd', 'e']) for (const l of play('one-card', undefined, p).lines) lines.add(l);
    const all = [...lines].join('\n');
    expect(all).toContain('무늬나 숫자가 같은 카드');
    expect(all).toContain('상대가 공격 카드를 냈어요. 같은 공격 카드로 막거나 카드를 받아야 해요');
    expect(all).toMatch(/원카드/);
  });

  it('포커 lesson: blinds, then check/call to a showdown that names both hands', () => {
    const run = play('poker', undefined, 'a', /^(콜|체크)$/);
    expect(run.lines[0]).toContain('블라인드');
    expect(run.labels).toEqual(expect.arrayContaining(['콜', '체크', '레이즈', '폴드']));
    expect(run.last).toMatch(/^쇼다운! 봇 똘이: .+, 나: .+ — /);
  });

  it('훌라 lesson: draw, 등록 of the prepared three 5s and the lone 7', () => {
    const run = play('hula', undefined, 'a', /^(등록|붙이기|땡큐)/);
    expect(run.lines[0]).toContain('차례의 시작');
    expect(run.labels).toEqual(expect.arrayContaining(['더미에서 뽑기', '등록 ♠5·♥5·♦5', '등록 ♣7']));
    expect(run.lines.some((l) => l.includes('등록할 수 있어요'))).toBe(true);
  });
});
