/**
 * §9 "내 차례에 진동": one short buzz when the turn becomes the viewer's, not on
 * every frame of that turn (원카드's draw-then-play and 훌라's draw-then-discard
 * stay one turn). Off in settings, or silently nothing where the device has no
 * navigator.vibrate (iOS Safari, desktops) or refuses it before a first tap.
 */
import { getSettings } from '../settings.ts';
import { isViewersTurn } from './cues.ts';

/** Short enough not to startle, two pulses so it reads as a call and not a glitch. */
export const TURN_BUZZ: number[] = [70, 50, 70];

export class TurnBuzz {
  private wasMine = false;

  /** Feed every frame's view; returns whether it buzzed (for tests). */
  frame(view: unknown): boolean {
    const mine = isViewersTurn(view);
    const starts = mine && !this.wasMine;
    this.wasMine = mine;
    if (!starts || !getSettings().vibrate) return false;
    const nav = globalThis.navigator as (Navigator & { vibrate?: Navigator['vibrate'] }) | undefined;
    if (typeof nav?.vibrate !== 'function') return false;
    try {
      return nav.vibrate(TURN_BUZZ);
    } catch {
      // Some browsers throw when vibration is blocked by policy: a missing buzz is harmless.
      return false;
    }
  }
}
