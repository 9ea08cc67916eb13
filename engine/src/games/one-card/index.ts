/**
 * 원카드 (`one-card`): the classic Korean shedding game and its colour-card
 * mode, as specified in shared/specs/one-card.md with clarifications 1–8.
 */
import { RULES_VERSION, restoreState } from './version.ts';
import type { GameDefinition } from '../../core/index.ts';
import { bot } from './bot.ts';
import { optionFields, optionsSchema, playerRange } from './options.ts';
import { presets } from './presets.ts';
import { actionSchema } from './actions.ts';
import { activePlayers, phaseOf } from './active.ts';
import { apply } from './rules.ts';
import { result, type OneCardResult } from './scoring.ts';
import { botRng } from '../../core/rng.ts';
import { setup } from './setup.ts';
import { deadline, onTimeout } from './timeouts.ts';
import type { OneCardAction, OneCardOptions, OneCardState, OneCardView } from './types.ts';
import { eventView, fixedView, ownView, sharedView, view } from './view.ts';

export const oneCard: GameDefinition<OneCardState, OneCardAction, OneCardView, OneCardOptions, OneCardResult> = {
  id: 'one-card',
  rulesVersion: RULES_VERSION,
  restoreState,
  name: '원카드',
  // The colour-card mode is never shown under the trademark's name (spec §12).
  modes: [
    { id: 'classic', name: '원카드' },
    { id: 'uno-style', name: '색깔 카드' },
  ],
  minPlayers: 2,
  maxPlayers: 10,
  optionsSchema,
  optionFields,
  presets,
  actionSchema,
  // 원카드 외치기 is a race among everyone at the table that the window itself orders (window.ts).
  viewFreeActions: ['declareOneCard'],
  playerRange,
  setup,
  apply,
  view,
  viewParts: { fixed: fixedView, shared: sharedView, own: ownView },
  eventView,
  deadline,
  activePlayers,
  phase: phaseOf,
  onTimeout,
  result,
  bot: (v, r) => bot(v, botRng(r)),
};

export type * from './types.ts';
