/** 원카드 for the 복기 screen (ReplayGame): one game, no rounds; every hand with its cards' Korean names. */
import { type GameStateBase, cardLabel, type OneCardState } from '@joke/engine/client';
import { findCard, type ReplayGame } from './cards.ts';

type Card = Parameters<typeof cardLabel>[0];

export const oneCardReplay: ReplayGame = {
  markOf: () => null,
  held(state: GameStateBase) {
    const s = state as OneCardState;
    return s.players.map((p) => ({
      who: p.name,
      cards: (s.hands?.[p.id] ?? []).map((c) => ({ id: c.id, name: cardLabel(c) })),
    }));
  },
  cardName(state, id) {
    const c = findCard(state, id);
    return c ? cardLabel(c as unknown as Card) : id;
  },
};
