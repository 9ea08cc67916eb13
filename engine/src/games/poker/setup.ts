/**
 * Setup (§4) and the start of every hand (§5.1): seats shuffled, first dealer
 * drawn, then per hand a seed derived from the game seed so each hand's
 * shuffle can be checked on its own once the hand is over.
 */
import { setupVersion } from '../../core/versions.ts';
import { RULES_VERSION } from './version.ts';
import type { PlayerId, SetupInput } from '../../core/types.ts';
import { deriveSeed, seedCommitment } from '../../core/commit.ts';
import { Rng } from '../../core/rng.ts';
import { Owned } from '../../core/cow.ts';
import { type Ctx, log, P, pay, S } from './draft.ts';
import { deck52 } from './cards.ts';
import { computePots } from './pots.ts';
import { advance } from './flow.ts';
import { collectIndianCards, dealForeheads, prepareIndianDeck } from './flow-indian.ts';
import { playerCountProblem, resolveBetting, usesBlinds, type PokerOptions } from './options.ts';
import type { Card, HandPlayer, HandState, PokerState, SeatState } from './types.ts';

export function setup(input: SetupInput<PokerOptions>): PokerState {
  const { seed, players, options, now } = input;
  const problem = playerCountProblem(options, players.length);
  if (problem) throw new Error(problem);
  const rng = Rng.fromSeed(seed);
  const order = rng.shuffle(players.map((p) => p.id));
  const seats: SeatState[] = order.map((id, seat) => ({
    id,
    seat,
    stack: options.startingChips,
    rebuys: 0,
    status: 'playing',
    away: false,
    timeoutsInRow: 0,
    eliminatedAtHand: null,
    stackAtHandStart: options.startingChips,
  }));
  const firstDealer = rng.int(seats.length);
  const state: PokerState = {
    game: 'poker',
    rulesVersion: setupVersion(input.rulesVersion, RULES_VERSION),
    seq: 0,
    seedCommit: seedCommitment(seed),
    seed,
    rng: rng.state(),
    players,
    options,
    betting: resolveBetting(options),
    seats,
    baseUnit: options.baseUnit,
    hand: null,
    handsPlayed: 0,
    carryOver: 0,
    carryFrom: [],
    indianDeck: null,
    indianUsed: [],
    indianDeckHand: null,
    retiredDeckSeed: null,
    phase: 'playing',
    rebuyPending: [],
    rebuyDeadlineAt: null,
    lastWinner: null,
    eliminationSeq: [],
    publicLog: [],
    stats: { biggestPot: { handNo: 0, amount: 0, winners: [] }, bestHand: null },
    endReason: null,
  };
  const owned = new Owned();
  for (const seat of state.seats) owned.adopt(seat);
  const ctx: Ctx = { s: state, now, ev: [], owned };
  startHand(ctx, firstDealer);
  return ctx.s;
}

function isParticipant(seat: SeatState): boolean {
  return seat.stack > 0 && (seat.status === 'playing' || seat.status === 'left');
}

/** §5.1.2: the first hand uses setup's dealer; then rotate, or the last winner with `dealerRule = winner`. */
function nextDealer(s: PokerState): number {
  const n = s.seats.length;
  if (s.options.dealerRule === 'winner' && s.lastWinner) {
    const w = s.seats.find((x) => x.id === s.lastWinner);
    if (w && isParticipant(w)) return w.seat;
  }
  const prev = s.hand!.dealerSeat;
  for (let k = 1; k <= n; k++) {
    const seat = s.seats[(prev + k) % n];
    if (isParticipant(seat)) return seat.seat;
  }
  return prev;
}

function newHandPlayer(id: PlayerId): HandPlayer {
  return {
    id,
    folded: false,
    allIn: false,
    hole: [],
    up: [],
    forehead: null,
    choice: null,
    choiceDone: false,
    chosen: null,
    discarded: null,
    committedTotal: 0,
    committedRound: 0,
    actedThisRound: false,
    raisedThisRound: false,
    lockedFromRaise: false,
    drawPending: null,
    drawCounts: [],
    declare: null,
    ready: false,
    lastAction: null,
  };
}

