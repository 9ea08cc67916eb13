/**
 * §4 setup: shuffle, pick the first player, deal, flip the start card.
 * The RNG is used in the order the spec lists (shuffle, then first player),
 * so a record replays to the same deal.
 */
import { setupVersion } from '../../core/versions.ts';
import { RULES_VERSION } from './version.ts';
import { Rng, seedCommitment, type PlayerId, type SetupInput } from '../../core/index.ts';
import { classicDeck, isClassicSpecial, unoDeck } from './cards.ts';
import { resolveDecks } from './options.ts';
import type { Card, OneCardOptions, OneCardState } from './types.ts';
import { activeAfter, drawCards, Tx } from './turns.ts';

export function setup(input: SetupInput<OneCardOptions>): OneCardState {
  const { seed, players, options, now } = input;
  const seats: PlayerId[] = players.map((p) => p.id);
  const rng = Rng.fromSeed(seed);
  const decks = resolveDecks(options, seats.length);
  const pile: Card[] = options.mode === 'classic' ? classicDeck(decks) : unoDeck();
  rng.shuffle(pile);
  const first = seats[rng.int(seats.length)];

  const hands: Record<PlayerId, Card[]> = {};
  const status: OneCardState['status'] = {};
  const timeoutsInRow: Record<PlayerId, number> = {};
  for (const p of seats) {
    hands[p] = [];
    status[p] = 'playing';
    timeoutsInRow[p] = 0;
  }
  // Deal one card at a time, starting with the first player, as at a real table.
  let top = 0;
  const firstIdx = seats.indexOf(first);
  for (let round = 0; round < options.handSize; round++)
    for (let i = 0; i < seats.length; i++) hands[seats[(firstIdx + i) % seats.length]].push(pile[top++]);
  const drawPile = pile.slice(top);

  const state: OneCardState = {
    game: 'one-card',
    rulesVersion: setupVersion(input.rulesVersion, RULES_VERSION),
    seq: 0,
    seedCommit: seedCommitment(seed),
    seed,
    rng: [],
    players: players.map((p) => ({ id: p.id, name: p.name })),
    mode: options.mode,
    options,
    decks,
    seats,
    hands,
    drawPile,
    discard: [],
    declaredSuit: null,
    declaredColor: null,
    direction: 1,
    current: first,
    phase: { kind: 'turn' },
    pendingAttack: 0,
    extraTurn: false,
    oneCardWindow: null,
    status,
    finishOrder: [],
    bankruptOrder: [],
    turnStartedAt: now,
    timeoutsInRow,
    lastReveal: null,
  };
  if (options.mode === 'uno-style') {
    const scores: Record<PlayerId, number> = {};
    for (const p of seats) scores[p] = options.carryScores?.[p] ?? 0;
    state.scores = scores;
  }

  if (options.mode === 'classic') {
    state.discard = [flipClassicStart(drawPile)];
    state.drawPile = drawPile;
    state.rng = rng.state();
    return state;
  }
  // §4: a +4 goes back into the pile, which is reshuffled, until another card turns up.
  while (drawPile[0].kind === 'wild4') rng.shuffle(drawPile);
  const start = drawPile[0];
  state.drawPile = drawPile.slice(1);
  state.discard = [start];
  state.rng = rng.state();
  return applyUnoStart(state, start);
}

/**
 * §4 classic: special cards (2, A, 3, 7, J, Q, K, jokers — §10 lists the 3
 * too) go to the bottom without the RNG until a plain 4–6 or 8–10 turns up.
 * If none is left after dealing (possible only with very full tables), the
 * first non-joker card is used as a plain reference card: a start card
 * never carries an effect in classic.
 */
function flipClassicStart(pile: Card[]): Card {
  for (let i = 0; i < pile.length; i++) {
    if (!isClassicSpecial(pile[0])) return pile.shift()!;
    pile.push(pile.shift()!);
  }
  const idx = pile.findIndex((c) => c.kind !== 'joker');
  return pile.splice(idx, 1)[0];
}

/** §4 uno-style start card effects (clarification 7 for the wild). */
function applyUnoStart(state: OneCardState, start: Card): OneCardState {
  const first = state.current;
  const tx = new Tx(state, state.turnStartedAt, true);
  switch (start.kind) {
    case 'wild':
      state.phase = { kind: 'chooseColor' };
      break;
    case 'draw2':
      drawCards(tx, first, 2, 'start');
      state.current = activeAfter(state, first, 0);
      break;
    case 'skip':
      state.current = activeAfter(state, first, 0);
      break;
    case 'reverse':
      state.direction = -1;
      state.current = activeAfter(state, first, 0);
      break;
  }
  return tx.done(false);
}
