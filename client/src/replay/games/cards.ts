/**
 * Card helpers and the ReplayGame shape shared by the per-game 복기 files (pure reads of engine states;
 * a state of another shape gives empty hands and the raw id as a name, never an exception).
 */
import { type GameStateBase, SUIT_SYMBOL, RANK_LABEL, type Suit } from '@joke/engine/client';

export interface HeldCards {
  /** Player name or a table place ("보드"). */
  who: string;
  cards: { id: string; name: string }[];
}

export interface ReplayGame {
  /** Label of the hand / round this state belongs to ("3번째 판"), or null where the game has one. */
  markOf(state: GameStateBase): string | null;
  /** Every card in every hand (and on the board), faces shown. */
  held(state: GameStateBase): HeldCards[];
  cardName(state: GameStateBase, id: string): string;
}

type Natural = { id: string | number; suit: string; rank: number };

/** A standard card (♠A, ♥10, 조커) by its suit and rank. */
export function naturalName(c: { suit: string; rank: number }): string {
  if (c.suit === 'X' || c.rank === 0) return '조커';
  return `${SUIT_SYMBOL[c.suit as Suit] ?? c.suit}${RANK_LABEL[c.rank] ?? c.rank}`;
}

/** The card object with this id anywhere in the state (hands, piles, deck), or null. */
export function findCard(state: unknown, id: string): Record<string, unknown> | null {
  const seen = new Set<unknown>();
  const walk = (v: unknown): Record<string, unknown> | null => {
    if (!v || typeof v !== 'object' || seen.has(v)) return null;
    seen.add(v);
    if (Array.isArray(v)) {
      for (const x of v) {
        const f = walk(x);
        if (f) return f;
      }
      return null;
    }
    const o = v as Record<string, unknown>;
    if (String(o.id) === id && ('suit' in o || 'kind' in o)) return o;
    for (const x of Object.values(o)) {
      const f = walk(x);
      if (f) return f;
    }
    return null;
  };
  return walk(state);
}

export function naturalCards(cards: readonly Natural[] | undefined): { id: string; name: string }[] {
  return (cards ?? []).map((c) => ({ id: String(c.id), name: naturalName(c) }));
}
