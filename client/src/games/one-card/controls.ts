/**
 * What the table's controls say and allow, derived from the view alone (plus
 * the player's current card selection). Pure, so every rule of §9's controls
 * is unit-tested without a browser; the server stays the judge of legality —
 * this only mirrors `legal`/`legalCardIds` and explains them in Korean.
 */
import {
  COLOR_NAME_KO,
  SUIT_SYMBOL,
  cardLabel,
  rankLabel,
  sortHand,
  type Card,
  type Color,
  type OneCardView,
  type PlayAction,
  type PlayerStatus,
  type Suit,
} from '../../cards/model.ts';
import type { PresenceEntry } from '@joke/protocol';
import { oneCardCall } from './one-card-call.ts';
import { clockStep } from '../../table-kit/clock-steps.ts';

export type Picker = { kind: 'suit' } | { kind: 'color' } | null;

/** One seat as the table draws it: view facts plus the runtime's presence (connected, away). */
export interface SeatInfo {
  id: string;
  name: string;
  seatIndex: number;
  count: number;
  status: PlayerStatus;
  place: number | null;
  current: boolean;
  connected: boolean;
  away: boolean;
  bot: boolean;
  oneCard: boolean;
  isMe: boolean;
}

export function seatInfoOf(v: OneCardView, presence: PresenceEntry[], id: string, mover: string | null): SeatInfo {
  const pres = presence.find((p) => p.id === id);
  const place = v.finishOrder.indexOf(id);
  return {
    id,
    name: nameOf(v, id),
    seatIndex: v.seats.indexOf(id),
    count: v.handCounts[id] ?? 0,
    status: v.status[id] ?? 'playing',
    place: place >= 0 ? place + 1 : null,
    current: mover === id,
    // Bots never disconnect: the room worker plays them.
    connected: pres ? pres.connected || pres.bot : true,
    away: pres?.away ?? false,
    bot: pres?.bot ?? false,
    oneCard: (v.handCounts[id] ?? 0) === 1,
    isMe: id === v.viewer,
  };
}

export interface Controls {
  spectator: boolean;
  myTurn: boolean;
  /** Whose move it is (the +4 target while a challenge is open). */
  mover: string | null;
  legalIds: Set<string>;
  underAttack: boolean;
  play: { visible: boolean; enabled: boolean; label: string };
  draw: { visible: boolean; enabled: boolean; label: string; action: 'draw' | 'pass' | 'acceptWild4' | 'chooseColor' };
  oneCard: { enabled: boolean; label: string; shake: boolean; catch: boolean };
  /** "원카드 외치며 내기": offered when the selected play leaves exactly one card. */
  declareToggle: { visible: boolean };
  /** The picker this selection needs before it can be sent. */
  picker: Picker;
  status: string;
  hint: string;
}

export function nameOf(view: OneCardView, id: string): string {
  return view.players.find((p) => p.id === id)?.name ?? id;
}

export function moverOf(view: OneCardView): string | null {
  if (view.finished) return null;
  if (view.phase.kind === 'wild4Response') return view.phase.target ?? null;
  return view.current;
}

/** The cards that may go with the first selected one (classic multiPlay: same rank). */
export function canAddToSelection(view: OneCardView, selected: Card[], card: Card): boolean {
  if (selected.length === 0) return view.legalCardIds.includes(card.id);
  if (!view.legal.multiPlay) return false;
  const first = selected[0];
  return first.kind === 'std' && card.kind === 'std' && card.rank === first.rank;
}

function listLabels(cards: Card[]): string {
  const labels: string[] = [];
  for (const c of cards) {
    const l = c.kind === 'joker' ? '조커' : cardLabel(c);
    if (!labels.includes(l)) labels.push(l);
  }
  return labels.join(', ');
}

