/**
 * Reading options against presets and defaults, for the room form and the "rules in force"
 * list. Pure functions of `OptionField` metadata (what games.list sends), so the client uses
 * them on the lobby's copy and needs no table of its own. Stateless; values are compared by
 * their JSON text, which is how the form carries them (numbers and null stay distinct).
 *
 * A room stores only its parsed options, not the preset it was made from, so the table names
 * the preset closest to the options (fewest differing options, first listed on a tie) and says
 * how many options differ from it: the same words the form shows while the host edits.
 */
import type { OptionField, OptionPreset } from './types.ts';

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The fields that apply to `mode` (the mode itself excluded), in form order. */
export function fieldsForMode(fields: OptionField[], mode: string): OptionField[] {
  return fields.filter((f) => f.key !== 'mode' && (!f.modes || f.modes.includes(mode)));
}

/** The first mode a game's fields know (the default of its `mode` field). */
export function defaultMode(fields: OptionField[]): string {
  const m = fields.find((f) => f.key === 'mode');
  const first = m ? Object.keys(m.defaultByMode)[0] : undefined;
  return String((first !== undefined ? m?.defaultByMode[first] : undefined) ?? '');
}

/** Every option a preset stands for: its mode, its own values, that mode's defaults elsewhere. */
export function presetValues(fields: OptionField[], preset: OptionPreset): Record<string, unknown> {
  const mode = typeof preset.options.mode === 'string' ? preset.options.mode : defaultMode(fields);
  const out: Record<string, unknown> = { mode };
  for (const f of fieldsForMode(fields, mode))
    out[f.key] = f.key in preset.options ? preset.options[f.key] : f.defaultByMode[mode];
  return out;
}

/** True when `value` is what `field` starts at in `mode`. */
export function isDefaultValue(field: OptionField, mode: string, value: unknown): boolean {
  return same(value, field.defaultByMode[mode]);
}

/** Keys of the options that apply to `options.mode` and differ between `options` and `base` (a different mode: all). */
export function changedKeys(
  fields: OptionField[],
  options: Record<string, unknown>,
  base: Record<string, unknown>,
): string[] {
  const mode = String(options.mode ?? '');
  if (!same(mode, base.mode)) return ['mode', ...fieldsForMode(fields, mode).map((f) => f.key)];
  return fieldsForMode(fields, mode)
    .filter((f) => !same(options[f.key], base[f.key]))
    .map((f) => f.key);
}

export interface PresetMatch {
  preset: OptionPreset;
  /** Options that differ from the preset; empty = exactly the preset. */
  changed: string[];
}

/** The preset closest to `options`, or null when the game has none. */
export function closestPreset(
  fields: OptionField[],
  presets: OptionPreset[],
  options: Record<string, unknown>,
): PresetMatch | null {
  let best: PresetMatch | null = null;
  for (const preset of presets) {
    const changed = changedKeys(fields, options, presetValues(fields, preset));
    if (!best || changed.length < best.changed.length) best = { preset, changed };
  }
  return best;
}

/** "학교/MT 하우스 룰", "학교/MT 하우스 룰 · 1개 변경됨", or "직접 설정" when far from every preset. */
export function presetLabel(match: PresetMatch | null, fields: OptionField[], mode: string): string {
  if (!match) return '직접 설정';
  if (match.changed.length === 0) return match.preset.name;
  // More than half the options away from the nearest preset is no longer that preset.
  if (match.changed.includes('mode') || match.changed.length * 2 > fieldsForMode(fields, mode).length)
    return '직접 설정';
  return `${match.preset.name} · ${match.changed.length}개 변경됨`;
}
