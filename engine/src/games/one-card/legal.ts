/**
 * Which card may be played now (§5.2 A/B, §5.6). Written against a small
 * context that both the state and a player's view can provide, so the server,
 * the `legalCardIds` highlight and the bot share one judgement.
 */
import { attackAmount, colorOf, isClassicAttack, isClassicSpecial } from './cards.ts';
import { R } from './reasons.ts';
import type { Card, Color, OneCardOptions, Phase, Suit } from './types.ts';

export interface PlayCtx {
  options: OneCardOptions;
  decks: 1 | 2;
  top: Card;
  /** First non-joker card from the top (classic, afterJoker = previous). */
  reference: Card | null;
  declaredSuit: Suit | null;
  declaredColor: Color | null;
  pendingAttack: number;
  phase: Phase['kind'];
  drawnCardId: string | null;
  hand: readonly Card[];
}

/** §5.2 A counter table, including the two-deck cases. */
export function isCounter(top: Card, card: Card, decks: 1 | 2): boolean {
  if (top.kind === 'joker') {
    if (card.kind !== 'joker') return false;
    if (top.joker === 'black') return card.joker === 'color' || (decks === 2 && card.joker === 'black');
    return decks === 2 && card.joker === 'color';
  }
  if (top.kind !== 'std') return false;
  if (card.kind === 'joker') return top.rank === 1 || top.rank === 2;
  if (card.kind !== 'std') return false;
  if (top.rank === 2) return card.rank === 2 || (card.rank === 1 && card.suit === top.suit);
  if (top.rank === 1) {
    if (top.suit !== 'S') return card.rank === 1;
    return decks === 2 && card.rank === 1 && card.suit === 'S';
  }
  return false;
}

/** §5.2 A-2 with clarifications 1–2: the 3 must match the suit of the attack card on top, ♠A included. */
export function isThreeDefense(o: OneCardOptions, top: Card, card: Card): boolean {
  return (
    o.threeDefense === 'same-suit' &&
    top.kind === 'std' &&
    (top.rank === 1 || top.rank === 2) &&
    card.kind === 'std' &&
    card.rank === 3 &&
    card.suit === top.suit
  );
}

/** §5.2 D with clarification 3. null = allowed as a last card. */
export function lastCardReason(o: OneCardOptions, card: Card): string | null {
  switch (o.lastCardRule) {
    case 'joker':
      return card.kind === 'joker' ? R.lastJoker : null;
    case 'attack':
      return isClassicAttack(card) ? R.lastAttack : null;
    case 'special':
      return isClassicSpecial(card) ? R.lastSpecial : null;
    default:
      return null;
  }
}

export function currentColor(ctx: PlayCtx): Color | null {
  return ctx.declaredColor ?? colorOf(ctx.top);
}

/** §5.6 strict: no card of the current colour in the hand apart from the +4 itself. */
export function holdsColor(hand: readonly Card[], color: Color | null, except: string): boolean {
  for (const c of hand) if (c.id !== except && 'color' in c && c.color === color) return true;
  return false;
}

function classicReason(ctx: PlayCtx, card: Card): string | null {
  const { top } = ctx;
  if (ctx.pendingAttack > 0) {
    if (isCounter(top, card, ctx.decks) || isThreeDefense(ctx.options, top, card)) return null;
    return R.underAttack;
  }
  if (card.kind === 'joker') return null;
  if (card.kind !== 'std') return R.mismatch;
  if (top.kind === 'joker' && ctx.options.afterJoker === 'any') return null;
  const ref = top.kind === 'joker' ? ctx.reference : top;
  if (ref === null || ref.kind !== 'std') return null;
  const declared = ctx.declaredSuit;
  if (declared !== null) {
    if (card.suit === declared || card.rank === 7) return null;
    return R.declaredSuit(declared);
  }
  if (card.suit === ref.suit || card.rank === ref.rank) return null;
  return R.mismatch;
}

