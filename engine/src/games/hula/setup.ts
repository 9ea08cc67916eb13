/** Deck, seating and dealing (docs/games/hula.md §3–4). */
import { setupVersion } from '../../core/versions.ts';
import { RULES_VERSION } from './version.ts';
import { Rng } from '../../core/rng.ts';
import { seedCommitment } from '../../core/commit.ts';
import { SUITS } from '../../core/cards.ts';
import { nextInRing } from '../../core/turn-ring.ts';
import type { SetupInput } from '../../core/types.ts';
import type { HulaEvent } from './events.ts';
import { TIMERS } from './timers.ts';
import type { Card, HulaMode, HulaOptions, HulaState } from './types.ts';

function buildDeck(jokers: number): readonly Card[] {
  const deck: Card[] = [];
  for (const suit of SUITS) for (let rank = 1; rank <= 13; rank++) deck.push({ id: `${suit}${rank}`, suit, rank });
  for (let j = 1; j <= jokers; j++) deck.push({ id: `X${j}`, suit: 'X', rank: 0 });
  return Object.freeze(deck.map((c) => Object.freeze(c)));
}

/** Card objects are shared and frozen: a card's identity is its id, and nothing ever mutates one. */
export const DECKS: Record<HulaMode, readonly Card[]> = { monster: buildDeck(0), joker: buildDeck(2) };

export const HAND_SIZE = 7;
export const HAND_LIMIT = 8;

export function setup(input: SetupInput<HulaOptions>): HulaState {
  const { seed, players, options, now } = input;
  if (players.length < 2 || players.length > 5) throw new Error('훌라는 2~5명이 할 수 있어요');
  const n = players.length;
  const rng = Rng.fromSeed(seed, 'hula');
  const first = rng.int(n);
  const base: HulaState = {
    game: 'hula',
    rulesVersion: setupVersion(input.rulesVersion, RULES_VERSION),
    seq: 0,
    seedCommit: seedCommitment(seed),
    seed,
    rng: rng.state(),
    players: players.map((p) => ({ id: p.id, name: p.name })),
    options,
    seats: players.map((p) => ({ id: p.id, status: 'playing', points: 0, timeoutsInRow: 0, leave: null, wins: 0 })),
    round: 0,
    inRound: players.map(() => true),
    hands: players.map(() => []),
    registered: players.map(() => false),
    hadTurn: players.map(() => false),
    stock: [],
    stockTop: 0,
    discard: [],
    melds: [],
    nextMeldId: 1,
    phase: { kind: 'finished' },
    turnStartedAt: now,
    bonus: { owner: null, multiplier: 1, streak: 0 },
    feeTotal: 0,
    lastRound: null,
    history: [],
  };
  return deal(base, first, now).state;
}

/**
 * Starts the next round: seats with a leave reservation stand up first; with
 * fewer than two left the game is over. The last winner leads (§7 choice 1).
 */
export function startRound(s: HulaState, now: number): { state: HulaState; events: HulaEvent[] } {
  const events: HulaEvent[] = [];
  let seats = s.seats;
  if (seats.some((x) => x.status === 'playing' && x.leave)) {
    seats = seats.map((x) => {
      if (x.status !== 'playing' || !x.leave) return x;
      events.push({ type: 'left', player: x.id, reason: x.leave });
      return { ...x, status: 'left' as const, leave: null };
    });
  }
  const active = seats.filter((x) => x.status === 'playing').length;
  if (active < 2) {
    events.push({ type: 'gameEnd', reason: 'players' });
    return { state: { ...s, seats, phase: { kind: 'finished' } }, events };
  }
  const lastWinner = s.lastRound ? seats.findIndex((x) => x.id === s.lastRound!.winner) : 0;
  const first =
    seats[lastWinner].status === 'playing'
      ? lastWinner
      : nextInRing({ seats, isIn: (seat) => seat.status === 'playing' }, lastWinner);
  const r = deal({ ...s, seats }, first, now);
  return { state: r.state, events: [...events, ...r.events] };
}

function deal(s: HulaState, first: number, now: number): { state: HulaState; events: HulaEvent[] } {
  const n = s.seats.length;
  const rng = Rng.fromState(s.rng);
  const deck = rng.shuffle([...DECKS[s.options.mode]]);
  const inRound = s.seats.map((x) => x.status === 'playing');
  const hands: Card[][] = s.seats.map(() => []);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const seat = (first + i) % n;
    if (!inRound[seat]) continue;
    hands[seat] = deck.slice(k, k + HAND_SIZE);
    k += HAND_SIZE;
  }
  // §4: the face-up start card is never a joker; jokers met on the way go to the bottom of the stock.
  const rest = deck.slice(k);
  const skipped: Card[] = [];
  while (rest[0].suit === 'X') skipped.push(rest.shift()!);
  const start = rest.shift()!;
  const stock = [...rest, ...skipped];
  const hadTurn = s.seats.map(() => false);
  hadTurn[first] = true;
  const round = s.round + 1;
  const state: HulaState = {
    ...s,
    rng: rng.state(),
    round,
    inRound,
    hands,
    registered: s.seats.map(() => false),
    hadTurn,
    stock,
    stockTop: 0,
    discard: [start],
    melds: [],
    nextMeldId: 1,
    phase: { kind: 'draw', seat: first, deadline: now + TIMERS[s.options.mode].drawMs },
    turnStartedAt: now,
    lastRound: null,
  };
  const events: HulaEvent[] = [
    {
      type: 'roundStart',
      round,
      first: s.seats[first].id,
      players: s.seats.filter((_, i) => inRound[i]).map((x) => x.id),
      startCard: start,
      stockCount: stock.length,
    },
  ];
  return { state, events };
}
