/**
 * State, action and view shapes of 포커, named as the spec's §8.1 names them.
 * Everything is plain JSON so a room can be snapshotted and resumed anywhere.
 */
import type { GameStateBase, GameViewBase, PlayerId } from '../../core/types.ts';
import type { Suit } from '../../core/cards.ts';
import type { RngState } from '../../core/rng.ts';
import type { Betting, PokerMode, PokerOptions } from './options.ts';

export type { PokerOptions };

/** 2..14 with 14 = A; 1 is the ace of the indian d20 deck (the lowest card there). */
export type Rank = number;

/** id = (rank - 2) * 4 + suit index (♣0 ♥1 ◆2 ♠3) for the 52-card deck; (rank - 1) * 2 + (♠ ? 1 : 0) for d20. */
export interface Card {
  id: number;
  rank: Rank;
  suit: Suit;
}

/** Declared with the option table that lists them (options.ts), which must not import this file back. */
export type { Betting, PokerMode };
export type DeclareSide = 'high' | 'low' | 'swing';

export interface SeatState {
  id: PlayerId;
  seat: number;
  stack: number;
  rebuys: number;
  status: 'playing' | 'busted' | 'eliminated' | 'left';
  away: boolean;
  timeoutsInRow: number;
  eliminatedAtHand: number | null;
  stackAtHandStart: number;
}

export interface HandPlayer {
  id: PlayerId;
  folded: boolean;
  allIn: boolean;
  hole: Card[];
  up: Card[];
  forehead: Card | null;
  choice: Card[] | null;
  choiceDone: boolean;
  /** The 7-poker choice as submitted, applied when everyone has chosen. Never shown to others. */
  chosen: { discardId: number; openId: number } | null;
  /** Own 7-poker discard, shown only to its owner. */
  discarded: Card | null;
  committedTotal: number;
  committedRound: number;
  actedThisRound: boolean;
  raisedThisRound: boolean;
  lockedFromRaise: boolean;
  drawPending: number[] | null;
  drawCounts: number[];
  declare: DeclareSide | null;
  ready: boolean;
  /** Public: last betting action this hand, for the table UI. */
  lastAction: string | null;
}

export interface Pot {
  amount: number;
  eligible: PlayerId[];
}

export interface BettingRound {
  street: number;
  order: PlayerId[];
  toAct: PlayerId | null;
  currentBet: number;
  lastRaiseSize: number;
  opened: boolean;
}

export interface ShowdownEntry {
  id: PlayerId;
  cards: Card[];
  best: Card[];
  handName: string;
  /** Hi-lo: the name of the low ("7 로우", "로우 없음"). */
  lowName?: string;
  /** Hi-lo: the five cards that made the low (absent when there is no qualifying low). */
  low?: Card[];
  declare?: DeclareSide;
}

/** One pot as it was settled at the end of a hand (§5.5, §6.6): what was in it, who could win it, who did. */
export interface PotResult {
  /** Chips in the pot (the main pot includes a carried-in pot). */
  amount: number;
  /** Players who could win it: still in the hand and reached its level. */
  eligible: PlayerId[];
  /** Who took how much of it (hi-lo: which side); empty when the pot is carried to the next hand. */
  winners: { player: PlayerId; amount: number; side?: 'high' | 'low' | 'scoop' }[];
  /** Indian tie: the pot went on to the next hand. */
  carried: boolean;
}

export interface Award {
  potIndex: number;
  to: PlayerId;
  amount: number;
  side?: 'high' | 'low' | 'scoop';
  /** 'penalty' for the indian fold penalty, 'carry' for chips carried in from a tied hand. */
  kind?: 'pot' | 'penalty' | 'return';
}

export type HandPhase = 'choice' | 'betting' | 'draw' | 'declare' | 'showdown' | 'handEnd';

export interface HandState {
  handNo: number;
  phase: HandPhase;
  /** Index into the mode's script (flow.ts). */
  step: number;
  street: number;
  dealerSeat: number;
  sbSeat: number | null;
  bbSeat: number | null;
  /** 7-poker: the player with the best open cards this round. */
  boss: PlayerId | null;
  deck: Card[];
  muck: Card[];
  board: Card[];
  players: Record<PlayerId, HandPlayer>;
  seatOrder: PlayerId[];
  betting: BettingRound | null;
  pots: Pot[];
  penalties: { from: PlayerId; amount: number }[];
  showdown: ShowdownEntry[] | null;
  awards: Award[] | null;
  /** Set at the hand end: every pot with its amount, eligible players and winners. */
  potResults: PotResult[] | null;
  deadlineAt: number | null;
  /** SHA-256 of this hand's seed, public from the first deal. */
  seedCommit: string;
  /** The hand seed, set once it can be revealed (hand end, or when its indian deck is retired). */
  seedRevealed: string | null;
  /** Secret RNG of this hand (reshuffles in the middle of a hand). Never in a view. */
  rng: RngState;
  /** True when this hand's seed shuffled the persistent indian deck (its reveal waits for that deck to be used up). */
  shuffledIndianDeck: boolean;
}

export interface PublicLogEntry {
  hand: number;
  player: PlayerId | null;
  text: string;
  amount?: number;
}

export interface PokerStats {
  biggestPot: { handNo: number; amount: number; winners: PlayerId[] };
  bestHand: { playerId: PlayerId; handName: string; handNo: number; score: number } | null;
}

