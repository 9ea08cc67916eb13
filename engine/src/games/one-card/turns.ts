/**
 * Turn order, drawing, bankruptcy (§5.4), the draw-pile rebuild (§5.5) and
 * the end of the game. Every transition works on a `Tx`: a shallow copy of
 * the input state whose nested records/arrays are replaced, never mutated,
 * so the caller's state stays untouched (copy-on-write, core/cow.ts's `Owned`
 * for the records written in place).
 */
import { Rng, type PlayerId } from '../../core/index.ts';
import { nextInRing, seatsAfter, type TurnRing } from '../../core/turn-ring.ts';
import { Owned } from '../../core/cow.ts';
import type { DrawReason, OneCardEvent } from './events.ts';
import type { Card, OneCardState, PlayerStatus } from './types.ts';
import { roundPoints, rankingOrder } from './scoring.ts';

export const TURN = { kind: 'turn' } as const;

export class Tx {
  readonly s: OneCardState;
  readonly events: OneCardEvent[] = [];
  readonly now: number;
  private rng: Rng | null = null;
  /** The records (hands, status) this transition already copied, safe to write in place. */
  private readonly owned = new Owned();

  constructor(state: OneCardState, now: number, fresh = false) {
    this.s = fresh ? state : { ...state };
    this.now = now;
    if (fresh) {
      this.owned.adopt(this.s.hands);
      this.owned.adopt(this.s.status);
    }
    if (this.s.lastReveal !== null) this.s.lastReveal = null;
  }

  random(): Rng {
    if (this.rng === null) this.rng = Rng.fromState(this.s.rng);
    return this.rng;
  }

  setHand(p: PlayerId, cards: Card[]): void {
    this.s.hands = this.owned.own(this.s.hands);
    this.s.hands[p] = cards;
  }

  setStatus(p: PlayerId, st: PlayerStatus): void {
    this.s.status = this.owned.own(this.s.status);
    this.s.status[p] = st;
  }

  emit(e: OneCardEvent): void {
    this.events.push(e);
  }

  /** Seals the transition: RNG state written back, `seq` advanced. */
  done(countsAsTransition = true): OneCardState {
    if (this.rng !== null) this.s.rng = this.rng.state();
    if (countsAsTransition) this.s.seq = this.s.seq + 1;
    return this.s;
  }
}

export function seatIndex(s: OneCardState, p: PlayerId): number {
  return s.seats.indexOf(p);
}

export function playingCount(s: OneCardState): number {
  let n = 0;
  for (const p of s.seats) if (s.status[p] === 'playing') n++;
  return n;
}

/**
 * The player who moves after `from`, passing over `skips` active players.
 * When `from` is still playing and the skips reach round the table, the turn
 * comes back to `from` (J with two players, K skip-two with three or fewer).
 */
export function activeAfter(s: OneCardState, from: PlayerId, skips = 0): PlayerId {
  const seat = nextInRing(playingRing(s), seatIndex(s, from), skips);
  return seat < 0 ? from : s.seats[seat];
}

/** Active players passed over by `activeAfter(s, from, skips)`, for the `skipped` event. */
export function skippedPlayers(s: OneCardState, from: PlayerId, skips: number): PlayerId[] {
  return seatsAfter(playingRing(s), seatIndex(s, from), skips).map((seat) => s.seats[seat]);
}

/** The seats in the current direction, the players still playing in (core/turn-ring.ts). */
function playingRing(s: OneCardState): TurnRing<PlayerId> {
  return { seats: s.seats, direction: s.direction, isIn: (p) => s.status[p] === 'playing' };
}

export function startTurn(tx: Tx, p: PlayerId): void {
  const s = tx.s;
  s.current = p;
  s.phase = TURN;
  s.turnStartedAt = tx.now;
  s.extraTurn = false;
}

/**
 * §5.5: the discard pile minus its top becomes the new draw pile, shuffled
 * with the seeded RNG. In classic the jokers on top and the card beneath them
 * stay too, because that card is what the next play is judged against
 * (afterJoker = previous). Returns false if nothing could be recycled.
 */
