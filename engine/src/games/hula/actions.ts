/**
 * The action shapes (docs/games/hula.md §8.2): a zod schema for the protocol,
 * and a hand-written parser with the same verdicts for the hot path of apply().
 */
import { z } from 'zod';
import type { HulaAction } from './types.ts';

const ids = (min: number, max: number) => z.array(z.string().min(1).max(8)).min(min).max(max);
const sub = { substitute: z.boolean().optional() };

export const actionSchema: z.ZodType<HulaAction> = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('draw'), from: z.enum(['stock', 'discard']), ...sub }),
  z.strictObject({
    type: z.literal('meld'),
    cardIds: ids(1, 13),
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
]) as unknown as z.ZodType<HulaAction>;

const ALLOWED: Record<string, readonly string[]> = {
  draw: ['type', 'from', 'substitute'],
  meld: ['type', 'cardIds', 'form', 'substitute'],
  layOff: ['type', 'cardIds', 'meldId', 'end', 'substitute'],
  discard: ['type', 'cardId', 'substitute'],
  stop: ['type', 'substitute'],
  special: ['type', 'substitute'],
  thankYou: ['type', 'cardIds', 'substitute'],
  pass: ['type', 'substitute'],
  ready: ['type', 'substitute'],
  reserveLeave: ['type', 'on', 'auto'],
};

const isId = (x: unknown): x is string => typeof x === 'string' && x.length >= 1 && x.length <= 8;
const isIds = (x: unknown, min: number, max: number): x is string[] =>
  Array.isArray(x) && x.length >= min && x.length <= max && x.every(isId);
const optBool = (x: unknown): boolean => x === undefined || typeof x === 'boolean';

/** An absent form, `{kind: 'set'}` or `{kind: 'run', low: 1..13}`, with no other keys. */
function isForm(x: unknown): boolean {
  if (x === undefined) return true;
  if (x === null || typeof x !== 'object' || Array.isArray(x)) return false;
  const f = x as Record<string, unknown>;
  const keys = Object.keys(f);
  if (f.kind === 'set') return keys.length === 1;
  return (
    f.kind === 'run' &&
    keys.length === 2 &&
    Object.hasOwn(f, 'low') &&
    Number.isInteger(f.low) &&
    (f.low as number) >= 1 &&
    (f.low as number) <= 13
  );
}

/** Same verdict as `actionSchema.safeParse(raw).success`, without allocating. */
export function parseAction(raw: unknown): HulaAction | null {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const a = raw as Record<string, unknown>;
  const keys = typeof a.type === 'string' && Object.hasOwn(ALLOWED, a.type) ? ALLOWED[a.type] : null;
  if (!keys) return null;
  for (const k in a) if (!keys.includes(k)) return null;
  if (a.type !== 'reserveLeave' && !optBool(a.substitute)) return null;
  switch (a.type) {
    case 'draw':
      return a.from === 'stock' || a.from === 'discard' ? (a as unknown as HulaAction) : null;
    case 'meld':
      return isIds(a.cardIds, 1, 13) && isForm(a.form) ? (a as unknown as HulaAction) : null;
    case 'layOff':
      if (!isIds(a.cardIds, 1, 12)) return null;
      if (a.meldId !== undefined && !(Number.isInteger(a.meldId) && (a.meldId as number) >= 1)) return null;
      if (a.end !== undefined && a.end !== 'low' && a.end !== 'high') return null;
      return a as unknown as HulaAction;
    case 'discard':
      return isId(a.cardId) ? (a as unknown as HulaAction) : null;
    case 'thankYou':
      return isIds(a.cardIds, 1, 12) ? (a as unknown as HulaAction) : null;
    case 'reserveLeave':
      return typeof a.on === 'boolean' && optBool(a.auto) ? (a as unknown as HulaAction) : null;
    default:
      return a as unknown as HulaAction;
  }
}
