/** Every clock of docs/games/hula.md §8.5, in milliseconds. */
import type { HulaMode } from './types.ts';

export const TIMERS: Record<HulaMode, { drawMs: number; actMs: number; thankYouMs: number }> = {
  monster: { drawMs: 15_000, actMs: 15_000, thankYouMs: 5_000 },
  joker: { drawMs: 7_000, actMs: 15_000, thankYouMs: 7_000 },
};

/** Actions stamped up to this long after a deadline still count as on time; the automatic action runs then. */
export const GRACE_MS = 500;
/** Whatever the state, a turn (or 땡큐 phase, or result screen) never lasts longer than this. */
export const WATCHDOG_MS = 60_000;
/** 조커 모드: claims this close to the first one compete by seat distance. */
export const RACE_WINDOW_MS = 100;
/** Result screen between rounds. */
export const ROUND_END_MS = 5_000;
/** The AI substitute starts this long after a disconnected player's turn arrives. */
export const SUBSTITUTE_DELAY_MS = 5_000;
/** Silence before a player counts as disconnected: declared as the game's `disconnectAfterMs`, enforced by the gateway's socket idle timeout. */
export const DISCONNECT_AFTER_MS = 30_000;
/** How long a disconnected player may stay away before the substitute reserves their leave (§8.6). */
export const LEAVE_AFTER_DISCONNECT_MS = 60_000;
