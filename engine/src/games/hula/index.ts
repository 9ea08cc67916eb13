/** 훌라 (docs/games/hula.md) on the engine contract, plus the AI substitute the runtime calls. */
import { RULES_VERSION, restoreState } from './version.ts';
import { DISCONNECT_AFTER_MS } from './timers.ts';
import type { GameDefinition } from '../../core/types.ts';
import { actionSchema } from './actions.ts';
import { activePlayers, phaseOf } from './active.ts';
import { bot } from './bot.ts';
import { optionFields, optionsSchema } from './options.ts';
import { result, type HulaResult } from './result.ts';
import { botRng } from '../../core/rng.ts';
import { apply } from './rules.ts';
import { setup } from './setup.ts';
import { deadline, onTimeout, substituteAction, substituteDue } from './timeouts.ts';
import type { HulaAction, HulaOptions, HulaState, HulaView } from './types.ts';
import { eventView, fixedView, ownView, sharedView, view } from './view.ts';

export const hula: GameDefinition<HulaState, HulaAction, HulaView, HulaOptions, HulaResult> = {
  id: 'hula',
  rulesVersion: RULES_VERSION,
  // §8.5: 30 s without a response from the client marks a player disconnected.
  disconnectAfterMs: DISCONNECT_AFTER_MS,
  restoreState,
  name: '훌라',
  modes: [
    { id: 'monster', name: '괴물 훌라' },
    { id: 'joker', name: '조커 훌라' },
  ],
  minPlayers: 2,
  maxPlayers: 5,
  optionsSchema,
  optionFields,
  actionSchema,
  // 땡큐 claims and passes answer one discard at once (thank-you.ts orders the claims); ready and a leave
  // reservation do not depend on the table.
  viewFreeActions: ['thankYou', 'pass', 'ready', 'reserveLeave'],
  playerRange: () => ({ min: 2, max: 5 }),
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
  // §8.6: the runtime calls these for a disconnected player; the engine stays unaware of connections.
  substitute: { due: substituteDue, action: substituteAction },
  // Markers of automatic moves: only the runtime may set them, so a record's marks mean what they say.
  runtimeOnlyFields: ['substitute', 'auto'],
};

export { substituteAction, substituteDue, autoDiscardCard } from './timeouts.ts';
export {
  TIMERS,
  GRACE_MS,
  WATCHDOG_MS,
  RACE_WINDOW_MS,
  SUBSTITUTE_DELAY_MS,
  DISCONNECT_AFTER_MS,
  LEAVE_AFTER_DISCONNECT_MS,
} from './timers.ts';
export type { HulaAction, HulaOptions, HulaState, HulaView } from './types.ts';
