/**
 * §2 옵션 프리셋 in the room form and the rules in force (issue 41): the chooser follows the
 * host's edits (preset name, "· N개 변경됨", 직접 설정) and the list marks exactly the options
 * off their mode's default. Fed the engine's own fields and presets, as games.list sends them.
 */
import { describe, expect, it } from 'vitest';
import { oneCard, poker, presetValues } from '@joke/engine/client';
import { CUSTOM, chooserState, rulesInForce } from '../src/ui/option-presets.ts';

const fields = oneCard.optionFields;
const presets = oneCard.presets ?? [];
const preset = (id: string) => presets.find((p) => p.id === id)!;

describe('§2 room form preset chooser', () => {
  it('shows the preset the values equal, whichever was picked', () => {
    expect(chooserState(fields, presets, presetValues(fields, preset('house')), 'house')).toEqual({
      value: 'house',
      customLabel: '직접 설정',
    });
    // Editing 초보용 back into 기본 by hand shows 기본.
    expect(chooserState(fields, presets, presetValues(fields, preset('basic')), 'beginner').value).toBe('basic');
  });

  it('after one change names the preset started from and counts the change', () => {
    const edited = { ...presetValues(fields, preset('house')), turnSeconds: 30 };
    expect(chooserState(fields, presets, edited, 'house')).toEqual({
      value: CUSTOM,
      customLabel: '학교/MT 하우스 룰 · 1개 변경됨',
    });
    const twice = { ...edited, handSize: 6 };
    expect(chooserState(fields, presets, twice, 'house').customLabel).toBe('학교/MT 하우스 룰 · 2개 변경됨');
  });

  it('says 직접 설정 once the mode leaves the preset’s, or with no preset picked', () => {
    const uno = presetValues(fields, { id: '', name: '', summary: '', options: { mode: 'uno-style', handSize: 5 } });
    expect(chooserState(fields, presets, uno, 'house')).toEqual({ value: CUSTOM, customLabel: '직접 설정' });
    const edited = { ...presetValues(fields, preset('basic')), turnSeconds: 30 };
    expect(chooserState(fields, presets, edited, null)).toEqual({ value: CUSTOM, customLabel: '직접 설정' });
  });
});

describe('§2 rules in force', () => {
  it('lists every option of the mode and marks only those off the default', () => {
    const options = { ...presetValues(fields, preset('house')), turnSeconds: 30 };
    const r = rulesInForce({ optionFields: fields, presets }, 'classic', options);
    expect(r.title).toBe('학교/MT 하우스 룰 · 1개 변경됨');
    const changed = r.rows.filter((x) => x.changed).map((x) => x.key);
    expect(changed.sort()).toEqual(
      [...Object.keys(preset('house').options).filter((k) => k !== 'mode'), 'turnSeconds'].sort(),
    );
    expect(r.rows.find((x) => x.key === 'multiPlay')).toMatchObject({ value: '켜짐', changed: true });
    expect(r.rows.find((x) => x.key === 'bankruptLimit')).toMatchObject({ value: '15장', changed: true });
    expect(r.rows.find((x) => x.key === 'handSize')).toMatchObject({ value: '7장', changed: false });
    expect(r.rows.some((x) => x.key === 'unoStacking')).toBe(false);
  });

  it('a game without presets has no title and still marks its changes', () => {
    const options = Object.fromEntries(Object.entries(poker.optionsSchema.parse({ turnSeconds: 60 })));
    const r = rulesInForce({ optionFields: poker.optionFields }, String(options.mode), options);
    expect(r.title).toBeNull();
    expect(r.rows.filter((x) => x.changed).map((x) => x.key)).toEqual(['turnSeconds']);
  });
});
