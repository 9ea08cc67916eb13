/**
 * Which cards arrive on the 훌라 table in a frame, and from where (pure, from
 * the frame's public events): a registered meld (등록) comes from its
 * owner's hand, cards laid off (붙이기) from the hand of whoever laid them,
 * and a 땡큐 meld from the claimer's hand — except the claimed card, which
 * comes off the discard pile (the card moving to the claimer).
 */
import type { GameEvent } from '@joke/engine/core/types';
import type { Card, Meld } from './model.ts';

export type ArrivalKind = 'meld' | 'layOff' | 'thankYou';

export interface Arrival {
  card: string;
  meld: number;
  /** Who played the card (a lay-off can go onto someone else's meld). */
  by: string;
  kind: ArrivalKind;
  /** The card comes off the discard pile (the claimed 땡큐 card), not from a hand. */
  fromPile: boolean;
}

/** `claimedTop`: the discard pile's top card before this frame (the card a 땡큐 takes). */
export function arrivals(events: readonly GameEvent[], claimedTop: string | null): Arrival[] {
  const out: Arrival[] = [];
  for (const e of events) {
    const by = String(e.player);
    if (e.type === 'melded' || e.type === 'thankYou') {
      const m = e.meld as Meld | undefined;
      if (!m) continue;
      const kind: ArrivalKind = e.type === 'melded' ? 'meld' : 'thankYou';
      for (const c of m.cards)
        out.push({ card: c.id, meld: m.id, by, kind, fromPile: kind === 'thankYou' && c.id === claimedTop });
    } else if (e.type === 'laidOff') {
      for (const c of (e.cards as Card[] | undefined) ?? [])
        out.push({ card: c.id, meld: Number(e.meldId), by, kind: 'layOff', fromPile: false });
    }
  }
  return out;
}
