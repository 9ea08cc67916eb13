/** Every game the platform serves, by id, and the types that go with each. */
import type { AnyGame } from '../core/types.ts';
import { hula } from './hula/index.ts';
import { oneCard } from './one-card/index.ts';
import { poker } from './poker/index.ts';
import type { HulaResult } from './hula/result.ts';
import type { HulaAction, HulaOptions, HulaState, HulaView } from './hula/types.ts';
import type { OneCardResult } from './one-card/scoring.ts';
import type { OneCardAction, OneCardOptions, OneCardState, OneCardView } from './one-card/types.ts';
import type { PokerResult } from './poker/scoring.ts';
import type { PokerAction, PokerOptions, PokerState, PokerView } from './poker/types.ts';

export const games: Record<string, AnyGame> = { 'one-card': oneCard, hula, poker };

/** State, action, view, options and result of each game, so callers type a frame by its game id. */
export interface GameTypes {
  'one-card': {
    state: OneCardState;
    action: OneCardAction;
    view: OneCardView;
    options: OneCardOptions;
    result: OneCardResult;
  };
  poker: { state: PokerState; action: PokerAction; view: PokerView; options: PokerOptions; result: PokerResult };
  hula: { state: HulaState; action: HulaAction; view: HulaView; options: HulaOptions; result: HulaResult };
}

export type { HulaResult, OneCardResult, PokerResult };