export function startHand(ctx: Ctx, dealerSeat?: number): void {
  const s = ctx.s;
  const o = s.options;
  collectIndianCards(s);
  const handNo = s.handsPlayed + 1;
  const dealer = dealerSeat ?? nextDealer(s);
  const n = s.seats.length;
  const seatOrder: PlayerId[] = [];
  for (let k = 1; k <= n; k++) {
    const seat = s.seats[(dealer + k) % n];
    if (isParticipant(seat)) seatOrder.push(seat.id);
  }
  for (const seat of s.seats) if (seat.stackAtHandStart !== seat.stack) S(ctx, seat.id).stackAtHandStart = seat.stack;
  const handSeed = deriveSeed(s.seed, `hand:${handNo}`);
  const rng = Rng.fromSeed(handSeed);
  const players: Record<PlayerId, HandPlayer> = {};
  for (const id of seatOrder) {
    players[id] = newHandPlayer(id);
    ctx.owned.adopt(players[id]);
  }
  const h: HandState = {
    handNo,
    phase: 'betting',
    step: -1,
    street: 0,
    dealerSeat: dealer,
    sbSeat: null,
    bbSeat: null,
    boss: null,
    deck: o.mode === 'indian' ? [] : rng.shuffle(deck52()),
    muck: [],
    board: [],
    players,
    seatOrder,
    betting: null,
    pots: [],
    penalties: [],
    showdown: null,
    awards: null,
    potResults: null,
    deadlineAt: null,
    seedCommit: seedCommitment(handSeed),
    seedRevealed: null,
    rng: [],
    shuffledIndianDeck: false,
  };
  s.hand = h;
  ctx.ev.push({ type: 'handStart', handNo, dealerSeat: dealer, seedCommit: h.seedCommit, baseUnit: s.baseUnit });
  log(ctx, { player: s.seats[dealer].id, text: `${handNo}번째 판 시작(선)` });
  postForcedBets(ctx);
  // §5.8: a player who left keeps their chips but folds right after the forced bets.
  for (const id of seatOrder) {
    if (s.seats.find((x) => x.id === id)!.status === 'left') {
      players[id].folded = true;
      players[id].lastAction = '다이';
    }
  }
  if (o.mode === 'indian') prepareIndianDeck(ctx, rng, seatOrder.filter((id) => !players[id].folded).length);
  h.rng = rng.state();
  dealStart(ctx);
  advance(ctx);
}

function postForcedBets(ctx: Ctx): void {
  const s = ctx.s;
  const h = s.hand!;
  if (usesBlinds(s.options.mode)) {
    const ids = h.seatOrder;
    // Heads-up the dealer posts the small blind (§5.1.4).
    const sbId = ids.length === 2 ? ids[1] : ids[0];
    const bbId = ids.length === 2 ? ids[0] : ids[1];
    const sb = Math.max(1, Math.floor(s.baseUnit / 2));
    const paidSb = pay(ctx, sbId, sb);
    const paidBb = pay(ctx, bbId, s.baseUnit);
    h.sbSeat = s.seats.find((x) => x.id === sbId)!.seat;
    h.bbSeat = s.seats.find((x) => x.id === bbId)!.seat;
    P(ctx, sbId).lastAction = 'SB';
    P(ctx, bbId).lastAction = 'BB';
    ctx.ev.push({ type: 'forced', player: sbId, amount: paidSb, kind: 'sb' });
    ctx.ev.push({ type: 'forced', player: bbId, amount: paidBb, kind: 'bb' });
  } else {
    // Antes go straight to the pot, not into this round's bets (§5.1.4).
    for (const id of h.seatOrder) {
      const paid = pay(ctx, id, s.baseUnit, false);
      ctx.ev.push({ type: 'forced', player: id, amount: paid, kind: 'ante' });
    }
  }
  h.pots = computePots(h);
}

/** Opening deal, one card at a time from the dealer's next seat. */
function dealStart(ctx: Ctx): void {
  const s = ctx.s;
  const h = s.hand!;
  const ids = h.seatOrder.filter((id) => !h.players[id].folded);
  if (s.options.mode === 'indian') return dealForeheads(ctx);
  const per = { holdem: 2, omaha: 4, sevenPoker: 4, sevenHiLo: 4, badugi: 4, fiveDraw: 5 }[s.options.mode];
  const got: Record<PlayerId, Card[]> = {};
  for (const id of ids) got[id] = [];
  let at = 0;
  for (let k = 0; k < per; k++) for (const id of ids) got[id].push(h.deck[at++]);
  h.deck = h.deck.slice(at);
  const seven = s.options.mode === 'sevenPoker' || s.options.mode === 'sevenHiLo';
  for (const id of ids) {
    if (seven) h.players[id].choice = got[id];
    else h.players[id].hole = got[id];
    ctx.ev.push({ type: 'dealt', to: id, count: per });
  }
}
