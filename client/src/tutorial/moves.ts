/**
 * The learner's legal moves at this moment, read from the engine's own
 * judgement in the view (원카드 `legalCardIds`/`legal`, 포커 `legalActions`,
 * 훌라 `me`) and, for 훌라's groups, from the engine's meld functions. The
 * tutorial highlights exactly these; nothing here knows which step of the
 * lesson it is.
 */
import {
  type OneCardAction,
  type OneCardView,
  type PokerAction,
  type PokerView,
  type HulaAction,
  type HulaView,
  type HulaCard,
  classifyMeld,
  layOffOnto,
} from '@joke/engine/client';
import type { TutorialGame } from './lessons.ts';

export interface Move {
  /** The control it is made with: a card id (원카드), the button key (포커), or a kind (훌라). */
  key: string;
  /** Korean name shown in the highlight row. */
  label: string;
  action: unknown;
}

export function learnerMoves(game: TutorialGame, view: unknown): Move[] {
  if (game === 'one-card') return oneCardMoves(view as OneCardView);
  if (game === 'poker') return pokerMoves(view as PokerView);
  return hulaMoves(view as HulaView);
}

const SUIT = { S: '♠', H: '♥', D: '♦', C: '♣' } as const;
const RANK: Record<number, string> = { 1: 'A', 11: 'J', 12: 'Q', 13: 'K' };
export const rankName = (r: number) => RANK[r] ?? String(r);

export function oneCardMoves(v: OneCardView): Move[] {
  if (v.finished || !v.hand) return [];
  const L = v.legal;
  const out: Move[] = [];
  const mv = (key: string, label: string, action: OneCardAction) => out.push({ key, label, action });
  if (L.mustChooseColor) mv('chooseColor', '색 고르기', { type: 'chooseColor', color: 'R' });
  for (const id of v.legalCardIds) {
    const c = v.hand.find((x) => x.id === id)!;
    const label = c.kind === 'std' ? `${SUIT[c.suit]}${rankName(c.rank)}` : c.kind === 'joker' ? '조커' : c.kind;
    const action: OneCardAction = { type: 'play', cardIds: [id] };
    if (L.mustChooseSuitFor.includes(id)) action.chooseSuit = 'S';
    if (L.mustChooseColorFor.includes(id)) action.chooseColor = 'R';
    if (v.hand.length === 2) action.declareOneCard = true;
    mv(id, label, action);
  }
  if (L.canDraw) mv('draw', `${L.drawCount}장 먹기`, { type: 'draw' });
  if (L.canPass) mv('pass', '넘기기', { type: 'pass' });
  if (L.canDeclareOneCard) mv('oneCard', L.oneCardIsCatch ? '원카드 잡기' : '원카드!', { type: 'declareOneCard' });
  if (L.canChallenge) mv('challenge', '의심하기', { type: 'challengeWild4' });
  if (L.canAcceptWild4) mv('accept', '받아들이기', { type: 'acceptWild4' });
  return out;
}

const POKER_KEY: Record<string, [string, string]> = {
  'nl.fold': ['fold', '폴드'],
  'nl.check': ['check', '체크'],
  'nl.call': ['call', '콜'],
  'nl.raise': ['raise', '레이즈'],
  'nl.allIn': ['allIn', '올인'],
  'k.check': ['k.check', '체크'],
  'k.ping': ['k.ping', '삥'],
  'k.call': ['k.call', '콜'],
  'k.ddadang': ['k.ddadang', '따당'],
  'k.quarter': ['k.quarter', '쿼터'],
  'k.half': ['k.half', '하프'],
  'k.full': ['k.full', '풀'],
  'k.die': ['k.die', '다이'],
  ready: ['ready', '다음 판 준비'],
};

export function pokerMoves(v: PokerView): Move[] {
  const out: Move[] = [];
  for (const a of v.legalActions) {
    const named = POKER_KEY[a.type];
    if (!named) continue;
    let action: PokerAction;
    if (a.type === 'nl.raise') action = { type: 'nl.raise', to: a.min };
    else action = { type: a.type } as PokerAction;
    const label = a.type === 'nl.raise' && a.bet ? '베팅' : named[1];
    out.push({ key: named[0], label, action });
  }
  return out;
}

const hulaLabel = (c: HulaCard) => (c.suit === 'X' ? '조커' : `${SUIT[c.suit]}${rankName(c.rank)}`);

/** Every group of the hand the engine would register: three or more cards (or a lone 7); all of it is 훌라. */
export function hulaMelds(hand: readonly HulaCard[]): HulaCard[][] {
  const out: HulaCard[][] = [];
  const n = hand.length;
  for (let mask = 1; mask < 1 << n; mask++) {
    const cards = hand.filter((_, i) => mask & (1 << i));
    if (classifyMeld(cards)) out.push(cards);
  }
  return out;
}

export function hulaMoves(v: HulaView): Move[] {
  const me = v.me;
  const hand = v.hand ?? [];
  if (!me || v.phase.kind === 'finished') return [];
  const out: Move[] = [];
  const mv = (key: string, label: string, action: HulaAction) => out.push({ key, label, action });
  const ph = v.phase;
  if (ph.kind === 'roundEnd') {
    if (me.mustAct) mv('ready', '준비', { type: 'ready' });
    return out;
  }
  if (me.canThankYou && me.thankYouCardIds) mv('thankYou', '땡큐', { type: 'thankYou', cardIds: me.thankYouCardIds });
  if (ph.kind === 'thankYouAsk' && ph.asked === v.viewer) mv('pass', '패스', { type: 'pass' });
  if (me.canDraw) mv('draw', '더미에서 뽑기', { type: 'draw', from: 'stock' });
  if (me.canDrawDiscard) mv('take', '버린 카드 가져오기', { type: 'draw', from: 'discard' });
  if (me.canStop) mv('stop', `스톱 (${me.stopScore}점)`, { type: 'stop' });
  if (me.special) mv('special', '특수 승리', { type: 'special' });
  if (ph.kind === 'act' && ph.player === v.viewer) {
    for (const g of hulaMelds(hand))
      mv('meld', `등록 ${g.map(hulaLabel).join('·')}`, { type: 'meld', cardIds: g.map((c) => c.id) });
    // 붙이기 is for players who have registered a group of their own.
    const registered = v.seats.find((x) => x.id === v.viewer)?.registered ?? false;
    for (const c of registered ? hand : [])
      for (const m of v.melds)
        if (layOffOnto(m, c)) mv('layOff', `붙이기 ${hulaLabel(c)}`, { type: 'layOff', cardIds: [c.id], meldId: m.id });
    for (const c of hand) mv('discard', `버리기 ${hulaLabel(c)}`, { type: 'discard', cardId: c.id });
  }
  return out;
}
