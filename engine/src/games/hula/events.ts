/**
 * What a hula transition reports (docs/games/hula.md §8.3), for animation and
 * logs: one tagged member per event, so every emitter is checked against its
 * shape. Pure types; `eventView` (view.ts) hides a stock draw's card from
 * everyone but the drawer, every other event is public.
 */
import type { PlayerId } from '../../core/types.ts';
import type { Card, HulaState, LeaveReason, Meld, RoundSummary, SpecialKind } from './types.ts';

export type HulaEvent =
  | {
      type: 'roundStart';
      round: number;
      first: PlayerId;
      players: PlayerId[];
      startCard: Card;
      stockCount: number;
    }
  | { type: 'turn'; player: PlayerId }
  /** `auto`: drawn by the timeout for the player. */
  | { type: 'drew'; player: PlayerId; from: 'stock' | 'discard'; card: Card; auto?: true }
  | { type: 'melded'; player: PlayerId; meld: Meld }
  | { type: 'laidOff'; player: PlayerId; meldId: number; cards: Card[]; meld: Meld }
  | { type: 'discarded'; player: PlayerId; card: Card; auto: boolean }
  | { type: 'stop'; player: PlayerId }
  | { type: 'special'; player: PlayerId; kind: SpecialKind }
  | { type: 'hula'; player: PlayerId; byThankYou: boolean }
  | { type: 'deckExhausted' }
  | { type: 'thankYouAsk'; player: PlayerId }
  | { type: 'thankYouRace'; discarder: PlayerId }
  | { type: 'thankYouClaimed'; player: PlayerId }
  | { type: 'thankYouPass'; player: PlayerId; auto: boolean }
  | { type: 'thankYouRaceResolved'; winner: PlayerId; claims: number }
  | { type: 'thankYouExpired' }
  | { type: 'thankYou'; player: PlayerId; from: PlayerId; meld: Meld }
  | { type: 'roundEnd'; summary: RoundSummary }
  | { type: 'ready'; player: PlayerId }
  | { type: 'timeout'; player: PlayerId; phase: string }
  | { type: 'watchdog'; phase: HulaState['phase']['kind'] }
  | { type: 'leaveReserved'; player: PlayerId; reason: LeaveReason }
  | { type: 'leaveCancelled'; player: PlayerId }
  | { type: 'left'; player: PlayerId; reason: LeaveReason }
  | { type: 'gameEnd'; reason: 'rounds' | 'players' };
