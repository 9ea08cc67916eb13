/**
 * §5.3 the one-card declaration window. The race between the player on one
 * card and everyone else is decided by the order the server applies actions.
 */
import { reject, type ApplyResult, type PlayerId } from '../../core/index.ts';
import { R } from './reasons.ts';
import { afterOutsideBankruptcy, drawCards, type Tx } from './turns.ts';
import type { OneCardState } from './types.ts';

/** Opens the window for a player whose play left them exactly one card. */
export function openWindow(tx: Tx, p: PlayerId, declaredWithPlay: boolean): void {
  const s = tx.s;
  const declared = declaredWithPlay || s.options.autoDeclare;
  s.oneCardWindow = { player: p, declared, openedSeq: s.seq + 1 };
  if (declared) tx.emit({ type: 'oneCardDeclared', player: p, auto: !declaredWithPlay });
}

/**
 * Closes the window when its time is up, after every turn transition:
 * its owner no longer holds exactly one card; in classic, the owner's next
 * turn has started (handed to them by someone else); in uno-style, anyone
 * other than the owner has taken a turn action (the original rule: catch
 * them before the next player acts).
 */
export function settleWindow(tx: Tx, actor: PlayerId): void {
  const s = tx.s;
  const w = s.oneCardWindow;
  if (w === null) return;
  if (s.status[w.player] !== 'playing' || s.hands[w.player].length !== 1) {
    s.oneCardWindow = null;
    return;
  }
  if (actor === w.player) return;
  if (s.mode === 'uno-style' || (s.current === w.player && s.phase.kind === 'turn')) s.oneCardWindow = null;
}

export function declareOneCard(tx: Tx, actor: PlayerId): ApplyResult<OneCardState> | null {
  const s = tx.s;
  if (s.status[actor] !== 'playing') return reject(R.notInGame);
  const w = s.oneCardWindow;
  if (w === null) return reject(R.noWindow);
  if (w.declared) return reject(R.alreadyDeclared);
  if (actor === w.player) {
    s.oneCardWindow = { player: w.player, declared: true, openedSeq: w.openedSeq };
    tx.emit({ type: 'oneCardDeclared', player: actor, auto: false });
    return null;
  }
  s.oneCardWindow = null;
  const penalty = s.options.oneCardPenalty;
  tx.emit({ type: 'oneCardCaught', catcher: actor, target: w.player, penalty });
  // With today's ranges (window = 1 card, penalty ≤ 3, limit ≥ 15) a penalty cannot bankrupt; kept general.
  const { bankrupt } = drawCards(tx, w.player, penalty, 'penalty');
  if (bankrupt) afterOutsideBankruptcy(tx, w.player);
  return null;
}
