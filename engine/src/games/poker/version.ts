/**
 * 포커 rules versions (core/versions.ts):
 * 1 — before versions existed: the §5.2 "nobody left to bet against" check ran only when a round
 *     opened, chips nobody live had matched were merged into the pot below (and a pot without an
 *     eligible player went to everyone live), a pot-limit cap below the minimum raise allowed no raise.
 * 2 — §5.2 after every action, §5.5 unmatched chips go back, §5.3 a raise to a cap below the minimum.
 * 3 — clarification 16: a pot-limit cap below the minimum raise offers no raise (call or fold);
 *     clarification 17: a leaver is not folded at once but takes a timeout's action at every later
 *     decision of the hand, folded chips are never returned and a pot nobody live contributed to
 *     goes to the pot below it.
 */
import { z } from 'zod';
import { baseStateShape, makeRestore } from '../../core/versions.ts';
import { optionsSchema } from './options.ts';
import type { PokerState } from './types.ts';

export const RULES_VERSION = 3;

/** Version-2 rules: §5.2 round end after every action, §5.5 returns, §5.3 cap below the minimum. */
export const v2 = (s: Pick<PokerState, 'rulesVersion'>): boolean => s.rulesVersion >= 2;

/** Version-3 rules: clarifications 16 (no raise under a cap below the minimum) and 17 (leavers, orphaned pots). */
export const v3 = (s: Pick<PokerState, 'rulesVersion'>): boolean => s.rulesVersion >= 3;

const card = z.looseObject({ id: z.number().int().min(0), rank: z.number().int(), suit: z.string() });
const pid = z.string().min(1);
const pot = z.looseObject({ amount: z.number().int().min(0), eligible: z.array(pid) });

const hand = z.looseObject({
  handNo: z.number().int().min(1),
  phase: z.enum(['choice', 'betting', 'draw', 'declare', 'showdown', 'handEnd']),
  step: z.number().int(),
  deck: z.array(card),
  muck: z.array(card),
  board: z.array(card),
  players: z.record(
    pid,
    z.looseObject({
      id: pid,
      folded: z.boolean(),
      allIn: z.boolean(),
      hole: z.array(card),
      committedTotal: z.number().int().min(0),
      committedRound: z.number().int().min(0),
    }),
  ),
  seatOrder: z.array(pid),
  betting: z
    .looseObject({
      order: z.array(pid),
      toAct: pid.nullable(),
      currentBet: z.number().int().min(0),
      lastRaiseSize: z.number().int().min(0),
      opened: z.boolean(),
    })
    .nullable(),
  pots: z.array(pot),
  potResults: z.array(z.looseObject({ amount: z.number().int(), eligible: z.array(pid) })).nullable(),
  rng: z.array(z.number().int()).length(4),
});

const stateSchema = z.looseObject({
  ...baseStateShape('poker'),
  options: optionsSchema,
  betting: z.enum(['korean', 'noLimit', 'potLimit']),
  seats: z
    .array(
      z.looseObject({
        id: pid,
        seat: z.number().int().min(0),
        stack: z.number().int().min(0),
        status: z.enum(['playing', 'busted', 'eliminated', 'left']),
      }),
    )
    .min(2),
  baseUnit: z.number().int().min(1),
  hand: hand.nullable(),
  handsPlayed: z.number().int().min(0),
  carryOver: z.number().int().min(0),
  phase: z.enum(['playing', 'rebuy', 'finished']),
  publicLog: z.array(z.looseObject({})),
});

export const restoreState = makeRestore<PokerState>({
  game: 'poker',
  current: RULES_VERSION,
  schema: stateSchema,
  // Version 1 hands had no pot record of their own.
  migrate: (raw) => {
    const h = raw.hand as Record<string, unknown> | null | undefined;
    if (h && !('potResults' in h)) return { ...raw, hand: { ...h, potResults: null } };
  },
});
