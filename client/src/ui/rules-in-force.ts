/**
 * "이 방의 규칙": the room's options in force as a compact list, the nearest preset's name on
 * top and every option off its mode's default highlighted (class `changed`). Drawn in the
 * waiting room (before the game starts) and at the top of the table's rules sheet, from the
 * same GameInfo as the room form. Contract other tests read: the list is
 * `[data-testid="rules-in-force"]`, its changed rows carry `changed`.
 */
import type { GameInfo } from '@joke/lobby';
import { el } from './dom.ts';
import { rulesInForce } from './option-presets.ts';

export function rulesInForceList(game: GameInfo, mode: string, options: Record<string, unknown>): HTMLElement {
  const r = rulesInForce(game, mode, options);
  const list = el('ul', { class: 'rules-in-force', 'data-testid': 'rules-in-force' });
  if (r.title) list.append(el('li', { class: 'rules-preset', 'data-testid': 'rules-preset' }, [r.title]));
  for (const row of r.rows) {
    const li = el('li', { class: row.changed ? 'rule changed' : 'rule', 'data-key': row.key }, [
      el('span', {}, [row.label]),
      el('b', {}, [row.value]),
    ]);
    list.append(li);
  }
  const changed = r.rows.filter((x) => x.changed).length;
  const note = el('p', { class: 'rules-in-force-note muted' }, [
    changed ? `노란색 ${changed}개는 기본과 다른 규칙이에요` : '모두 기본 규칙이에요',
  ]);
  return el('section', { class: 'rules-in-force-box' }, [el('h3', {}, ['이 방의 규칙']), list, note]);
}
