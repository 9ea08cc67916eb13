/** 포커: seven betting games in one engine (spec poker.md, clarifications 9–15). */
import { RULES_VERSION, restoreState } from './version.ts';
import type { GameDefinition } from '../../core/types.ts';
import { MODES, modeName, optionFields, optionsSchema, playerRange, type PokerOptions } from './options.ts';
import { setup } from './setup.ts';
import { actionSchema } from './actions.ts';
import { activePlayers, phaseOf } from './active.ts';
import { apply } from './rules.ts';
import { fixedView, ownView, sharedView, view } from './view.ts';
import { deadline, onTimeout } from './timeouts.ts';
import { result, type PokerResult } from './scoring.ts';
import { botRng } from '../../core/rng.ts';
import { bot } from './bot.ts';
import type { PokerAction, PokerState, PokerView } from './types.ts';

export const poker: GameDefinition<PokerState, PokerAction, PokerView, PokerOptions, PokerResult> = {
  id: 'poker',
  rulesVersion: RULES_VERSION,
  restoreState,
  name: '포커',
  modes: MODES,
  modeName,
  minPlayers: 2,
  maxPlayers: 10,
  optionsSchema,
  optionFields,
  actionSchema,
  // 하이로우 declarations are made by everyone at once; ready, rebuy and leave do not depend on the board.
  viewFreeActions: ['declare', 'ready', 'rebuy', 'leave'],
  playerRange,
  setup,
  apply,
  view,
  viewParts: { fixed: fixedView, shared: sharedView, own: ownView },
  // Events carry only public facts (counts, open cards, revealed hands), so every viewer gets them whole.
  eventView: (event) => event,
  deadline,
  activePlayers,
  phase: phaseOf,
  onTimeout,
  result,
  bot: (v, r) => bot(v, botRng(r)),
};

export type { PokerState, PokerView, PokerAction, PokerOptions };
