/**
 * The words and rows behind the room form's preset chooser and the "rules in force" list,
 * computed from the lobby's GameInfo (option fields and presets as the engine declares them)
 * and a set of option values. No DOM and no state: option-form.ts and rules-in-force.ts draw
 * what these return, and test/option-presets.test.ts checks them in Node.
 */
import {
  type OptionField,
  type OptionPreset,
  changedKeys,
  closestPreset,
  fieldsForMode,
  isDefaultValue,
  presetLabel,
  presetValues,
} from '@joke/engine/client';

/** The chooser's value for "none of the presets as they are" (a contract with other tests). */
export const CUSTOM = 'custom';

export interface ChooserState {
  /** A preset id when the values are exactly that preset, else CUSTOM. */
  value: string;
  /** Text of the CUSTOM entry: "직접 설정", or the preset started from + "· N개 변경됨". */
  customLabel: string;
}

/**
 * What the chooser shows for `values`: the preset they equal (any of them), else the custom entry
 * named after the preset the host last picked (`chosen`) while the mode is still that preset's.
 */
export function chooserState(
  fields: OptionField[],
  presets: OptionPreset[],
  values: Record<string, unknown>,
  chosen: string | null,
): ChooserState {
  const exact = presets.find((p) => changedKeys(fields, values, presetValues(fields, p)).length === 0);
  if (exact) return { value: exact.id, customLabel: '직접 설정' };
  const from = presets.find((p) => p.id === chosen);
  if (!from) return { value: CUSTOM, customLabel: '직접 설정' };
  const changed = changedKeys(fields, values, presetValues(fields, from));
  if (changed.includes('mode')) return { value: CUSTOM, customLabel: '직접 설정' };
  return { value: CUSTOM, customLabel: `${from.name} · ${changed.length}개 변경됨` };
}

/** How a value reads in Korean: the choice's own label, 켜짐/꺼짐, or the number. */
export function valueLabel(f: OptionField, v: unknown): string {
  if (f.kind === 'boolean') return v ? '켜짐' : '꺼짐';
  const key = JSON.stringify(v ?? null);
  return f.choices?.find((c) => JSON.stringify(c.value ?? null) === key)?.label ?? String(v);
}

export interface RuleRow {
  key: string;
  label: string;
  value: string;
  /** Off this mode's default (drawn highlighted). */
  changed: boolean;
}

export interface RulesInForce {
  /** The nearest preset's name (with "· N개 변경됨"), or null for a game without presets. */
  title: string | null;
  rows: RuleRow[];
}

/** Every option of the room's mode with its value, the ones off their default marked. */
export function rulesInForce(
  game: { optionFields: OptionField[]; presets?: OptionPreset[] },
  mode: string,
  options: Record<string, unknown>,
): RulesInForce {
  const values: Record<string, unknown> = { ...options, mode };
  const rows = fieldsForMode(game.optionFields, mode)
    .filter((f) => f.key in options)
    .map((f) => ({
      key: f.key,
      label: f.label,
      value: valueLabel(f, options[f.key]),
      changed: !isDefaultValue(f, mode, options[f.key]),
    }));
  const presets = game.presets ?? [];
  const title = presets.length
    ? presetLabel(closestPreset(game.optionFields, presets, values), game.optionFields, mode)
    : null;
  return { title, rows };
}