function rebuild(tx: Tx): boolean {
  const s = tx.s;
  const d = s.discard;
  let keep = 1;
  if (s.mode === 'classic') while (keep < d.length && d[d.length - keep].kind === 'joker') keep++;
  if (d.length <= keep) return false;
  const pile = d.slice(0, d.length - keep);
  tx.random().shuffle(pile);
  s.discard = d.slice(d.length - keep);
  s.drawPile = pile;
  tx.emit({ type: 'reshuffled', count: pile.length });
  return true;
}

/**
 * Draws up to `n` cards for `p` (fewer if even the rebuilt pile runs out, §5.5),
 * then applies bankruptcy (§5.4). Returns how many were drawn.
 */
export function drawCards(tx: Tx, p: PlayerId, n: number, reason: DrawReason): { drawn: Card[]; bankrupt: boolean } {
  const s = tx.s;
  const drawn: Card[] = [];
  let pile = s.drawPile;
  let pos = 0;
  while (drawn.length < n) {
    if (pos >= pile.length) {
      s.drawPile = [];
      if (!rebuild(tx)) {
        pile = s.drawPile;
        pos = 0;
        break;
      }
      pile = s.drawPile;
      pos = 0;
    }
    drawn.push(pile[pos++]);
  }
  s.drawPile = pos === 0 ? pile : pile.slice(pos);
  const hand = s.hands[p].concat(drawn);
  tx.setHand(p, hand);
  const limit = s.options.bankruptLimit;
  const bankrupt = limit !== null && hand.length >= limit;
  // A player going bankrupt loses these cards to the pile at once: they need not see them.
  tx.emit(
    bankrupt
      ? { type: 'cardsDrawn', player: p, count: drawn.length, reason }
      : { type: 'cardsDrawn', player: p, count: drawn.length, cards: drawn, reason },
  );
  if (bankrupt) goBankrupt(tx, p);
  return { drawn, bankrupt };
}

/** §5.4: out of the game, hand to the bottom of the draw pile unshuffled. */
function goBankrupt(tx: Tx, p: PlayerId): void {
  const s = tx.s;
  const hand = s.hands[p];
  s.drawPile = s.drawPile.concat(hand);
  tx.setHand(p, []);
  tx.setStatus(p, 'bankrupt');
  s.bankruptOrder = [...s.bankruptOrder, p];
  if (s.oneCardWindow?.player === p) s.oneCardWindow = null;
  tx.emit({ type: 'bankrupt', player: p, cardsReturned: hand.length });
}

export function markOut(tx: Tx, p: PlayerId): void {
  const s = tx.s;
  tx.setStatus(p, 'out');
  s.finishOrder = [...s.finishOrder, p];
  if (s.oneCardWindow?.player === p) s.oneCardWindow = null;
  tx.emit({ type: 'playerOut', player: p, place: s.finishOrder.length });
}

/** §6 / §8.6: ends the game if its end condition holds; returns true if it did. */
export function checkEnd(tx: Tx): boolean {
  const s = tx.s;
  const over = (s.options.endCondition === 'first-out' && s.finishOrder.length > 0) || playingCount(s) <= 1;
  if (!over) return false;
  s.phase = { kind: 'finished' };
  s.oneCardWindow = null;
  s.pendingAttack = 0;
  s.extraTurn = false;
  const order = rankingOrder(s);
  const winner = order[0]?.player;
  if (s.scores && winner !== undefined) {
    const pts = roundPoints(s, winner);
    s.scores = { ...s.scores, [winner]: (s.scores[winner] ?? 0) + pts };
  }
  tx.emit({ type: 'gameOver', winners: order.filter((e) => e.rank === 1).map((e) => e.player) });
  return true;
}

/**
 * After a bankruptcy that was not caused by the mover's own draw (a one-card
 * catch): if the bankrupt player held the turn, it moves on.
 */
export function afterOutsideBankruptcy(tx: Tx, p: PlayerId): void {
  const s = tx.s;
  if (checkEnd(tx)) return;
  const ph = s.phase;
  if (ph.kind === 'wild4Response' ? ph.target === p : s.current === p) {
    s.pendingAttack = 0;
    startTurn(tx, activeAfter(s, p, 0));
  }
}
