/**
 * Prepared situations for the 포커/훌라 harness (`prepare=`): the fresh state
 * rearranged into one a random game reaches rarely, still one the engine reads.
 */
import type { GameStateBase, HulaState, PokerState } from '@joke/engine/client';

/** The rebuy clock of §5.6 (15 s). */
const REBUY_MS = 15_000;

export const PREPARED: Record<string, (s: GameStateBase, players: string[]) => void> = {
  /** I just lost my last chip: the rebuy prompt with its countdown (§5.6); my chips went to the next seat. */
  rebuy(state, [me, next]) {
    const s = state as PokerState;
    const mine = s.seats.find((x) => x.id === me)!;
    s.seats.find((x) => x.id === next)!.stack += mine.stack;
    mine.stack = 0;
    mine.status = 'busted';
    // The engine asks between hands with the finished hand still in the state (its number
    // dates an elimination when the answer is no), so the hand stays, ended.
    if (s.hand) {
      s.hand.phase = 'handEnd';
      s.hand.deadlineAt = null;
    }
    s.phase = 'rebuy';
    s.rebuyPending = [me];
    s.rebuyDeadlineAt = Date.now() + REBUY_MS;
  },
  /** 훌라: I am 12,300 points down and 등록 — the longest title a phone's top bar must hold (a layout check). */
  longTitle(state, [me]) {
    const s = state as HulaState;
    const i = s.seats.findIndex((x) => x.id === me);
    s.seats[i].points = -12_300;
    s.registered[i] = true;
  },
};

/** `pause=`: when the bots stop, so a test can read the table at that moment. */
export const PAUSES: Record<string, (s: GameStateBase) => boolean> = {
  /** A poker hand ended at a showdown (hands revealed, awards paid). */
  showdown: (s) => {
    const h = (s as PokerState).hand;
    return h?.phase === 'handEnd' && !!h.showdown?.length;
  },
  /** A draw game's draw (바둑이, 5카드 드로우) is open. */
  draw: (s) => (s as PokerState).hand?.phase === 'draw',
  /** The 하이로우 declaration is open. */
  declare: (s) => (s as PokerState).hand?.phase === 'declare',
  /** Any poker hand ended. */
  handEnd: (s) => (s as PokerState).hand?.phase === 'handEnd',
  /** 인디언: a hand being bet with at least two earlier hands' cards on the used pile (the used-card panel, §9). */
  indianUsed: (s) => {
    const p = s as PokerState;
    return p.hand?.phase === 'betting' && p.indianUsed.length >= 2 * p.hand.seatOrder.length;
  },
};
