/**
 * A small builder that produces, from one declaration, both the zod schema
 * that validates room options and the `OptionField` list the lobby renders
 * as the create-room form. Keeping them in one place means a new option can
 * never be validated but missing from the form, or the other way round.
 */
import { z } from 'zod';
import type { OptionField } from './types.ts';

type Primitive = string | number | boolean | null;
type ModeDefault<T> = T | { byMode: Record<string, T> };

export interface OptionSpec<T extends Primitive = Primitive> {
  schema: z.ZodType<T>;
  field: Omit<OptionField, 'key' | 'defaultByMode'>;
  default: ModeDefault<T>;
}

interface Extra {
  modes?: string[];
  help?: string;
}

export const opt = {
  choice<const T extends Primitive>(
    label: string,
    choices: readonly (readonly [T, string])[],
    def: ModeDefault<T>,
    extra: Extra = {},
  ): OptionSpec<T> {
    const values: T[] = choices.map(([v]) => v);
    return {
      schema: z.literal(values),
      field: {
        label,
        kind: 'choice',
        choices: choices.map(([value, l]) => ({ value: value as string | number | null, label: l })),
        ...extra,
      },
      default: def,
    };
  },
  boolean(label: string, def: ModeDefault<boolean>, extra: Extra = {}): OptionSpec<boolean> {
    return { schema: z.boolean(), field: { label, kind: 'boolean', ...extra }, default: def };
  },
  integer(label: string, min: number, max: number, def: ModeDefault<number>, extra: Extra = {}): OptionSpec<number> {
    return {
      schema: z.number().int().min(min).max(max),
      field: { label, kind: 'integer', min, max, ...extra },
      default: def,
    };
  },
};

type OutputOf<Specs extends Record<string, OptionSpec>> = {
  [K in keyof Specs]: Specs[K] extends OptionSpec<infer T> ? T : never;
};

/**
 * Builds the options schema: every field optional on input, defaults filled
 * per mode on output, then `refine` adds cross-field rules (Korean messages).
 * `specs.mode` must be a choice listing the game's modes.
 */
export function buildOptions<Specs extends Record<string, OptionSpec> & { mode: OptionSpec<string> }>(
  specs: Specs,
  refine?: (options: OutputOf<Specs>, ctx: z.RefinementCtx) => void,
): { schema: z.ZodType<OutputOf<Specs>>; fields: OptionField[] } {
  const modes = (specs.mode.field.choices ?? []).map((c) => String(c.value));
  const shape: Record<string, z.ZodType> = {};
  for (const [key, spec] of Object.entries(specs)) shape[key] = spec.schema.optional();

  const defaultFor = (spec: OptionSpec, mode: string): unknown => {
    const d = spec.default;
    return d !== null && typeof d === 'object' && 'byMode' in d ? d.byMode[mode] : d;
  };

  const schema = z
    .strictObject(shape)
    .transform((input) => {
      const mode = (input.mode as string | undefined) ?? (defaultFor(specs.mode, modes[0]) as string);
      const out: Record<string, unknown> = { mode };
      for (const [key, spec] of Object.entries(specs)) {
        if (key === 'mode') continue;
        out[key] = input[key] === undefined ? defaultFor(spec, mode) : input[key];
      }
      return out as OutputOf<Specs>;
    })
    .superRefine((options, ctx) => refine?.(options, ctx));

  const fields: OptionField[] = Object.entries(specs).map(([key, spec]) => ({
    key,
    ...spec.field,
    defaultByMode: Object.fromEntries(modes.map((m) => [m, defaultFor(spec, m)])),
  }));
  return { schema, fields };
}

/**
 * 봇 난이도, an option of every game: how well the room's bots play (쉬움 loose
 * and forgetful, 보통 the default, 어려움 careful). It changes nothing in the
 * rules, only the policy behind each game's `bot`, which reads it from the view's options.
 */
export type BotLevel = 'easy' | 'normal' | 'hard';

export function botLevelOption(): OptionSpec<BotLevel> {
  return opt.choice(
    '봇 난이도',
    [
      ['easy', '쉬움'],
      ['normal', '보통'],
      ['hard', '어려움'],
    ] as const,
    'normal',
    { help: '방의 봇이 얼마나 잘 두는지예요. 규칙은 같아요.' },
  );
}
