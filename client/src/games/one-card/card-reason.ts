/**
 * Why a card in the hand cannot be played now, in the engine's own Korean
 * words (the judgement of one-card/legal.ts over the player's view), so a tap
 * on a dimmed card explains itself instead of a generic "낼 수 없는 카드".
 */
import {
  cardReason,
  lastCardReason,
  type PlayCtx,
  type OneCardCard as Card,
  type OneCardView,
} from '@joke/engine/client';

export function cardRefusal(v: OneCardView, card: Card): string | null {
  if (!v.hand) return null;
  const ctx: PlayCtx = {
    options: v.options,
    decks: v.decks,
    top: v.top,
    reference: v.reference,
    declaredSuit: v.declaredSuit,
    declaredColor: v.declaredColor,
    pendingAttack: v.pendingAttack,
    phase: v.phase.kind,
    drawnCardId: v.phase.drawnCardId ?? null,
    hand: v.hand,
  };
  const why = cardReason(ctx, card);
  if (why) return why;
  if (v.hand.length === 1 && v.options.mode === 'classic') return lastCardReason(v.options, card);
  return null;
}
