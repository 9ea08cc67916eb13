/**
 * The 포커 view as the engine types it (spec §8), plus the few pure helpers
 * the table needs: the art card for a poker card, seat order around the
 * table, chip formatting and the chips the view shows on the table.
 */
import type { Card as ArtCard } from '../../cards/model.ts';
import type {
  PokerCard as Card,
  CardSlot,
  HandPlayerView,
  LegalAction,
  PokerAction,
  PokerMode,
  PokerView,
  SeatView,
} from '@joke/engine/client';

export type { Card, CardSlot, HandPlayerView, LegalAction, PokerAction, PokerMode, PokerView, SeatView };

export const MODE_NAME: Record<PokerMode, string> = {
  holdem: '텍사스 홀덤',
  omaha: '오마하',
  sevenPoker: '7포커',
  sevenHiLo: '7포커 하이로우',
  badugi: '바둑이',
  fiveDraw: '5카드 드로우',
  indian: '인디언 포커',
};

export const BETTING_NAME: Record<PokerView['betting'], string> = {
  korean: '한국식',
  noLimit: '노리밋',
  potLimit: '팟리밋',
};

/** The shared card art draws A as rank 1; poker counts it 14 (the indian d20 ace is already 1). */
/**
 * Poker ranks aces 14; rank 1 exists only in the 인디언 20-card deck (1..10), where it is the lowest
 * number and is drawn as "1" (issue 15), not as an ace.
 */
export function artCard(c: Card): ArtCard {
  const base = { id: `p${c.id}-${c.rank}${c.suit}`, kind: 'std' as const, suit: c.suit };
  if (c.rank === 1) return { ...base, rank: 1, numeric: true } as ArtCard;
  return { ...base, rank: c.rank === 14 ? 1 : c.rank };
}

export function isHidden(c: CardSlot | null): c is { hidden: true } {
  return c !== null && 'hidden' in c;
}

/** "1,240칩" — chips, never money. */
export function chips(n: number): string {
  return `${n.toLocaleString('ko-KR')}칩`;
}

/** Everyone but the viewer, clockwise from the viewer's left; a spectator sees every seat. */
export function opponentsOf(v: PokerView): SeatView[] {
  const seats = [...v.seats].sort((a, b) => a.seat - b.seat);
  if (v.viewer === null) return seats;
  const me = seats.findIndex((s) => s.id === v.viewer);
  if (me < 0) return seats;
  return [...seats.slice(me + 1), ...seats.slice(0, me)];
}

export function handPlayer(v: PokerView, id: string): HandPlayerView | null {
  return v.hand?.players.find((p) => p.id === id) ?? null;
}

/** Pot in the middle: collected pots, bets in front of players this round, and a carried pot. */
export function potTotal(v: PokerView): number {
  const h = v.hand;
  if (!h) return v.carryOver;
  const inFront = h.players.reduce((s, p) => s + p.committedRound, 0);
  return v.carryOver + h.pots.reduce((s, p) => s + p.amount, 0) + inFront;
}

/**
 * Every chip the view shows — stacks, pots, bets in front of players, fold
 * penalties and a carried pot — and what it must add up to: the starting
 * chips of every seat plus rebuys (§5.5, §5.6).
 */
export function chipsOnTable(v: PokerView): { shown: number; expected: number } {
  let shown = v.seats.reduce((s, x) => s + x.stack, 0) + v.carryOver;
  const h = v.hand;
  if (h) {
    shown += h.pots.reduce((s, p) => s + p.amount, 0) + h.penalties.reduce((s, p) => s + p.amount, 0);
    shown += h.players.reduce((s, p) => s + p.committedRound, 0);
  }
  const rebuys = v.seats.reduce((s, x) => s + x.rebuys, 0);
  return { shown, expected: v.options.startingChips * (v.seats.length + rebuys) };
}

export function nameOf(v: PokerView, id: string): string {
  return v.seats.find((s) => s.id === id)?.name ?? id;
}

/** Cards of a seat as drawn left to right: hole (or hidden backs), then up cards. */
export function seatCards(p: HandPlayerView): CardSlot[] {
  return [...p.hole, ...p.up];
}
