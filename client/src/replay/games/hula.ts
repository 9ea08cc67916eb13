/** 훌라 for the 복기 screen (ReplayGame): one mark per round, every seat's hand with Korean card names. */
import type { GameStateBase, HulaState } from '@joke/engine/client';
import { findCard, naturalCards, naturalName, type ReplayGame } from './cards.ts';

export const hulaReplay: ReplayGame = {
  markOf: (state) => `${(state as HulaState).round}라운드`,
  held(state: GameStateBase) {
    const s = state as HulaState;
    return s.players.map((p, i) => ({ who: p.name, cards: naturalCards(s.hands?.[i]) }));
  },
  cardName(state, id) {
    const c = findCard(state, id);
    if (c && typeof c.suit === 'string') return naturalName(c as { suit: string; rank: number });
    // Hula ids spell the card (S12 = ♠Q): a tampered id that is in no pile still gets its name.
    const m = /^([SHDC])(\d{1,2})$/.exec(id);
    return m ? naturalName({ suit: m[1], rank: Number(m[2]) }) : id;
  },
};
