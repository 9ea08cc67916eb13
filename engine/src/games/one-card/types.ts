/**
 * State, view and action shapes of 원카드, named as the spec (§8.1–§8.3) names them.
 * Everything here is plain JSON so a room can be snapshotted and resumed anywhere.
 */
import type { GameStateBase, GameViewBase, PlayerId, Suit } from '../../core/index.ts';
import type { BotLevel } from '../../core/options.ts';

export type { Suit };
export type Color = 'R' | 'Y' | 'G' | 'B';
export type Mode = 'classic' | 'uno-style';

export type ClassicCard =
  | { id: string; kind: 'std'; suit: Suit; rank: number } // 1=A, 11=J, 12=Q, 13=K
  | { id: string; kind: 'joker'; joker: 'black' | 'color' };
export type UnoCard =
  | { id: string; kind: 'num'; color: Color; value: number }
  | { id: string; kind: 'skip' | 'reverse' | 'draw2'; color: Color }
  | { id: string; kind: 'wild' | 'wild4' };
export type Card = ClassicCard | UnoCard;

export interface OneCardOptions {
  /** 봇 난이도 (core/options.ts); absent in options written before it existed = 보통. */
  botLevel?: BotLevel;
  mode: Mode;
  handSize: 5 | 6 | 7;
  deckCount: 'auto' | 1 | 2;
  attack2: number;
  attackA: number;
  attackSpadeA: number;
  attackBlackJoker: number;
  attackColorJoker: number;
  threeDefense: 'off' | 'same-suit';
  kEffect: 'extra-turn' | 'skip-two' | 'none';
  qInTwoPlayer: 'no-effect' | 'as-skip';
  lastCardRule: 'none' | 'joker' | 'attack' | 'special';
  afterJoker: 'previous' | 'any';
  multiPlay: boolean;
  oneCardPenalty: number;
  autoDeclare: boolean;
  bankruptLimit: 15 | 18 | 20 | 25 | null;
  voluntaryDraw: boolean;
  playAfterDraw: boolean;
  endCondition: 'first-out' | 'last-standing';
  turnSeconds: 10 | 15 | 20 | 30 | 60;
  unoStacking: boolean;
  unoWild4Rule: 'strict' | 'challenge' | 'free';
  unoTargetScore: 200 | 500 | null;
  /** Scores carried from earlier rounds of a uno-style match (room level, §8.6). Not a form field. */
  carryScores?: Record<PlayerId, number>;
}

export type Phase =
  | { kind: 'turn' }
  | { kind: 'afterDraw'; drawnCardId: string }
  /** Clarification 7: a wild start card lets the first player pick the colour before anything else. */
  | { kind: 'chooseColor' }
  | {
      kind: 'wild4Response';
      by: PlayerId;
      target: PlayerId;
      prevColor: Color;
      /** Judged when the +4 was played, from the hand as it then stood (server-only). */
      illegal: boolean;
      /** How many cards the player held right after the +4: those are what a challenge reveals. */
      handAtPlay: number;
    }
  | { kind: 'finished' };

export type PlayerStatus = 'playing' | 'out' | 'bankrupt';

export interface OneCardWindow {
  player: PlayerId;
  declared: boolean;
  openedSeq: number;
}

export interface OneCardState extends GameStateBase {
  rulesVersion: number;
  game: 'one-card';
  mode: Mode;
  options: OneCardOptions;
  /** Decks in play, resolved from `deckCount` at setup (always 1 in uno-style). */
  decks: 1 | 2;
  seats: PlayerId[];
  hands: Record<PlayerId, Card[]>;
  /** [0] is the top. */
  drawPile: Card[];
  /** The last element is the top. */
  discard: Card[];
  declaredSuit: Suit | null;
  declaredColor: Color | null;
  direction: 1 | -1;
  current: PlayerId;
  phase: Phase;
  pendingAttack: number;
  extraTurn: boolean;
  oneCardWindow: OneCardWindow | null;
  status: Record<PlayerId, PlayerStatus>;
  finishOrder: PlayerId[];
  bankruptOrder: PlayerId[];
  turnStartedAt: number;
  /** Consecutive timeouts per player; the runtime shows "자리 비움" from 3 on (§8.5). */
  timeoutsInRow: Record<PlayerId, number>;
  /** uno-style cumulative scores (carried in through options.carryScores). */
  scores?: Record<PlayerId, number>;
  /** A +4 challenge just revealed a hand to the challenger; cleared by the next transition. */
  lastReveal: { to: PlayerId; of: PlayerId; cards: Card[] } | null;
}

