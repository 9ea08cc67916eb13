/**
 * The joker's role when the selected cards read more than one way
 * (docs/games/hula.md §5.3): a new meld as a set or as a run by its lowest
 * rank, a joker laid off at the low or high end of a run, or on a lone 7 as a
 * set of 7s or as its 6 / 8. The engine's own meld helpers list the readings;
 * this module only names them in Korean and puts the chosen one on the action.
 * Pure: unit-tested without Phaser.
 */
import {
  RANK_LABEL,
  SUIT_SYMBOL,
  classifyMeld,
  isJoker,
  layOffMany,
  meldForms,
  type MeldForm,
} from '@joke/engine/client';
import type { Card, HulaAction, HulaView, Meld } from './model.ts';

export interface JokerChoice {
  /** Korean, for the toggle button: "세트", "♠4~6 런", "조커는 위쪽 끝". */
  label: string;
  /** For a new meld. */
  form?: MeldForm;
  /** For a lay-off; null = the engine default (a set of 7s on a lone 7). */
  end?: 'low' | 'high' | null;
}

const rankLabel = (r: number) => RANK_LABEL[r] ?? String(r);

function formLabel(form: MeldForm, cards: readonly Card[]): string {
  if (form.kind === 'set') return '세트';
  const suit = cards.find((c) => !isJoker(c))!.suit as keyof typeof SUIT_SYMBOL;
  const high = ((form.low + cards.length - 2) % 13) + 1;
  return `${SUIT_SYMBOL[suit]}${rankLabel(form.low)}~${rankLabel(high)} 런`;
}

function endChoices(meld: Meld, cards: readonly Card[]): JokerChoice[] {
  if (!cards.some(isJoker)) return [];
  const ends: JokerChoice[] =
    meld.kind === 'seven'
      ? [
          { label: '7 세트', end: null },
          { label: '조커는 6', end: 'low' },
          { label: '조커는 8', end: 'high' },
        ]
      : meld.kind === 'run'
        ? [
            { label: '조커는 위쪽 끝', end: 'high' },
            { label: '조커는 아래쪽 끝', end: 'low' },
          ]
        : [];
  return ends.filter((c) => layOffMany(meld, cards, c.end ?? undefined) !== null);
}

/**
 * The readings the player can choose between for the current selection, the
 * engine default first; fewer than two means there is nothing to choose.
 * `layOffMeld` is the meld a lay-off would go to (controls.ts layOffTarget).
 */
export function jokerChoices(view: HulaView, selected: readonly string[], layOffMeld: number | null): JokerChoice[] {
  const hand = view.hand ?? [];
  const cards = selected.map((id) => hand.find((c) => c.id === id)).filter((c): c is Card => c !== undefined);
  if (cards.length === 0 || !cards.some(isJoker)) return [];
  const shape = classifyMeld(cards);
  if (shape && shape.kind !== 'seven') {
    const forms = meldForms(cards);
    const first = forms.findIndex((f) =>
      f.kind === 'set' ? shape.kind === 'set' : shape.kind === 'run' && f.low === shape.rank,
    );
    const ordered = first > 0 ? [forms[first], ...forms.filter((_, i) => i !== first)] : forms;
    return ordered.map((form) => ({ label: formLabel(form, cards), form }));
  }
  const meld = view.melds.find((m) => m.id === layOffMeld);
  return meld ? endChoices(meld, cards) : [];
}

/** The action with the chosen reading on it (meld: `form`, lay-off: `end`). */
export function withJokerChoice(action: HulaAction, choice: JokerChoice | undefined): HulaAction {
  if (!choice) return action;
  if (action.type === 'meld' && choice.form) return { ...action, form: choice.form };
  if (action.type === 'layOff' && choice.end !== undefined)
    return choice.end === null ? action : { ...action, end: choice.end };
  return action;
}
