/**
 * The action shapes: one zod schema, which is both the protocol's contract and
 * apply()'s parser (rules.ts), and the action type inferred from it, so the
 * two cannot drift. Anything it refuses is "잘못된 요청이에요" (R.malformed)
 * with the state untouched.
 */
import { z } from 'zod';

const suit = z.enum(['S', 'H', 'D', 'C']);
const color = z.enum(['R', 'Y', 'G', 'B']);

export const actionSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('play'),
    cardIds: z.array(z.string().min(1).max(16)).min(1).max(8),
    chooseSuit: suit.optional(),
    chooseColor: color.optional(),
    declareOneCard: z.boolean().optional(),
  }),
  z.strictObject({ type: z.literal('draw') }),
  z.strictObject({ type: z.literal('pass') }),
  z.strictObject({ type: z.literal('declareOneCard') }),
  z.strictObject({ type: z.literal('challengeWild4') }),
  z.strictObject({ type: z.literal('acceptWild4') }),
  z.strictObject({ type: z.literal('chooseColor'), color }),
]);

export type OneCardAction = z.infer<typeof actionSchema>;
export type PlayAction = Extract<OneCardAction, { type: 'play' }>;