export interface PokerState extends GameStateBase {
  rulesVersion: number;
  game: 'poker';
  options: PokerOptions;
  betting: Betting;
  seats: SeatState[];
  baseUnit: number;
  hand: HandState | null;
  handsPlayed: number;
  carryOver: number;
  /** Players who tied for the carried pot: if the game ends before anyone wins it, they split it. */
  carryFrom: PlayerId[];
  indianDeck: Card[] | null;
  indianUsed: Card[];
  /** Hand whose seed shuffled the current indian deck (revealed when that deck is retired). */
  indianDeckHand: number | null;
  retiredDeckSeed: { handNo: number; seed: string } | null;
  phase: 'playing' | 'rebuy' | 'finished';
  rebuyPending: PlayerId[];
  rebuyDeadlineAt: number | null;
  lastWinner: PlayerId | null;
  eliminationSeq: PlayerId[][];
  publicLog: PublicLogEntry[];
  stats: PokerStats;
  /** Why the game ended (for the summary). */
  endReason: 'hands' | 'lastStanding' | 'safetyCap' | 'left' | null;
}

/** Inferred from its zod schema (actions.ts), which apply() parses with. */
export type { PokerAction } from './actions.ts';

export type HiddenCard = { hidden: true };
export type CardSlot = Card | HiddenCard;

export type LegalAction =
  | {
      type: 'k.check' | 'k.ping' | 'k.call' | 'k.ddadang' | 'k.quarter' | 'k.half' | 'k.full' | 'k.die';
      amount: number;
      allIn: boolean;
    }
  | { type: 'nl.fold' | 'nl.check' | 'nl.call'; amount: number; allIn: boolean }
  | { type: 'nl.raise'; min: number; max: number; bet: boolean }
  | { type: 'nl.allIn'; amount: number; to: number }
  | { type: 'choose' }
  | { type: 'draw'; max: number; maxWithAce: number | null }
  | { type: 'declare' }
  | { type: 'ready' }
  | { type: 'rebuy' };

export interface HandPlayerView {
  id: PlayerId;
  seat: number;
  folded: boolean;
  allIn: boolean;
  hole: CardSlot[];
  up: Card[];
  /** Null for its owner and spectators until the hand ends (§8.3), and when no forehead is dealt. */
  forehead: Card | null;
  /** Own 4 choice cards, or hidden slots for others. */
  choice: CardSlot[] | null;
  choiceDone: boolean;
  discarded: Card | null;
  committedRound: number;
  committedTotal: number;
  drawCounts: number[];
  drawDone: boolean;
  declare: DeclareSide | null;
  declared: boolean;
  ready: boolean;
  lastAction: string | null;
  /** Has acted in this betting round (a check, call, bet or raise). */
  actedThisRound: boolean;
  /**
   * May not raise again this round unless a full raise reopens it
   * (Korean: after any check/call/raise, §5.2; NL/PL: after acting, clarification 9).
   */
  lockedFromRaise: boolean;
}

/** The betting round as every player at the table may know it (§5.2, §5.3). */
export interface BettingView {
  street: number;
  /** Acting order of this round: every player still in the hand, first actor first. */
  order: PlayerId[];
  toAct: PlayerId | null;
  currentBet: number;
  /** The last full raise (NL/PL minimum raise increment); baseUnit at the start of a round. */
  lastRaiseSize: number;
  /** Someone has put chips in this round (삥, bet, raise, or the blinds). */
  opened: boolean;
}

export interface HandView {
  handNo: number;
  phase: HandPhase;
  street: number;
  dealerSeat: number;
  sbSeat: number | null;
  bbSeat: number | null;
  boss: PlayerId | null;
  board: Card[];
  players: HandPlayerView[];
  pots: Pot[];
  penalties: { from: PlayerId; amount: number }[];
  currentBet: number;
  toAct: PlayerId | null;
  /** The open betting round, or null between rounds. */
  betting: BettingView | null;
  deckCount: number;
  showdown: ShowdownEntry[] | null;
  awards: Award[] | null;
  /** At the hand end: each pot with its amount, eligible players and winners. */
  potResults: PotResult[] | null;
  seedCommit: string;
  seed: string | null;
}

export interface SeatView {
  id: PlayerId;
  name: string;
  seat: number;
  stack: number;
  rebuys: number;
  status: SeatState['status'];
  away: boolean;
}

/**
 * The members of a view that depend on the viewer (view.ts `ownView`); `sharedView` builds the rest
 * once per state. `hand` is one of them whole: its players' cards are seen per viewer.
 */
export type PokerOwnKey = 'viewer' | 'hand' | 'legalActions' | 'myHand';
export type PokerOwnView = Pick<PokerView, PokerOwnKey>;
/**
 * The members no transition of one game changes (view.ts `fixedView`): sent once per viewer, not
 * per frame. Not `seats` (stacks move) nor `baseUnit` (blinds go up).
 */
export type PokerFixedKey = 'game' | 'rulesVersion' | 'seedCommit' | 'players' | 'mode' | 'betting' | 'options';
export type PokerFixedView = Pick<PokerView, PokerFixedKey>;
export type PokerSharedView = Omit<PokerView, PokerOwnKey | PokerFixedKey>;

export interface PokerView extends GameViewBase {
  rulesVersion: number;
  game: 'poker';
  mode: PokerMode;
  betting: Betting;
  options: PokerOptions;
  phase: 'playing' | 'rebuy' | 'finished';
  baseUnit: number;
  handsPlayed: number;
  seats: SeatView[];
  hand: HandView | null;
  carryOver: number;
  indianUsed: Card[];
  retiredDeckSeed: { handNo: number; seed: string } | null;
  rebuyPending: PlayerId[];
  legalActions: LegalAction[];
  /** `hints`: the name of the viewer's current hand ("지금: 투페어"). */
  myHand: { name: string; low?: string } | null;
  log: PublicLogEntry[];
}