export interface LegalActions {
  /** The viewer has at least one card in `legalCardIds` and may play now. */
  canPlay: boolean;
  canDraw: boolean;
  /** How many cards a draw takes now (the attack total under attack, else 1). */
  drawCount: number;
  canPass: boolean;
  canDeclareOneCard: boolean;
  /** True when the viewer's declareOneCard would catch someone else rather than declare for themself. */
  oneCardIsCatch: boolean;
  canChallenge: boolean;
  canAcceptWild4: boolean;
  /** Start-of-game colour choice (clarification 7) is due from the viewer. */
  mustChooseColor: boolean;
  /** Legal cards whose play needs `chooseSuit` (7s) / `chooseColor` (wilds). */
  mustChooseSuitFor: string[];
  mustChooseColorFor: string[];
  /** Same-rank cards may be added to a play now (classic `multiPlay`, `turn` phase only — never after a draw). */
  multiPlay: boolean;
  /**
   * Every legal play of two or more cards (classic `multiPlay`): lead card id
   * first, then the others in hand order (any order of the others is accepted).
   * Empty when multiPlay is off or not allowed now.
   */
  multiPlays: string[][];
}

export interface OneCardView extends GameViewBase {
  rulesVersion: number;
  game: 'one-card';
  mode: Mode;
  options: OneCardOptions;
  decks: 1 | 2;
  seats: PlayerId[];
  current: PlayerId;
  /** afterDraw's drawn card id is kept for the drawer only. */
  phase: { kind: Phase['kind']; by?: PlayerId; target?: PlayerId; drawnCardId?: string };
  direction: 1 | -1;
  pendingAttack: number;
  extraTurn: boolean;
  declaredSuit: Suit | null;
  declaredColor: Color | null;
  top: Card;
  /** The card a classic play is judged against when jokers lie on top (afterJoker = previous). */
  reference: Card | null;
  /** Up to five most recent discards, oldest first (the last is `top`). */
  recentDiscards: Card[];
  discardCount: number;
  drawPileCount: number;
  handCounts: Record<PlayerId, number>;
  status: Record<PlayerId, PlayerStatus>;
  finishOrder: PlayerId[];
  bankruptOrder: PlayerId[];
  timeoutsInRow: Record<PlayerId, number>;
  oneCardWindow: OneCardWindow | null;
  turnStartedAt: number;
  /** The viewer's own hand (null for spectators and players without cards). */
  hand: Card[] | null;
  legalCardIds: string[];
  legal: LegalActions;
  scores: Record<PlayerId, number> | null;
  /** Only in the challenger's view, right after a +4 challenge. */
  reveal: { of: PlayerId; cards: Card[] } | null;
}

/** The members of a view that depend on the viewer (view.ts `ownView`); `sharedView` builds the rest once per state. */
export type OneCardOwnKey = 'viewer' | 'phase' | 'hand' | 'legalCardIds' | 'legal' | 'reveal';
export type OneCardOwnView = Pick<OneCardView, OneCardOwnKey>;
/** The members no transition of one game changes (view.ts `fixedView`): sent once per viewer, not per frame. */
export type OneCardFixedKey =
  'game' | 'rulesVersion' | 'seedCommit' | 'players' | 'mode' | 'options' | 'decks' | 'seats';
export type OneCardFixedView = Pick<OneCardView, OneCardFixedKey>;
export type OneCardSharedView = Omit<OneCardView, OneCardOwnKey | OneCardFixedKey>;

/** Inferred from their zod schema (actions.ts), which apply() parses with. */
export type { OneCardAction, PlayAction } from './actions.ts';
