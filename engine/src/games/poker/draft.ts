/**
 * Copy-on-write for apply(): the state, the hand, its betting round and the
 * two collections (seats, players) are copied up front; a seat or a player
 * object is copied the first time something writes to it (`S`, `P`, through
 * core/cow.ts's `Owned`, which the other games use too). Arrays
 * and cards below that level are treated as immutable and replaced, never
 * pushed into, so the input state is never touched and no deep clone is needed.
 */
import { Owned } from '../../core/cow.ts';
import type { PlayerId } from '../../core/types.ts';
import type { PokerEvent } from './events.ts';
import type { HandPlayer, HandState, PokerState, PublicLogEntry, SeatState } from './types.ts';

export interface Ctx {
  s: PokerState;
  now: number;
  ev: PokerEvent[];
  /** Seat and player objects already copied in this transition (safe to write). */
  owned: Owned;
}

export function draft(state: PokerState, now: number): Ctx {
  const s: PokerState = { ...state, seats: state.seats.slice() };
  if (state.hand) {
    const h = state.hand;
    s.hand = { ...h, players: { ...h.players }, betting: h.betting ? { ...h.betting } : null };
  }
  return { s, now, ev: [], owned: new Owned() };
}

/** The player `id` of the current hand, writable. */
export function P(ctx: Ctx, id: PlayerId): HandPlayer {
  const players = ctx.s.hand!.players;
  const p = players[id];
  const mine = ctx.owned.own(p);
  if (mine !== p) players[id] = mine;
  return mine;
}

/** The seat of `id`, writable. */
export function S(ctx: Ctx, id: PlayerId): SeatState {
  const seats = ctx.s.seats;
  for (let i = 0; i < seats.length; i++) {
    const seat = seats[i];
    if (seat.id !== id) continue;
    const mine = ctx.owned.own(seat);
    if (mine !== seat) seats[i] = mine;
    return mine;
  }
  throw new Error(`no seat ${id}`);
}

export function seatOf(s: PokerState, id: PlayerId): SeatState | undefined {
  for (const seat of s.seats) if (seat.id === id) return seat;
  return undefined;
}

export function hp(h: HandState, id: PlayerId): HandPlayer | undefined {
  return Object.prototype.hasOwnProperty.call(h.players, id) ? h.players[id] : undefined;
}

export function live(h: HandState): HandPlayer[] {
  const out: HandPlayer[] = [];
  for (const id of h.seatOrder) if (!h.players[id].folded) out.push(h.players[id]);
  return out;
}

export function liveCount(h: HandState): number {
  let n = 0;
  for (const id of h.seatOrder) if (!h.players[id].folded) n++;
  return n;
}

/** Every chip in the middle of this hand: settled pots, this round's bets and a carried pot (§5.2 `pot`). */
export function potTotal(s: PokerState): number {
  const h = s.hand!;
  let total = s.carryOver;
  for (const p of h.pots) total += p.amount;
  for (const id of h.seatOrder) total += h.players[id].committedRound;
  return total;
}

/** Moves `amount` (capped at the stack) from a seat into the player's bets; returns what moved. */
export function pay(ctx: Ctx, id: PlayerId, amount: number, round = true): number {
  const seat = S(ctx, id);
  const p = P(ctx, id);
  const paid = Math.min(amount, seat.stack);
  seat.stack -= paid;
  p.committedTotal += paid;
  if (round) p.committedRound += paid;
  if (seat.stack === 0) p.allIn = true;
  return paid;
}

const LOG_MAX = 100;

export function log(ctx: Ctx, entry: Omit<PublicLogEntry, 'hand'>): void {
  const s = ctx.s;
  const e: PublicLogEntry = { hand: s.hand?.handNo ?? s.handsPlayed, ...entry };
  const prev = s.publicLog;
  s.publicLog = prev.length >= LOG_MAX ? [...prev.slice(prev.length - LOG_MAX + 1), e] : [...prev, e];
}

/** Milliseconds a player gets for a betting turn (§8.5; 5 s once marked away, §5.8). */
export function turnMs(s: PokerState, id: PlayerId): number {
  return seatOf(s, id)?.away ? 5000 : s.options.turnSeconds * 1000;
}

export function simultaneousMs(s: PokerState): number {
  return (s.options.turnSeconds + 10) * 1000;
}