function unoReason(ctx: PlayCtx, card: Card): string | null {
  const { top, options } = ctx;
  const color = currentColor(ctx);
  const strictOk = () =>
    options.unoWild4Rule !== 'strict' || !holdsColor(ctx.hand, color, card.id) ? null : R.wild4Strict;
  if (ctx.pendingAttack > 0) {
    // Only reachable with stacking on (house rule): +2 on +2 or +4, +4 on +4 only.
    if (card.kind === 'wild4') return strictOk();
    if (card.kind === 'draw2' && top.kind === 'draw2') return null;
    return R.underAttack;
  }
  if (card.kind === 'wild') return null;
  if (card.kind === 'wild4') return strictOk();
  if (!('color' in card)) return R.unoMismatch;
  if (card.color === color) return null;
  if (card.kind === 'num') return top.kind === 'num' && top.value === card.value ? null : R.unoMismatch;
  return top.kind === card.kind ? null : R.unoMismatch;
}

/** Reason `card` cannot open a play now (lastCardRule aside), or null. */
export function cardReason(ctx: PlayCtx, card: Card): string | null {
  if (ctx.phase === 'afterDraw' && card.id !== ctx.drawnCardId) return R.drawnOnly;
  if (ctx.phase === 'wild4Response') {
    if (!ctx.options.unoStacking) return R.respondWild4;
    return card.kind === 'wild4' ? null : R.respondWild4;
  }
  return ctx.options.mode === 'classic' ? classicReason(ctx, card) : unoReason(ctx, card);
}

/** Cards that may be played alone now, lastCardRule included. */
export function legalCardIds(ctx: PlayCtx): string[] {
  const out: string[] = [];
  const last = ctx.hand.length === 1 && ctx.options.mode === 'classic';
  for (const c of ctx.hand) {
    if (cardReason(ctx, c) !== null) continue;
    if (last && lastCardReason(ctx.options, c) !== null) continue;
    out.push(c.id);
  }
  return out;
}

/**
 * §5.2 C, §8.2 with clarification 5: every legal play of two or more cards
 * under classic \`multiPlay\` (lead card first, then the others in hand order;
 * the others may be sent in any order). Only in the \`turn\` phase: after a
 * draw only the drawn card may go (§5.2 B-2). A play that empties the hand is
 * listed only if every card in it passes \`lastCardRule\`.
 */
export function legalMultiPlays(ctx: PlayCtx): string[][] {
  if (ctx.options.mode !== 'classic' || !ctx.options.multiPlay || ctx.phase !== 'turn') return [];
  const out: string[][] = [];
  for (const lead of ctx.hand) {
    if (lead.kind !== 'std' || cardReason(ctx, lead) !== null) continue;
    const mates = ctx.hand.filter((c) => c !== lead && c.kind === 'std' && c.rank === lead.rank);
    for (let mask = 1; mask < 1 << mates.length; mask++) {
      const picked = mates.filter((_, i) => mask & (1 << i));
      if (
        picked.length + 1 === ctx.hand.length &&
        [lead, ...picked].some((c) => lastCardReason(ctx.options, c) !== null)
      )
        continue;
      out.push([lead.id, ...picked.map((c) => c.id)]);
    }
  }
  return out;
}

export function hasPlayable(ctx: PlayCtx): boolean {
  const last = ctx.hand.length === 1 && ctx.options.mode === 'classic';
  for (const c of ctx.hand) {
    if (cardReason(ctx, c) !== null) continue;
    if (last && lastCardReason(ctx.options, c) !== null) continue;
    return true;
  }
  return false;
}

/** Sum of the attack added by a classic play (multiPlay adds every card, clarification 5). */
export function attackOf(cards: readonly Card[], o: OneCardOptions): number {
  let sum = 0;
  for (const c of cards) sum += attackAmount(c, o);
  return sum;
}

/** First non-joker from the top of the discard pile: what a card on a joker is judged against. */
export function referenceOf(discard: readonly Card[]): Card | null {
  for (let i = discard.length - 1; i >= 0; i--) if (discard[i].kind !== 'joker') return discard[i];
  return null;
}
