/**
 * 훌라 rules versions (core/versions.ts):
 * 1 — before versions existed: deck-exhaustion ties among losers were broken from the winner's seat.
 * 2 — §6.2-4: from the player whose turn was next. (Joker roles in melds, §5.3, are a new optional
 *     action field: old actions mean what they meant, so they need no version.)
 */
import { z } from 'zod';
import { baseStateShape, makeRestore } from '../../core/versions.ts';
import { optionsSchema } from './options.ts';
import type { HulaState } from './types.ts';

export const RULES_VERSION = 2;

/** §6.2-4: from version 2 exhaustion ties are ordered from the next player. */
export const exhaustionTiesFromNext = (rulesVersion: number): boolean => rulesVersion >= 2;

const card = z.looseObject({ id: z.string().min(1), suit: z.enum(['S', 'H', 'D', 'C', 'X']), rank: z.number().int() });
const meld = z.looseObject({
  id: z.number().int().min(1),
  owner: z.string().min(1),
  kind: z.enum(['set', 'run', 'seven']),
  cards: z.array(card).min(1),
  rank: z.number().int(),
});

const stateSchema = z.looseObject({
  ...baseStateShape('hula'),
  options: optionsSchema,
  seats: z
    .array(
      z.looseObject({
        id: z.string().min(1),
        status: z.enum(['playing', 'left']),
        points: z.number().int(),
        timeoutsInRow: z.number().int().min(0),
      }),
    )
    .min(2),
  round: z.number().int().min(1),
  inRound: z.array(z.boolean()),
  hands: z.array(z.array(card)),
  registered: z.array(z.boolean()),
  hadTurn: z.array(z.boolean()),
  stock: z.array(card),
  stockTop: z.number().int().min(0),
  discard: z.array(card),
  melds: z.array(meld),
  nextMeldId: z.number().int().min(1),
  phase: z.looseObject({
    kind: z.enum(['draw', 'act', 'thankYouAsk', 'thankYouRace', 'roundEnd', 'finished']),
  }),
  turnStartedAt: z.number(),
  feeTotal: z.number(),
  history: z.array(z.looseObject({})),
});

export const restoreState = makeRestore<HulaState>({
  game: 'hula',
  current: RULES_VERSION,
  schema: stateSchema,
  migrate: () => {},
});
