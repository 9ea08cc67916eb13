/** The lesson's table source: the engine in the page, its prepared deal, bots for the other seats. */
import { GameLocalSource } from './game-source.ts';
import type { Lesson } from './lessons.ts';
import type { GameAction, GameStateBase, GameViewBase } from '@joke/engine/client';

export function lessonSource(
  lesson: Lesson,
  botDelayMs: number,
  seed = lesson.seed,
): GameLocalSource<GameAction, GameViewBase> {
  return new GameLocalSource({
    game: lesson.def,
    players: lesson.players,
    options: lesson.options,
    seed,
    viewer: 0,
    botDelayMs,
    autoplay: false,
    names: lesson.names,
    prepare: lesson.prepare,
    pauseWhen: lesson.done,
    // A learner takes the time they need: no turn clock decides for them.
    timeouts: false,
  });
}

/** The lesson's first state (what the tests play through with the engine alone). */
export function lessonState(lesson: Lesson, seed?: string): { state: GameStateBase; players: string[] } {
  const src = lessonSource(lesson, 0, seed);
  return { state: src.current, players: src.playerIds };
}