/** §9 beginner hint: why a legal card may be played now. */
export function explainLegal(view: OneCardView, card: Card): string {
  const o = view.options;
  if (view.mode === 'classic') {
    if (card.kind === 'joker')
      return view.pendingAttack > 0 ? '조커로 받아칠 수 있어요' : '조커는 언제든 낼 수 있어요 (공격)';
    if (card.kind !== 'std') return '';
    if (view.pendingAttack > 0) {
      if (card.rank === 3) return '같은 무늬 3으로 공격을 막아요';
      return `${cardLabel(card)}로 받아칠 수 있어요`;
    }
    if (view.declaredSuit) {
      if (card.suit === view.declaredSuit) return `지정된 ${SUIT_SYMBOL[view.declaredSuit]} 무늬예요`;
      if (card.rank === 7) return '7은 무늬 지정과 상관없이 낼 수 있어요';
    }
    const ref = view.reference ?? view.top;
    if (view.top.kind === 'joker' && o.afterJoker === 'any') return '조커 다음이라 아무 카드나 낼 수 있어요';
    if (ref.kind === 'std') {
      if (ref.suit === card.suit) return `${SUIT_SYMBOL[card.suit]} 무늬가 같아요`;
      if (ref.rank === card.rank) return `숫자가 같아요 (${rankLabel(card.rank)})`;
    }
    return '';
  }
  if (card.kind === 'wild' || card.kind === 'wild4') return '색 바꾸기는 언제든 낼 수 있어요';
  if (view.pendingAttack > 0) return `${cardLabel(card)}로 받아칠 수 있어요`;
  const color: Color | null = view.declaredColor ?? ('color' in view.top ? view.top.color : null);
  if ('color' in card && card.color === color) return `${COLOR_NAME_KO[color]} 색이 같아요`;
  if (card.kind === 'num' && view.top.kind === 'num' && card.value === view.top.value)
    return `숫자가 같아요 (${card.value})`;
  if (card.kind === view.top.kind && card.kind !== 'num') return '같은 기호예요';
  return '';
}

