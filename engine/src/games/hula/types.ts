/**
 * Shapes of the 훌라 engine (docs/games/hula.md §8.1). Everything is plain
 * JSON so a room can be snapshotted and resumed anywhere; cards are shared
 * immutable objects, so copying a hand copies references only.
 */
import type { GameStateBase, GameViewBase, PlayerId } from '../../core/types.ts';
import type { Suit } from '../../core/cards.ts';
import type { BotLevel } from '../../core/options.ts';

export type HulaMode = 'monster' | 'joker';

/** A natural card has suit S/H/D/C and rank 1..13 (A=1, J=11, Q=12, K=13); a joker has suit 'X' and rank 0. */
export interface Card {
  id: string;
  suit: Suit | 'X';
  rank: number;
}

export type MeldKind = 'set' | 'run' | 'seven';

/**
 * A registered group on the table. `seven` is a lone 7; once something is
 * laid off on it, it becomes a `set` of 7s or a `run` through that 7.
 * For a run, `cards` are in position order from `start` (cyclic, K→A→2).
 */
export interface Meld {
  id: number;
  owner: PlayerId;
  kind: MeldKind;
  cards: Card[];
  /** Set/seven: the rank. Run: the rank of the first position. */
  rank: number;
  /** Run/seven: the suit. Set: null. */
  suit: Suit | null;
}

export interface HulaOptions {
  /** 봇 난이도 (core/options.ts); absent in options written before it existed = 보통. */
  botLevel?: BotLevel;
  mode: HulaMode;
  rounds: number;
  baseUnit: number;
  feeNormal: number;
  feeSpecial: number;
  bonus: boolean;
}

export type LeaveReason = 'timeouts' | 'disconnected' | 'requested';

/** Room-level facts about one seat; survive from round to round. */
export interface SeatState {
  id: PlayerId;
  status: 'playing' | 'left';
  /** In-room points, starting at 0 (never money, never leaves the room). */
  points: number;
  /** Own-turn deadlines missed in a row without a direct action in between (§8.5). */
  timeoutsInRow: number;
  leave: LeaveReason | null;
  wins: number;
}

export interface RaceClaim {
  seat: number;
  cardIds: string[];
  at: number;
}

export type Phase =
  /** Before drawing: draw, stop or special win. */
  | { kind: 'draw'; seat: number; deadline: number }
  /** After drawing (or after a 땡큐): meld, lay off, special win (only if unregistered), discard. */
  | { kind: 'act'; seat: number; deadline: number; via: 'stock' | 'discard' | 'thankYou'; thankYouFrom: number | null }
  /** 괴물 모드: each other player in turn is asked, 5 s each. */
  | { kind: 'thankYouAsk'; discarder: number; order: number[]; index: number; deadline: number }
  /** 조커 모드: first-come race over 7 s, with a 100 ms window after the first claim. */
  | {
      kind: 'thankYouRace';
      discarder: number;
      deadline: number;
      claims: RaceClaim[];
      windowEnd: number | null;
      passed: number[];
    }
  | { kind: 'roundEnd'; deadline: number; ready: number[] }
  | { kind: 'finished' };

export type WinType = 'hula' | 'stop' | 'exhaustion' | 'special';
export type SpecialKind = 'daeka' | 'soka' | 'sevens';
export type BakCode = 'hulaWin' | 'specialWin' | 'seven' | 'unregistered' | 'fullHand' | 'thankYou' | 'joker' | 'bonus';

export interface Multiplier {
  code: BakCode;
  factor: number;
}

export interface SettlementLine {
  player: PlayerId;
  /** Revealed at the end of the round. */
  hand: Card[];
  /** Hand points as counted for this ending (a 7 counts 14 at a stop). */
  score: number;
  rank: number;
  /** Table amount for the rank before multipliers (0 for the winner). */
  base: number;
  multipliers: Multiplier[];
  /** What this loser's settlement comes to (base × multipliers); the failed stopper pays 1.5× the sum instead. */
  due: number;
  /** Points actually moved for this player this round (negative = paid). */
  delta: number;
}

export interface RoundSummary {
  round: number;
  winner: PlayerId;
  winType: WinType;
  special: SpecialKind | null;
  byThankYou: boolean;
  thankYouFrom: PlayerId | null;
  stopper: PlayerId | null;
  stopFailed: boolean;
  /** 배판 multiplier applied to this round (1 when the winner was not the owner). */
  bonusApplied: number;
  lines: SettlementLine[];
  gross: number;
  fee: number;
  feeRate: number;
}

