/**
 * The create-room form, generated from the engine's option metadata
 * (games.list → optionFields): labels and choices exactly as the engine
 * names them, each mode's defaults preselected, and mode-specific options
 * shown only while their mode is chosen. A game with presets (원카드) opens on its first
 * preset, chosen above the mode.
 */
import type { GameInfo } from '@joke/lobby';
import { type OptionField, fieldsForMode, presetValues } from '@joke/engine/client';
import { clear, el } from './dom.ts';
import { CUSTOM, chooserState } from './option-presets.ts';

/** Choice values keep their JSON type (numbers, null) through the <select>. */
export function encodeValue(v: unknown): string {
  return JSON.stringify(v ?? null);
}

/**
 * Renders one game's options: the preset chooser first (games that have presets), then the
 * mode, then every field that applies to the chosen mode. Picking a preset sets the mode and
 * every field; changing anything afterwards turns the chooser to "직접 설정" or "<preset> ·
 * N개 변경됨" (option-presets.ts). Picking another mode starts that mode from its defaults.
 * Returns a reader for the values to send.
 */
export function buildOptionForm(container: HTMLElement, game: GameInfo): () => Record<string, unknown> {
  clear(container);
  const fields = game.optionFields;
  const presets = game.presets ?? [];
  const modeField = fields.find((f) => f.key === 'mode');
  const modes = game.modes;
  const firstMode = (modeField?.defaultByMode[modes[0]?.id] as string | undefined) ?? modes[0]?.id ?? '';
  // What the form shows; a preset or a mode change replaces it, a field's change edits it.
  let values: Record<string, unknown> = presets[0]
    ? presetValues(fields, presets[0])
    : presetValues(fields, { id: '', name: '', summary: '', options: { mode: firstMode } });
  let chosen: string | null = presets[0]?.id ?? null;
  const modeBox = el('div', { class: 'segmented', role: 'radiogroup', 'data-testid': 'mode' });
  const optionBox = el('div', { class: 'option-fields' });
  const radios: HTMLInputElement[] = [];

  const chooser = el('select', { id: 'room-preset', 'data-testid': 'room-preset' }) as HTMLSelectElement;
  const custom = el('option', { value: CUSTOM }, ['직접 설정']) as HTMLOptionElement;
  for (const p of presets) chooser.append(el('option', { value: p.id }, [p.name]));
  chooser.append(custom);
  const summary = el('small', { 'data-testid': 'room-preset-summary' });
  const showChooser = () => {
    const st = chooserState(fields, presets, values, chosen);
    custom.textContent = st.customLabel;
    chooser.value = st.value;
    summary.textContent = presets.find((p) => p.id === st.value)?.summary ?? '프리셋에서 바꾼 설정이에요';
  };
  const renderFields = () => {
    clear(optionBox);
    const mode = String(values.mode);
    for (const r of radios) r.checked = r.value === mode;
    for (const f of fieldsForMode(fields, mode)) {
      optionBox.append(
        fieldInput(f, values[f.key], (v) => {
          values = { ...values, [f.key]: v };
          showChooser();
        }),
      );
    }
    showChooser();
  };
  chooser.addEventListener('change', () => {
    const p = presets.find((x) => x.id === chooser.value);
    // "직접 설정" keeps the fields as they are: it only names them.
    if (!p) return;
    chosen = p.id;
    values = presetValues(fields, p);
    renderFields();
  });
  for (const m of modes) {
    const id = `mode-${m.id}`;
    const radio = el('input', { type: 'radio', name: 'mode', id, value: m.id, 'data-testid': id }) as HTMLInputElement;
    radio.addEventListener('change', () => {
      values = presetValues(fields, { id: '', name: '', summary: '', options: { mode: m.id } });
      renderFields();
    });
    radios.push(radio);
    modeBox.append(radio, el('label', { for: id }, [m.name]));
  }
  if (presets.length)
    container.append(
      el('label', { class: 'field preset', for: 'room-preset' }, [el('span', {}, ['규칙 프리셋']), chooser, summary]),
    );
  container.append(el('div', { class: 'field' }, [el('span', {}, [modeField?.label ?? '모드']), modeBox]), optionBox);
  renderFields();
  return () => {
    const mode = String(values.mode);
    const out: Record<string, unknown> = { mode };
    for (const f of fieldsForMode(fields, mode)) out[f.key] = values[f.key];
    return out;
  };
}

/** One field showing `value`; `changed` hears every edit with the parsed value. */
function fieldInput(f: OptionField, value: unknown, changed: (v: unknown) => void): HTMLElement {
  const id = `opt-${f.key}`;
  const help = f.help ? el('small', {}, [f.help]) : null;
  if (f.kind === 'boolean') {
    const box = el('input', { type: 'checkbox', id, 'data-testid': id }) as HTMLInputElement;
    box.checked = value === true;
    box.addEventListener('change', () => changed(box.checked));
    const node = el('label', { class: 'field check', for: id }, [box, el('span', {}, [f.label])]);
    if (help) node.append(help);
    return node;
  }
  if (f.kind === 'integer') {
    const input = el('input', {
      type: 'number',
      id,
      'data-testid': id,
      min: String(f.min ?? 0),
      max: String(f.max ?? 99),
      step: '1',
      inputmode: 'numeric',
    }) as HTMLInputElement;
    input.value = String(value ?? f.min ?? 0);
    input.addEventListener('input', () => changed(Number(input.value)));
    const node = el('label', { class: 'field', for: id }, [el('span', {}, [`${f.label} (${f.min}~${f.max})`]), input]);
    if (help) node.append(help);
    return node;
  }
  const select = el('select', { id, 'data-testid': id }) as HTMLSelectElement;
  for (const c of f.choices ?? []) {
    const o = el('option', { value: encodeValue(c.value) }, [c.label]) as HTMLOptionElement;
    if (encodeValue(c.value) === encodeValue(value)) o.selected = true;
    select.append(o);
  }
  select.addEventListener('change', () => changed(JSON.parse(select.value) as unknown));
  const node = el('label', { class: 'field', for: id }, [el('span', {}, [f.label]), select]);
  if (help) node.append(help);
  return node;
}
