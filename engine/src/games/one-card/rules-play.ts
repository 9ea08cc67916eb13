/**
 * The `play` action: validation (§8.2) and card effects (§5.2 C, §5.6).
 * Validation finishes before anything changes.
 */
import { reject, type ApplyResult, type PlayerId } from '../../core/index.ts';
import { colorOf, isClassicAttack } from './cards.ts';
import { attackOf, cardReason, holdsColor, lastCardReason, referenceOf, type PlayCtx } from './legal.ts';
import { R } from './reasons.ts';
import { drawnCardAlone } from './version.ts';
import {
  activeAfter,
  checkEnd,
  drawCards,
  markOut,
  playingCount,
  skippedPlayers,
  startTurn,
  type Tx,
} from './turns.ts';
import type { Card, OneCardState, PlayAction } from './types.ts';
import { openWindow, settleWindow } from './window.ts';

export function ctxOf(s: OneCardState, p: PlayerId): PlayCtx {
  const top = s.discard[s.discard.length - 1];
  const ph = s.phase;
  return {
    options: s.options,
    decks: s.decks,
    top,
    reference: top.kind === 'joker' ? referenceOf(s.discard) : top,
    declaredSuit: s.declaredSuit,
    declaredColor: s.declaredColor,
    pendingAttack: s.pendingAttack,
    phase: ph.kind,
    drawnCardId: ph.kind === 'afterDraw' ? ph.drawnCardId : null,
    hand: s.hands[p],
  };
}

interface CheckedPlay {
  cards: Card[];
  handAfter: Card[];
}

export function checkPlay(s: OneCardState, actor: PlayerId, a: PlayAction): CheckedPlay | string {
  const ph = s.phase.kind;
  if (ph === 'chooseColor') return R.chooseStartColor;
  if (ph === 'wild4Response' && !s.options.unoStacking) return R.respondWild4;
  const hand = s.hands[actor];
  const ids = a.cardIds;
  const cards: Card[] = [];
  for (let i = 0; i < ids.length; i++) {
    for (let j = 0; j < i; j++) if (ids[j] === ids[i]) return R.duplicateCard;
    const c = hand.find((x) => x.id === ids[i]);
    if (c === undefined) return R.notInHand;
    cards.push(c);
  }
  if (cards.length > 1 && (s.mode !== 'classic' || !s.options.multiPlay)) return R.oneAtATime;
  // §8.2 / §5.2 B-2: after a draw only the drawn card itself may be played, alone.
  if (cards.length > 1 && s.phase.kind === 'afterDraw' && drawnCardAlone(s)) return R.drawnAlone;
  const ctx = ctxOf(s, actor);
  const first = cards[0];
  const why = cardReason(ctx, first);
  if (why !== null) return why;
  for (let i = 1; i < cards.length; i++) {
    const c = cards[i];
    if (c.kind !== 'std' || first.kind !== 'std' || c.rank !== first.rank) return R.sameRank;
  }
  const handAfter = hand.filter((c) => !ids.includes(c.id));
  if (handAfter.length === 0 && s.mode === 'classic') {
    // Clarification 5: a play that empties the hand is checked card by card.
    for (const c of cards) {
      const last = lastCardReason(s.options, c);
      if (last !== null) return last;
    }
  }
  if (first.kind === 'std' && first.rank === 7 && a.chooseSuit === undefined) return R.chooseSuit;
  if ((first.kind === 'wild' || first.kind === 'wild4') && a.chooseColor === undefined) return R.chooseColor;
  return { cards, handAfter };
}

export function play(tx: Tx, actor: PlayerId, a: PlayAction): ApplyResult<OneCardState> | null {
  const checked = checkPlay(tx.s, actor, a);
  if (typeof checked === 'string') return reject(checked);
  if (tx.s.mode === 'classic') playClassic(tx, actor, checked, a);
  else playUno(tx, actor, checked.cards[0], checked.handAfter, a);
  return null;
}

function putDown(tx: Tx, actor: PlayerId, cards: Card[], handAfter: Card[], a: PlayAction): boolean {
  const s = tx.s;
  tx.setHand(actor, handAfter);
  s.discard = s.discard.concat(cards);
  tx.emit({ type: 'cardPlayed', player: actor, cards, declareOneCard: a.declareOneCard === true });
  const out = handAfter.length === 0;
  if (out) markOut(tx, actor);
  settleWindow(tx, actor);
  if (handAfter.length === 1) openWindow(tx, actor, a.declareOneCard === true);
  return out;
}

