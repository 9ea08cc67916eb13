/**
 * Which cards arrive on the 훌라 table in a frame, and from where (pure, from
 * the frame's public events): a registered meld (등록) comes from its
 * owner's hand, cards laid off (붙이기) from the hand of whoever laid them,
 * and a 땡큐 meld from the claimer's hand — except the claimed card, which
 * comes off the discard pile (the card moving to the claimer).
 */
import type { GameEvent } from '@joke/engine/client';
import type { Rect } from '../../table-kit/rect.ts';
import type { Point } from '../../table-kit/motion.ts';
import type { HulaLayout } from './layout.ts';
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

/** One meld's cards sliding onto the table in one frame (canvas CSS pixels, top-left corners). */
export interface MeldSlide {
  meld: number;
  owner: string;
  by: string;
  kind: ArrivalKind;
  /** The cards come off the discard pile (the claimed 땡큐 card). */
  pile: boolean;
  cards: string[];
  from: Point;
  to: Point;
}

/** A 땡큐 highlight: the claimer's place, the claimed card and the pile it leaves. */
export interface ThankYouMark {
  player: string;
  at: Point;
  card: string | null;
  pile: Point;
}

export interface ArrivalPlaces {
  viewer: string | null;
  layout: Pick<HulaLayout, 'discard' | 'hand'>;
  /** My hand as last drawn: card id → its rectangle. */
  handWas: ReadonlyMap<string, Rect>;
  /** Centre of each opponent's avatar. */
  seats: ReadonlyMap<string, Point>;
}

/**
 * Where an arriving card starts (its top-left corner, cards `cardW`×`cardH`):
 * the claimed 땡큐 card on the discard pile; my own card at its old slot in
 * my hand (or the middle of the hand if it was not drawn); another player's
 * card at their avatar; null when there is nowhere to start from.
 */
export function arrivalStart(a: Arrival, at: ArrivalPlaces, size: { cardW: number; cardH: number }): Point | null {
  if (a.fromPile) return { x: at.layout.discard.x, y: at.layout.discard.y };
  const slot = a.by === at.viewer ? at.handWas.get(a.card) : undefined;
  if (slot) return { x: slot.x, y: slot.y };
  const area = at.layout.hand.area;
  if (a.by === at.viewer) return { x: area.x + area.w / 2 - size.cardW / 2, y: area.y };
  const seat = at.seats.get(a.by);
  return seat ? { x: seat.x - size.cardW / 2, y: seat.y - size.cardH / 2 } : null;
}
