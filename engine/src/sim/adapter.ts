/**
 * What the simulator needs to know about a game beyond the engine contract:
 * where its cards are, which of them a viewer must not identify, and what
 * illegal input to throw at it. Each game ships one (`games/<id>/sim.ts`).
 */
import type { AnyGame, GameStateBase, GameViewBase, PlayerId } from '../core/types.ts';
import type { Rng } from '../core/rng.ts';

export interface IllegalProbe {
  actor: PlayerId;
  action: unknown;
  /** What kind of bad input this is, for the report. */
  label: 'wrongPlayer' | 'notInHand' | 'replay' | 'malformed' | 'forged' | 'other';
}

/** `S`, `V`: the game's state and view; the simulator drives every game through the defaults (AnyGame). */
export interface SimAdapter<S extends GameStateBase = GameStateBase, V extends GameViewBase = GameViewBase> {
  game: AnyGame;
  /** Every card in the state, wherever it lies. Used for conservation. */
  allCards(state: S): unknown[];
  /** Unique id of a card (conservation, and a token that must not reach anyone who cannot see it). */
  cardId(card: unknown): string | number;
  /** Cards `viewer` (null = spectator) must not be able to identify in the current state. */
  hiddenFrom(state: S, viewer: PlayerId | null): unknown[];
  /**
   * A face key ("H5", "joker:color", "R:wild4") if `node` is a card object of
   * this game, else null. Applied to every object found in a view or event,
   * whatever field it sits in.
   */
  faceOf(node: unknown): string | null;
  /** True if card ids are strings worth searching for as tokens (numeric ids are checked by face only). */
  idsAreTokens: boolean;
  /** Game-specific invariants; each string returned is a violation. */
  invariants(state: S, views: Map<PlayerId | null, V>): string[];
  /** Bad input to inject now; every probe must be rejected with state unchanged. */
  illegalProbes(state: S, rng: Rng, last: { actor: PlayerId; action: unknown } | null): IllegalProbe[];
  /** Extra conserved quantity (poker chips, hula points), checked after every apply. */
  conserved?(state: S): { name: string; value: number; expected: number } | null;
}
