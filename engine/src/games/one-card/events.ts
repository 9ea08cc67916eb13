/**
 * What a one-card transition reports (docs/games/one-card.md §8.3), for
 * animation and logs: one tagged member per event, so every emitter is checked
 * against its shape. Pure types; `eventView` (view.ts) shows drawn faces to the
 * drawer only and a challenge reveal to the challenger only.
 */
import type { PlayerId, Suit } from '../../core/index.ts';
import type { OneCardAction } from './actions.ts';
import type { Card, Color } from './types.ts';

export type DrawReason = 'attack' | 'draw' | 'challenge' | 'start' | 'penalty';

export type OneCardEvent =
  | { type: 'cardPlayed'; player: PlayerId; cards: Card[]; declareOneCard: boolean }
  | { type: 'suitDeclared'; player: PlayerId; suit: Suit | undefined }
  | { type: 'colorDeclared'; player: PlayerId; color: Color | undefined }
  | { type: 'attackBlocked'; player: PlayerId; card: Card }
  | { type: 'attackStacked'; player: PlayerId; total: number }
  | { type: 'directionChanged'; direction: 1 | -1 }
  | { type: 'extraTurn'; player: PlayerId }
  | { type: 'skipped'; player: PlayerId; players: PlayerId[] }
  | { type: 'passed'; player: PlayerId }
  | { type: 'wild4Accepted'; player: PlayerId }
  | { type: 'challengeReveal'; to: PlayerId; of: PlayerId; cards: Card[] }
  | { type: 'wild4Challenged'; challenger: PlayerId; offender: PlayerId; result: 'guilty' | 'innocent' }
  /** `cards` is absent when the drawer goes bankrupt with them at once (nobody needs their faces). */
  | { type: 'cardsDrawn'; player: PlayerId; count: number; cards?: Card[]; reason: DrawReason }
  | { type: 'reshuffled'; count: number }
  | { type: 'bankrupt'; player: PlayerId; cardsReturned: number }
  | { type: 'playerOut'; player: PlayerId; place: number }
  | { type: 'gameOver'; winners: PlayerId[] }
  | { type: 'oneCardDeclared'; player: PlayerId; auto: boolean }
  | { type: 'oneCardCaught'; catcher: PlayerId; target: PlayerId; penalty: number }
  | { type: 'timeout'; player: PlayerId; action: OneCardAction['type'] };
