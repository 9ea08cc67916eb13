/**
 * What the 훌라 action bar shows and allows, from the viewer's own view only
 * (docs/games/hula.md §9). Legality comes from `view.me`; where the view has
 * no hint (does the selection form a meld, does it fit a meld on the table)
 * the engine's own pure meld helpers answer, so the client never re-derives
 * a rule. Pure: unit-tested without Phaser.
 */
import { classifyMeld, layOffMany } from '@joke/engine/client';
import { cardName, nameOf, points, type Card, type HulaAction, type HulaView } from './model.ts';
import { jokerChoices, withJokerChoice } from './joker-choice.ts';
import { clockStep } from '../../table-kit/clock-steps.ts';

export const ACTION_KEYS = [
  'draw',
  'take',
  'joker',
  'meld',
  'layOff',
  'discard',
  'stop',
  'special',
  'thankYou',
  'pass',
  'ready',
] as const;
export type ActionKey = (typeof ACTION_KEYS)[number];

export interface ButtonSpec {
  visible: boolean;
  enabled: boolean;
  label: string;
}

export interface HulaControls {
  buttons: Record<ActionKey, ButtonSpec>;
  /** Seat id whose timer runs (turn, asked player), or null. */
  mover: string | null;
  myTurn: boolean;
  status: string;
  hint: string;
}

const SPECIAL_NAME = { daeka: '대카', soka: '소카', sevens: '7777' } as const;

function selectedCards(view: HulaView, selected: readonly string[]): Card[] {
  const hand = view.hand ?? [];
  return selected.map((id) => hand.find((c) => c.id === id)).filter((c): c is Card => c !== undefined);
}

/** The meld a lay-off goes to: the chosen one if it takes the cards, else the first that does. */
export function layOffTarget(view: HulaView, selected: readonly string[], chosen: number | null): number | null {
  const cards = selectedCards(view, selected);
  if (cards.length === 0) return null;
  const order = chosen === null ? view.melds : view.melds.filter((m) => m.id === chosen);
  for (const m of order) if (layOffMany(m, cards) !== null) return m.id;
  return null;
}

/**
 * `jokerPick` counts presses of the 조커 toggle: which of the selection's
 * joker readings (joker-choice.ts) the meld / lay-off button sends.
 */
