/**
 * 원카드 rules versions (core/versions.ts):
 * 1 — before versions existed: after a draw, multiPlay also took other cards of the drawn card's rank.
 * 2 — §8.2 / §5.2 B-2: after a draw only the drawn card, alone.
 */
import { z } from 'zod';
import { baseStateShape, makeRestore } from '../../core/versions.ts';
import { optionsSchema } from './options.ts';
import type { OneCardState } from './types.ts';

export const RULES_VERSION = 2;

/** §8.2: from version 2 a play after a draw is the drawn card alone. */
export const drawnCardAlone = (s: Pick<OneCardState, 'rulesVersion'>): boolean => s.rulesVersion >= 2;

const card = z.looseObject({ id: z.string().min(1), kind: z.string() });
const pid = z.string().min(1);

const stateSchema = z.looseObject({
  ...baseStateShape('one-card'),
  mode: z.enum(['classic', 'uno-style']),
  options: optionsSchema,
  decks: z.union([z.literal(1), z.literal(2)]),
  seats: z.array(pid).min(2),
  hands: z.record(pid, z.array(card)),
  drawPile: z.array(card),
  discard: z.array(card).min(1),
  direction: z.union([z.literal(1), z.literal(-1)]),
  current: pid,
  phase: z.looseObject({ kind: z.enum(['turn', 'afterDraw', 'chooseColor', 'wild4Response', 'finished']) }),
  pendingAttack: z.number().int().min(0),
  extraTurn: z.boolean(),
  status: z.record(pid, z.enum(['playing', 'out', 'bankrupt'])),
  finishOrder: z.array(pid),
  bankruptOrder: z.array(pid),
  turnStartedAt: z.number(),
  timeoutsInRow: z.record(pid, z.number().int().min(0)),
});

export const restoreState = makeRestore<OneCardState>({
  game: 'one-card',
  current: RULES_VERSION,
  schema: stateSchema,
  // Version 1 states have every field of version 2; only the version itself was missing.
  migrate: () => {},
});
