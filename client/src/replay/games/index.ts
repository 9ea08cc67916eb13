/**
 * What the 복기 screen needs to know about each game beyond the engine contract, one file per game with
 * the same shape (ReplayGame): where hands / rounds start, every card each player holds (all faces: the
 * game is over) and a card's Korean name. Pure reads of an engine state; a state of another shape gives
 * empty hands and the raw id as a name, never an exception.
 */
import { oneCardReplay } from './one-card.ts';
import { pokerReplay } from './poker.ts';
import { hulaReplay } from './hula.ts';
import type { ReplayGame } from './cards.ts';

export type { ReplayGame, HeldCards } from './cards.ts';

export const replayGames: Record<string, ReplayGame> = {
  'one-card': oneCardReplay,
  poker: pokerReplay,
  hula: hulaReplay,
};
