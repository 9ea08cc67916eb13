/**
 * The one 규칙 sheet for every game: a tab per game (the table's own game,
 * or the lobby's last choice, opens first) so a player reading 원카드 can
 * also look up 포커 or 훌라 without leaving. Opened from a table (the room's options given),
 * the table's tab starts with the rules in force in that room (rules-in-force.ts).
 */
import { el, clear } from '../dom.ts';
import { sheet } from '../sheets.ts';
import { hulaRulesBody } from './hula-rules.ts';
import { oneCardRulesBody } from './one-card-rules.ts';
import { pokerRulesBody } from './poker-rules.ts';
import { gameCatalog, knownGames } from '../../net/games.ts';
import { rulesInForceList } from '../rules-in-force.ts';

export type RulesGame = 'one-card' | 'poker' | 'hula';

export interface RulesContext {
  /** The table's mode: its section opens first. */
  mode?: string;
  /** The room's options (원카드 attack amounts follow them; the rules-in-force list shows them). */
  options?: Record<string, unknown>;
}

const TABS: { game: RulesGame; label: string }[] = [
  { game: 'one-card', label: '원카드' },
  { game: 'poker', label: '포커' },
  { game: 'hula', label: '훌라' },
];

/** The room's rules in force, drawn into `slot` once the games' metadata is known (never, offline). */
function fillInForce(slot: HTMLElement, game: RulesGame, ctx: RulesContext): void {
  const options = ctx.options;
  if (!options) return;
  const draw = (games: { id: string }[]) => {
    const info = knownGames().find((g) => g.id === game);
    if (!info || !games.length) return;
    slot.append(rulesInForceList(info, String(options.mode ?? ctx.mode ?? ''), options));
  };
  if (knownGames().length) draw(knownGames());
  else gameCatalog().then(draw, () => undefined);
}

function bodyFor(game: RulesGame, ctx: RulesContext): HTMLElement {
  if (game === 'poker') return pokerRulesBody(ctx.mode);
  if (game === 'hula') return hulaRulesBody(ctx.mode);
  return oneCardRulesBody(ctx.options);
}

/** Opens the rules at `game`; the context applies to that game only (another tab shows its defaults). */
export function openGameRules(game: RulesGame = 'one-card', ctx: RulesContext = {}): void {
  const root = el('div', { class: 'sheet-body rules' });
  const tabs = el('div', { class: 'rules-tabs', role: 'tablist' });
  const content = el('div', { class: 'rules-content' });
  const buttons = TABS.map(({ game: g, label }) => {
    const b = el('button', { class: 'btn small', role: 'tab', 'data-testid': `rules-tab-${g}` }, [label]);
    b.addEventListener('click', () => show(g));
    return b;
  });
  const show = (g: RulesGame) => {
    buttons.forEach((b, i) => {
      const on = TABS[i].game === g;
      b.setAttribute('aria-selected', String(on));
      b.className = `btn small ${on ? 'primary' : 'secondary'}`;
    });
    clear(content);
    if (g === game) {
      const slot = el('div', { class: 'rules-in-force-slot' });
      content.append(slot);
      fillInForce(slot, g, ctx);
    }
    content.append(bodyFor(g, g === game ? ctx : {}));
    content.scrollTop = 0;
  };
  tabs.append(...buttons);
  root.append(tabs, content);
  show(game);
  sheet('규칙 보기', root, 'rules');
}