function playClassic(tx: Tx, actor: PlayerId, { cards, handAfter }: CheckedPlay, a: PlayAction): void {
  const s = tx.s;
  const o = s.options;
  const first = cards[0];
  const k = cards.length;
  const underAttack = s.pendingAttack > 0;
  // Clarification 4: a declared suit survives jokers and ends with the next non-joker card.
  if (first.kind === 'std') s.declaredSuit = null;
  const rank = first.kind === 'std' ? first.rank : 0;
  if (rank === 7) {
    s.declaredSuit = a.chooseSuit!;
    tx.emit({ type: 'suitDeclared', player: actor, suit: a.chooseSuit });
  }
  const out = putDown(tx, actor, cards, handAfter, a);
  if (underAttack && rank === 3) {
    s.pendingAttack = 0;
    tx.emit({ type: 'attackBlocked', player: actor, card: cards[0] });
  } else if (isClassicAttack(first)) {
    s.pendingAttack += attackOf(cards, o);
    tx.emit({ type: 'attackStacked', player: actor, total: s.pendingAttack });
  }
  if (out && checkEnd(tx)) return;

  let skips = 0;
  if (rank === 11) skips = k;
  else if (rank === 12) {
    if (playingCount(s) + (out ? 1 : 0) === 2) {
      if (o.qInTwoPlayer === 'as-skip') skips = k;
    } else if (k % 2 === 1) {
      s.direction = s.direction === 1 ? -1 : 1;
      tx.emit({ type: 'directionChanged', direction: s.direction });
    }
  } else if (rank === 13 && o.kEffect === 'extra-turn' && !out) {
    startTurn(tx, actor);
    s.extraTurn = true;
    tx.emit({ type: 'extraTurn', player: actor });
    return;
  } else if (rank === 13 && o.kEffect === 'skip-two') skips = 2 * k;
  if (skips > 0) tx.emit({ type: 'skipped', player: actor, players: skippedPlayers(s, actor, skips) });
  startTurn(tx, activeAfter(s, actor, skips));
}

function playUno(tx: Tx, actor: PlayerId, card: Card, handAfter: Card[], a: PlayAction): void {
  const s = tx.s;
  const o = s.options;
  const prevColor = s.declaredColor ?? colorOf(s.discard[s.discard.length - 1]) ?? 'R';
  const isWild = card.kind === 'wild' || card.kind === 'wild4';
  s.declaredColor = isWild ? a.chooseColor! : null;
  if (isWild) tx.emit({ type: 'colorDeclared', player: actor, color: a.chooseColor });
  const out = putDown(tx, actor, [card], handAfter, a);
  const amount = card.kind === 'draw2' ? 2 : card.kind === 'wild4' ? 4 : 0;

  if (out && (o.endCondition === 'first-out' || playingCount(s) <= 1)) {
    // §5.6: finishing on +2/+4 still makes the next player draw (it counts in the score).
    if (amount > 0 && playingCount(s) > 0) {
      const total = s.pendingAttack + amount;
      s.pendingAttack = 0;
      drawCards(tx, activeAfter(s, actor, 0), total, 'attack');
    }
    checkEnd(tx);
    return;
  }

  if (amount > 0) {
    const victim = activeAfter(s, actor, 0);
    if (card.kind === 'wild4' && o.unoWild4Rule === 'challenge') {
      s.pendingAttack += amount;
      s.phase = {
        kind: 'wild4Response',
        by: actor,
        target: victim,
        prevColor,
        illegal: holdsColor(handAfter, prevColor, card.id),
        handAtPlay: handAfter.length,
      };
      s.current = victim;
      s.turnStartedAt = tx.now;
      s.extraTurn = false;
      tx.emit({ type: 'attackStacked', player: actor, total: s.pendingAttack });
      return;
    }
    if (o.unoStacking) {
      s.pendingAttack += amount;
      tx.emit({ type: 'attackStacked', player: actor, total: s.pendingAttack });
      startTurn(tx, victim);
      return;
    }
    const next = activeAfter(s, actor, 1);
    drawCards(tx, victim, amount, 'attack');
    tx.emit({ type: 'skipped', player: actor, players: [victim] });
    if (checkEnd(tx)) return;
    startTurn(tx, s.status[next] === 'playing' ? next : activeAfter(s, actor, 0));
    return;
  }
  let skips = 0;
  if (card.kind === 'skip') skips = 1;
  else if (card.kind === 'reverse') {
    if (playingCount(s) + (out ? 1 : 0) === 2) skips = 1;
    else {
      s.direction = s.direction === 1 ? -1 : 1;
      tx.emit({ type: 'directionChanged', direction: s.direction });
    }
  }
  if (skips > 0) tx.emit({ type: 'skipped', player: actor, players: skippedPlayers(s, actor, skips) });
  if (out && checkEnd(tx)) return;
  startTurn(tx, activeAfter(s, actor, skips));
}
