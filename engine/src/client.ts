/**
 * `@joke/engine/client`: the engine as the browser client sees it, and nothing more. The client draws
 * the views the server sends and checks a tap before sending it, so it needs the view and action types,
 * the card names, the rules helpers it explains a refused tap with, the option presets of the create
 * form, the replay of a record, and each game's definition (the tutorial and the harness run a game in
 * the page). Everything here is pure (core/types.ts); the client imports nothing else of the engine
 * (eslint.config.js refuses `@joke/engine/games/*` and the other internals in client/), so what the
 * engine may change without touching the client is whatever is not listed here.
 * The three games each call their card `Card`: here they are `OneCardCard`, `PokerCard` and `HulaCard`.
 * `poker` here is the game definition, as in games/index.ts (the root entry's `poker` is the evaluator API).
 */

// ── core ──────────────────────────────────────────────────────────────
export type {
  AnyGame,
  GameAction,
  GameEvent,
  GameResult,
  GameStateBase,
  GameViewBase,
  OptionField,
  OptionPreset,
  PlayerId,
  PlayerInfo,
} from './core/types.ts';
export { RANK_LABEL, SUIT_NAME_KO, SUIT_SYMBOL, isRed, type Suit } from './core/cards.ts';
export { seedCommitment } from './core/commit.ts';
export {
  changedKeys,
  closestPreset,
  fieldsForMode,
  isDefaultValue,
  presetLabel,
  presetValues,
} from './core/presets.ts';
export { Rng } from './core/rng.ts';

// ── games ─────────────────────────────────────────────────────────────
export { games, type GameTypes } from './games/index.ts';

// 원카드
export { oneCard } from './games/one-card/index.ts';
export { COLOR_NAME_KO, cardLabel } from './games/one-card/cards.ts';
export { cardReason, lastCardReason, type PlayCtx } from './games/one-card/legal.ts';
export type { OneCardResult } from './games/one-card/scoring.ts';
export type {
  Card as OneCardCard,
  ClassicCard,
  Color,
  LegalActions,
  OneCardAction,
  OneCardOptions,
  OneCardState,
  OneCardView,
  PlayAction,
  PlayerStatus,
  UnoCard,
} from './games/one-card/types.ts';

// 포커
export { poker } from './games/poker/index.ts';
export { KOREAN_LABEL, type KoreanType } from './games/poker/betting-korean.ts';
export { CARDS20, CARDS52, parseCards } from './games/poker/cards.ts';
export { badugiHand, badugiName } from './games/poker/eval/badugi.ts';
export { bestLowHand, scoreOf } from './games/poker/eval/hands.ts';
export {
  CATEGORY_NAME_KO,
  INTL_CATEGORIES,
  KOREAN_CATEGORIES,
  intlCategory,
  koreanCategory,
  type Category,
} from './games/poker/eval/high.ts';
export { indianScore } from './games/poker/eval/indian.ts';
export type { PokerResult } from './games/poker/scoring.ts';
export type {
  Card as PokerCard,
  CardSlot,
  HandPlayerView,
  LegalAction,
  PokerAction,
  PokerMode,
  PokerState,
  PokerView,
  SeatView,
} from './games/poker/types.ts';

// 훌라
export { hula } from './games/hula/index.ts';
export { classifyMeld, isJoker, layOffMany, layOffOnto, meldForms, type MeldForm } from './games/hula/melds.ts';
export type { HulaResult } from './games/hula/result.ts';
export type {
  BakCode,
  Card as HulaCard,
  HulaAction,
  HulaOptions,
  HulaState,
  HulaView,
  Meld,
  WinType,
} from './games/hula/types.ts';

// ── records and simulated players (복기, the tutorial's and the tests' bots) ──
export { applyRecordedStep, setupFromRecord, type GameRecord, type RecordedStep } from './record/record.ts';
export { simPlayers } from './sim/runner.ts';
