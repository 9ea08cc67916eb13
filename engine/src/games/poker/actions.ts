/**
 * The action shapes: one zod schema, which is both the protocol's contract and
 * apply()'s parser (rules.ts), and the action type inferred from it, so the
 * two cannot drift. Anything it refuses is "잘못된 요청이에요"
 * (COMMON_REASONS.malformed) with the state untouched.
 */
import { z } from 'zod';

const card = z.number().int().min(0).max(51);
export const actionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('choose'), discardId: card, openId: card }),
  z.strictObject({
    type: z.enum(['k.check', 'k.ping', 'k.call', 'k.ddadang', 'k.quarter', 'k.half', 'k.full', 'k.die']),
  }),
  z.strictObject({ type: z.enum(['nl.fold', 'nl.check', 'nl.call', 'nl.allIn']) }),
  z.strictObject({ type: z.literal('nl.raise'), to: z.number().int().positive().max(1e12) }),
  z.strictObject({ type: z.literal('draw'), cardIds: z.array(card).max(5) }),
  z.strictObject({ type: z.literal('declare'), side: z.enum(['high', 'low', 'swing']) }),
  z.strictObject({ type: z.literal('ready') }),
  z.strictObject({ type: z.literal('rebuy'), accept: z.boolean() }),
  z.strictObject({ type: z.literal('leave') }),
]);

export type PokerAction = z.infer<typeof actionSchema>;