export function deriveControls(
  view: HulaView,
  selected: readonly string[],
  chosenMeld: number | null,
  jokerPick = 0,
): HulaControls {
  const me = view.me;
  const viewer = view.viewer;
  const p = view.phase;
  const b = Object.fromEntries(ACTION_KEYS.map((k) => [k, { visible: false, enabled: false, label: '' }])) as Record<
    ActionKey,
    ButtonSpec
  >;
  const set = (k: ActionKey, label: string, enabled: boolean) => (b[k] = { visible: true, enabled, label });
  const cards = selectedCards(view, selected);
  const mine = (p.kind === 'draw' || p.kind === 'act') && p.player === viewer && me !== null;
  const registered = view.seats.find((s) => s.id === viewer)?.registered ?? false;
  let mover: string | null = null;
  let status = '';
  let hint = '';

  if (p.kind === 'draw' || p.kind === 'act') {
    mover = p.player;
    status = mine ? '내 차례' : `${nameOf(view, p.player)} 님 차례`;
  }
  if (mine && me && p.kind === 'draw') {
    set('draw', '뽑기', me.canDraw);
    set('take', '가져오기', me.canDrawDiscard);
    set(
      'stop',
      me.stopLimit === null ? `스톱 ${me.stopScore}점` : `스톱 ${me.stopScore}/${me.stopLimit}점`,
      me.canStop,
    );
    hint = '덱에서 뽑거나 버린 카드를 가져오세요';
  }
  if (mine && me && p.kind === 'act') {
    const choices = jokerChoices(view, selected, layOffTarget(view, selected, chosenMeld));
    if (choices.length > 1) set('joker', `조커: ${choices[jokerPick % choices.length].label}`, true);
    set('meld', '등록', cards.length > 0 && classifyMeld(cards) !== null);
    if (registered) set('layOff', '붙이기', layOffTarget(view, selected, chosenMeld) !== null);
    set('discard', cards.length === 1 ? `버리기 ${cardName(cards[0])}` : '버리기', cards.length === 1);
    hint = me.discardPrompt
      ? '마지막 카드를 버리면 훌라!'
      : registered
        ? '카드를 골라 등록·붙이기, 마지막에 1장 버리기'
        : '카드를 골라 등록하거나 1장 버리기';
  }
  if (mine && me?.special) set('special', `특수 승리 (${SPECIAL_NAME[me.special]})`, true);

  if (p.kind === 'thankYouAsk') {
    mover = p.asked;
    const asked = p.asked === viewer && me !== null;
    status = asked ? '땡큐? 버린 카드를 가져올까요' : `${nameOf(view, p.asked)} 님에게 땡큐 확인 중`;
    if (asked) {
      // Both buttons always show while asked, so nobody can tell who could (§9).
      set('thankYou', '땡큐', me.canThankYou);
      set('pass', '넘기기', true);
    }
  }
  if (p.kind === 'thankYouRace') {
    status = p.claimants.length > 0 ? '땡큐! 신청이 들어왔어요' : '땡큐 레이스 — 먼저 누르는 사람이 가져가요';
    const eligible =
      me !== null &&
      viewer !== null &&
      p.discarder !== viewer &&
      !p.passed.includes(viewer) &&
      !p.claimants.includes(viewer);
    if (eligible && me.canThankYou) set('thankYou', '땡큐!', true);
    if (eligible) set('pass', '넘기기', true);
  }
  if (p.kind === 'roundEnd') {
    status = `${view.round}판 끝`;
    if (me && viewer !== null && !p.ready.includes(viewer)) set('ready', '다음 판 준비', true);
  }
  if (p.kind === 'finished') status = '게임 끝';
  if (view.viewer === null || (view.hand === null && p.kind !== 'finished')) hint = hint || '관전 중';
  return { buttons: b, mover, myTurn: mine, status, hint };
}

/** The action a button sends, or null when the selection no longer fits. */
export function buildAction(
  key: ActionKey,
  view: HulaView,
  selected: readonly string[],
  chosenMeld: number | null,
  jokerPick = 0,
): HulaAction | null {
  const choices = jokerChoices(view, selected, layOffTarget(view, selected, chosenMeld));
  const choice = choices.length > 1 ? choices[jokerPick % choices.length] : undefined;
  switch (key) {
    case 'joker':
      return null; // the toggle only changes jokerPick (HulaScene)
    case 'draw':
      return { type: 'draw', from: 'stock' };
    case 'take':
      return { type: 'draw', from: 'discard' };
    case 'meld':
      return selected.length ? withJokerChoice({ type: 'meld', cardIds: [...selected] }, choice) : null;
    case 'layOff': {
      const meldId = layOffTarget(view, selected, chosenMeld);
      return meldId === null ? null : withJokerChoice({ type: 'layOff', cardIds: [...selected], meldId }, choice);
    }
    case 'discard':
      return selected.length === 1 ? { type: 'discard', cardId: selected[0] } : null;
    case 'stop':
      return { type: 'stop' };
    case 'special':
      return { type: 'special' };
    case 'thankYou': {
      const ids = selected.length >= 2 ? [...selected] : (view.me?.thankYouCardIds ?? null);
      return ids ? { type: 'thankYou', cardIds: ids } : null;
    }
    case 'pass':
      return { type: 'pass' };
    case 'ready':
      return { type: 'ready' };
  }
}

/** Fraction of the turn timer left (1 → 0), or null when nothing is timed. */
export function timerFraction(view: HulaView, now: number, totalMs: number): number | null {
  if (view.deadline === null) return null;
  return clockStep(Math.max(0, Math.min(1, (view.deadline - now) / totalMs)), totalMs);
}

export { points };
