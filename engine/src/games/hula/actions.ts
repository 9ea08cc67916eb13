/**
 * The action shapes (docs/games/hula.md §8.2): one zod schema, which is both
 * the protocol's contract and apply()'s parser (rules.ts), and the action type
 * inferred from it, so the two cannot drift. Anything it refuses is
 * "잘못된 요청이에요" (COMMON_REASONS.malformed) with the state untouched.
 */
import { z } from 'zod';

const ids = (min: number, max: number) => z.array(z.string().min(1).max(8)).min(min).max(max);
const sub = { substitute: z.boolean().optional() };

export const actionSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('draw'), from: z.enum(['stock', 'discard']), ...sub }),
  z.strictObject({
    type: z.literal('meld'),
    cardIds: ids(1, 13),
    /** The joker's role when the group reads more than one way (melds.ts `meldForms`); absent = the default reading. */
    form: z
      .union([
        z.strictObject({ kind: z.literal('set') }),
        z.strictObject({ kind: z.literal('run'), low: z.number().int().min(1).max(13) }),
      ])
      .optional(),
    ...sub,
  }),
  z.strictObject({
    type: z.literal('layOff'),
    cardIds: ids(1, 12),
    meldId: z.number().int().min(1).optional(),
    end: z.enum(['low', 'high']).optional(),
    ...sub,
  }),
  z.strictObject({ type: z.literal('discard'), cardId: z.string().min(1).max(8), ...sub }),
  z.strictObject({ type: z.literal('stop'), ...sub }),
  z.strictObject({ type: z.literal('special'), ...sub }),
  z.strictObject({ type: z.literal('thankYou'), cardIds: ids(1, 12), ...sub }),
  z.strictObject({ type: z.literal('pass'), ...sub }),
  z.strictObject({ type: z.literal('ready'), ...sub }),
  z.strictObject({ type: z.literal('reserveLeave'), on: z.boolean(), auto: z.boolean().optional() }),
]);

export type HulaAction = z.infer<typeof actionSchema>;
