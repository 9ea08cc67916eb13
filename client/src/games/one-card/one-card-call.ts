/**
 * The round 원카드 button (§5.3, §9): when it may be pressed, and whether a
 * press calls one's own 원카드 or catches someone who has not called yet.
 * Issue 15: 잡기 was offered although the other player had already called,
 * and pressing it only earned "이미 원카드를 외쳤어요". The button now follows
 * the view alone: 잡기 is offered only while the view shows an open window
 * that nobody has called yet (and the engine's legal flags agree), it goes
 * the moment a view says the call happened, and one press per window is
 * enough (a second tap while the first is on its way would only be refused).
 */
import type { OneCardView } from '../../cards/model.ts';

export interface OneCardCall {
  enabled: boolean;
  /** The press catches the player on one card (else it is the viewer's own call). */
  catch: boolean;
  label: string;
  /** The button shakes while somebody's window is open and uncalled (for everyone at the table). */
  shake: boolean;
  /** The window's owner, while it is open and uncalled. */
  target: string | null;
}

/** The window of a player on exactly one card who has not called yet, or null. */
export function openWindow(view: OneCardView): { player: string; openedSeq: number } | null {
  const w = view.oneCardWindow;
  if (view.finished || w === null || w.declared) return null;
  if (view.status[w.player] !== 'playing' || view.handCounts[w.player] !== 1) return null;
  return { player: w.player, openedSeq: w.openedSeq };
}

/**
 * @param pressedFor `openedSeq` of the window this viewer already pressed for and has no answer
 *   about yet (null: none); that window offers nothing more.
 */
export function oneCardCall(view: OneCardView, pressedFor: number | null = null): OneCardCall {
  const w = openWindow(view);
  const me = view.viewer;
  const playing = me !== null && view.status[me] === 'playing';
  // Both the window in the view and the engine's flag for this viewer must say the press is legal.
  const legal = w !== null && playing && view.legal.canDeclareOneCard;
  const isCatch = legal && w.player !== me && view.legal.oneCardIsCatch;
  const own = legal && w.player === me;
  const pressed = w !== null && pressedFor === w.openedSeq;
  return {
    enabled: (isCatch || own) && !pressed,
    catch: isCatch,
    label: isCatch ? '원카드\n잡기!' : '원카드!',
    shake: w !== null,
    target: w?.player ?? null,
  };
}
