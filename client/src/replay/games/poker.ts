/** 포커 for the 복기 screen (ReplayGame): one mark per hand, hole and open cards of every player, the board. */
import type { GameStateBase, PokerState } from '@joke/engine/client';
import { findCard, naturalCards, naturalName, type ReplayGame } from './cards.ts';

export const pokerReplay: ReplayGame = {
  markOf: (state) => {
    const h = (state as PokerState).hand;
    return h ? `${h.handNo}번째 판` : null;
  },
  held(state: GameStateBase) {
    const s = state as PokerState;
    const h = s.hand;
    if (!h) return [];
    const seats = s.players.map((p) => {
      const hp = h.players[p.id];
      const cards = hp ? [...hp.hole, ...hp.up, ...(hp.forehead ? [hp.forehead] : [])] : [];
      return { who: p.name, cards: naturalCards(cards) };
    });
    return h.board.length ? [...seats, { who: '보드', cards: naturalCards(h.board) }] : seats;
  },
  cardName(state, id) {
    const c = findCard(state, id);
    return c && typeof c.suit === 'string' ? naturalName(c as { suit: string; rank: number }) : id;
  },
};
