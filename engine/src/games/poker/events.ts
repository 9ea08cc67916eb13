/**
 * What a poker transition reports (docs/games/poker.md §8.3), for animation
 * and logs: one tagged member per event, so every emitter is checked against
 * its shape. Pure types. Every poker event is public (no face-down card is
 * ever named in one), so `eventView` passes them through.
 */
import type { PlayerId } from '../../core/types.ts';
import type { PokerAction } from './actions.ts';
import type { Award, Card, DeclareSide, HandPhase, PokerState, Pot, PotResult, ShowdownEntry } from './types.ts';

type Betting = Extract<PokerAction['type'], `k.${string}` | `nl.${string}`>;

export type PokerEvent =
  | { type: 'handStart'; handNo: number; dealerSeat: number; seedCommit: string; baseUnit: number }
  | { type: 'forced'; player: PlayerId; amount: number; kind: 'sb' | 'bb' | 'ante' }
  /** `faceUp`: the card dealt open; `forehead`: the Indian card everyone but its holder sees. */
  | { type: 'dealt'; to: PlayerId; count: number; faceUp?: Card; forehead?: true }
  | { type: 'board'; cards: Card[] }
  | { type: 'phase'; phase: HandPhase }
  /** `allIn` and `to` are absent on a free check. */
  | { type: 'action'; player: PlayerId; action: Betting; amount: number; allIn?: boolean; to?: number }
  | { type: 'roundEnd'; street: number; pots: Pot[] }
  | { type: 'returned'; player: PlayerId; amount: number }
  | { type: 'chose'; player: PlayerId }
  | { type: 'choiceReveal'; open: { player: PlayerId; card: Card }[] }
  | { type: 'drawSubmitted'; player: PlayerId }
  | { type: 'exchanged'; counts: { player: PlayerId; count: number }[]; reshuffled: number }
  | { type: 'declaredOne'; player: PlayerId }
  | { type: 'declared'; sides: { player: PlayerId; side: DeclareSide | null }[] }
  | { type: 'deckRetired'; handNo: number; seed: string }
  | { type: 'reshuffle'; cards: number }
  | { type: 'penalty'; player: PlayerId; amount: number }
  | { type: 'carry'; amount: number; tied: PlayerId[] }
  | { type: 'showdown'; entries: ShowdownEntry[] }
  | {
      type: 'handEnd';
      handNo: number;
      awards: Award[];
      pots: PotResult[] | null;
      seed: string | null;
      carryOver: number;
    }
  | { type: 'blindUp'; baseUnit: number }
  | { type: 'rebuyAsk'; players: PlayerId[] }
  | { type: 'rebuy'; player: PlayerId; accept: boolean }
  | { type: 'eliminated'; players: PlayerId[] }
  | { type: 'carrySplit'; amount: number; players: PlayerId[] }
  | { type: 'away'; player: PlayerId }
  | { type: 'left'; player: PlayerId }
  | { type: 'timeout' }
  | { type: 'gameEnd'; reason: NonNullable<PokerState['endReason']> };