/** `pressedFor`: the one-card window this viewer's 원카드 press is on its way for (one-card-call.ts). */
export function deriveControls(
  view: OneCardView,
  selectedIds: string[],
  opts: { hints: boolean; pressedFor?: number | null },
): Controls {
  const spectator = view.viewer === null;
  const mover = moverOf(view);
  const myTurn = !spectator && mover === view.viewer;
  const legal = view.legal;
  const hand = view.hand ?? [];
  const byId = new Map(hand.map((c) => [c.id, c]));
  const selected = selectedIds.map((id) => byId.get(id)).filter((c): c is Card => c !== undefined);
  const legalIds = new Set(view.legalCardIds);
  const underAttack = view.pendingAttack > 0 && view.phase.kind === 'turn';
  const phase = view.phase.kind;

  let picker: Picker = null;
  if (selected.some((c) => legal.mustChooseSuitFor.includes(c.id))) picker = { kind: 'suit' };
  else if (selected.some((c) => legal.mustChooseColorFor.includes(c.id))) picker = { kind: 'color' };

  const validSelection =
    selected.length > 0 &&
    legalIds.has(selected[0].id) &&
    selected.every((c, i) => i === 0 || canAddToSelection(view, selected.slice(0, 1), c));

  const play = { visible: !spectator, enabled: false, label: '내기' };
  const draw: Controls['draw'] = { visible: !spectator, enabled: false, label: '먹기', action: 'draw' };
  if (myTurn) {
    if (phase === 'chooseColor') {
      play.visible = false;
      draw.visible = false;
    } else if (phase === 'wild4Response') {
      play.label = '의심하기';
      play.enabled = legal.canChallenge;
      draw.label = `받아들이기 (${legal.drawCount}장)`;
      draw.enabled = legal.canAcceptWild4;
      draw.action = 'acceptWild4';
    } else {
      play.enabled = legal.canPlay && validSelection;
      if (phase === 'afterDraw') {
        draw.label = '넘기기';
        draw.enabled = legal.canPass;
        draw.action = 'pass';
      } else {
        draw.label = legal.drawCount > 1 || underAttack ? `${legal.drawCount}장 먹기` : '1장 먹기';
        draw.enabled = legal.canDraw;
      }
    }
  }

  const call = oneCardCall(view, opts.pressedFor ?? null);
  const oneCard = { enabled: call.enabled, label: call.label, shake: call.shake, catch: call.catch };

  const declareToggle = { visible: myTurn && validSelection && hand.length - selected.length === 1 };

  let status: string;
  let hint = '';
  if (view.finished) status = '게임이 끝났어요';
  else if (spectator) status = `관전 중 · ${mover ? nameOf(view, mover) : ''} 님 차례`;
  else if (view.status[view.viewer!] === 'bankrupt') status = '파산했어요. 남은 판을 지켜봐요';
  else if (view.status[view.viewer!] === 'out') status = '카드를 모두 냈어요!';
  else if (!myTurn) status = `${mover ? nameOf(view, mover) : ''} 님 차례예요`;
  else if (phase === 'chooseColor') status = '시작 색을 골라 주세요';
  else if (phase === 'wild4Response') status = '색 바꾸기+4! 의심하거나 받아들이세요';
  else if (phase === 'afterDraw') status = '먹은 카드를 바로 낼 수 있어요. 내거나 넘기세요';
  else if (underAttack) status = `공격을 받고 있어요! 막거나 ${view.pendingAttack}장 먹으세요`;
  else if (view.extraTurn) status = '한 번 더! 내 차례예요';
  else status = '내 차례예요';

  if (myTurn && !view.finished) {
    const legalCards = sortHand(
      hand.filter((c) => legalIds.has(c.id)),
      'suit',
    );
    if (underAttack) {
      hint =
        legalCards.length > 0
          ? `막을 수 있는 카드: ${listLabels(legalCards)}`
          : `막을 수 있는 카드가 없어요. ${view.pendingAttack}장 먹어야 해요`;
    } else if (phase === 'turn' || phase === 'afterDraw') {
      if (legalCards.length === 0) hint = '낼 수 있는 카드가 없어요. 1장 먹으세요';
      else if (selected.length > 0 && opts.hints) hint = explainLegal(view, selected[0]);
      else if (opts.hints) hint = `낼 수 있는 카드 ${legalCards.length}장 · 카드를 눌러 고르세요`;
    }
    if (picker && selected.length > 0)
      hint = picker.kind === 'suit' ? '7을 내면 다음 무늬를 골라요' : '낼 때 다음 색을 골라요';
  } else if (!spectator && oneCard.enabled) {
    hint = oneCard.catch
      ? `${nameOf(view, call.target!)} 님이 1장! 먼저 눌러 잡으세요`
      : '1장 남았어요! 원카드를 외치세요';
  }

  return { spectator, myTurn, mover, legalIds, underAttack, play, draw, oneCard, declareToggle, picker, status, hint };
}

export function buildPlay(
  selectedIds: string[],
  choice: { suit?: Suit; color?: Color },
  declareOneCard: boolean,
): PlayAction {
  const a: PlayAction = { type: 'play', cardIds: [...selectedIds] };
  if (choice.suit) a.chooseSuit = choice.suit;
  if (choice.color) a.chooseColor = choice.color;
  if (declareOneCard) a.declareOneCard = true;
  return a;
}

/** Remaining fraction of the mover's timer (1 → 0), or null without a deadline. */
export function timerFraction(view: OneCardView, serverNow: number): number | null {
  if (view.deadline === null || view.finished) return null;
  const total =
    view.deadline > view.turnStartedAt ? view.deadline - view.turnStartedAt : view.options.turnSeconds * 1000;
  return clockStep(Math.max(0, Math.min(1, (view.deadline - serverNow) / total)), total);
}

/** First letter of the name, skipping the lobby's "봇 " prefix so bots are told apart. */
export function initialOf(name: string): string {
  const bare = name.replace(/^봇\s+/, '');
  return [...(bare || name)][0] ?? '?';
}