/** What stays public about a past round once the next one is dealt (no card faces). */
export interface RoundBrief {
  round: number;
  winner: PlayerId;
  winType: WinType;
  special: SpecialKind | null;
  deltas: Record<PlayerId, number>;
  fee: number;
}

export interface BonusState {
  owner: PlayerId | null;
  /** Multiplier the owner's next win is settled at (1..5). */
  multiplier: number;
  streak: number;
}

export interface HulaState extends GameStateBase {
  rulesVersion: number;
  game: 'hula';
  options: HulaOptions;
  seats: SeatState[];
  round: number;
  /** Seats dealt into the current round. */
  inRound: boolean[];
  hands: Card[][];
  registered: boolean[];
  hadTurn: boolean[];
  /** Shuffled once per round and never mutated; cards from `stockTop` on are still in the stock. */
  stock: Card[];
  stockTop: number;
  /** Face-up pile; the last card is on top. */
  discard: Card[];
  melds: Meld[];
  nextMeldId: number;
  phase: Phase;
  /** Base of the 60 s watchdog and of the AI substitute's 5 s delay (§8.5). */
  turnStartedAt: number;
  bonus: BonusState;
  feeTotal: number;
  /** The settlement of the round just ended; cleared when the next round is dealt. */
  lastRound: RoundSummary | null;
  history: RoundBrief[];
}

/** Inferred from its zod schema (actions.ts), which apply() parses with. */
export type { HulaAction } from './actions.ts';

export interface SeatView {
  id: PlayerId;
  name: string;
  status: 'playing' | 'left';
  inRound: boolean;
  handCount: number;
  registered: boolean;
  points: number;
  leaveReserved: boolean;
  timeoutsInRow: number;
  wins: number;
}

export type PhaseView =
  | { kind: 'draw'; player: PlayerId }
  | { kind: 'act'; player: PlayerId; via: 'stock' | 'discard' | 'thankYou' }
  | { kind: 'thankYouAsk'; discarder: PlayerId; asked: PlayerId; order: PlayerId[] }
  | { kind: 'thankYouRace'; discarder: PlayerId; claimants: PlayerId[]; passed: PlayerId[] }
  | { kind: 'roundEnd'; ready: PlayerId[] }
  | { kind: 'finished' };

export interface MyLegal {
  canDraw: boolean;
  canDrawDiscard: boolean;
  canStop: boolean;
  /** Hand points with a 7 as 14 and a joker as 20, as the stop threshold counts them. */
  stopScore: number;
  stopLimit: number | null;
  special: SpecialKind | null;
  canThankYou: boolean;
  /** Suggested hand cards for a 땡큐 (one valid choice), when `canThankYou`. */
  thankYouCardIds: string[] | null;
  /** 1 card left after registering: the UI lights the discard button on it. */
  discardPrompt: string | null;
  mustAct: boolean;
}

/** The members of a view that depend on the viewer (view.ts `ownView`); `sharedView` builds the rest once per state. */
export type HulaOwnKey = 'viewer' | 'hand' | 'me';
export type HulaOwnView = Pick<HulaView, HulaOwnKey>;
/**
 * The members no transition of one game changes (view.ts `fixedView`): sent once per viewer, not
 * per frame. Not `seats` (status, points and leaving change).
 */
export type HulaFixedKey =
  'game' | 'rulesVersion' | 'seedCommit' | 'players' | 'mode' | 'options' | 'roundsTotal' | 'graceMs';
export type HulaFixedView = Pick<HulaView, HulaFixedKey>;
export type HulaSharedView = Omit<HulaView, HulaOwnKey | HulaFixedKey>;

export interface HulaView extends GameViewBase {
  rulesVersion: number;
  game: 'hula';
  mode: HulaMode;
  options: HulaOptions;
  round: number;
  roundsTotal: number;
  phase: PhaseView;
  current: PlayerId | null;
  seats: SeatView[];
  stockCount: number;
  discardTop: Card | null;
  discardCount: number;
  melds: Meld[];
  /** The viewer's own hand; null for spectators and players not in the round. */
  hand: Card[] | null;
  me: MyLegal | null;
  bonus: BonusState;
  feeTotal: number;
  graceMs: number;
  lastRound: RoundSummary | null;
  history: RoundBrief[];
}
