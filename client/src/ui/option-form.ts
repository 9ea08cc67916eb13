/**
 * The create-room form, generated from the engine's option metadata
 * (games.list → optionFields): labels and choices exactly as the engine
 * names them, each mode's defaults preselected, and mode-specific options
 * shown only while their mode is chosen.
 */
import type { GameInfo } from '@joke/lobby';
import type { OptionField } from '@joke/engine/core/types';
import { clear, el } from './dom.ts';

/** Choice values keep their JSON type (numbers, null) through the <select>. */
export function encodeValue(v: unknown): string {
  return JSON.stringify(v ?? null);
}

/**
 * Renders one game's options: the mode first, then every field that
 * applies to the chosen mode, preselected with that mode's default.
 * Returns a reader for the values to send.
 */
export function buildOptionForm(container: HTMLElement, game: GameInfo): () => Record<string, unknown> {
  clear(container);
  const modeField = game.optionFields.find((f) => f.key === 'mode');
  const modes = game.modes;
  let mode = (modeField?.defaultByMode[modes[0]?.id] as string | undefined) ?? modes[0]?.id ?? '';
  const modeBox = el('div', { class: 'segmented', role: 'radiogroup', 'data-testid': 'mode' });
  const optionBox = el('div', { class: 'option-fields' });
  const readers = new Map<string, () => unknown>();

  const renderFields = () => {
    clear(optionBox);
    readers.clear();
    for (const f of game.optionFields) {
      if (f.key === 'mode') continue;
      if (f.modes && !f.modes.includes(mode)) continue;
      const { node, read } = fieldInput(f, f.defaultByMode[mode]);
      optionBox.append(node);
      readers.set(f.key, read);
    }
  };
  for (const m of modes) {
    const id = `mode-${m.id}`;
    const radio = el('input', {
      type: 'radio',
      name: 'mode',
      id,
      value: m.id,
      'data-testid': id,
    }) as HTMLInputElement;
    radio.checked = m.id === mode;
    radio.addEventListener('change', () => {
      mode = m.id;
      renderFields();
    });
    modeBox.append(radio, el('label', { for: id }, [m.name]));
  }
  container.append(el('div', { class: 'field' }, [el('span', {}, [modeField?.label ?? '모드']), modeBox]), optionBox);
  renderFields();
  return () => {
    const out: Record<string, unknown> = { mode };
    for (const [k, read] of readers) out[k] = read();
    return out;
  };
}

function fieldInput(f: OptionField, def: unknown): { node: HTMLElement; read: () => unknown } {
  const id = `opt-${f.key}`;
  const help = f.help ? el('small', {}, [f.help]) : null;
  if (f.kind === 'boolean') {
    const box = el('input', { type: 'checkbox', id, 'data-testid': id }) as HTMLInputElement;
    box.checked = def === true;
    const node = el('label', { class: 'field check', for: id }, [box, el('span', {}, [f.label])]);
    if (help) node.append(help);
    return { node, read: () => box.checked };
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
    input.value = String(def ?? f.min ?? 0);
    const node = el('label', { class: 'field', for: id }, [el('span', {}, [`${f.label} (${f.min}~${f.max})`]), input]);
    if (help) node.append(help);
    return { node, read: () => Number(input.value) };
  }
  const select = el('select', { id, 'data-testid': id }) as HTMLSelectElement;
  for (const c of f.choices ?? []) {
    const o = el('option', { value: encodeValue(c.value) }, [c.label]) as HTMLOptionElement;
    if (encodeValue(c.value) === encodeValue(def)) o.selected = true;
    select.append(o);
  }
  const node = el('label', { class: 'field', for: id }, [el('span', {}, [f.label]), select]);
  if (help) node.append(help);
  return { node, read: () => JSON.parse(select.value) as unknown };
}
