/**
 * Player preferences, kept in localStorage. Reduced motion follows the
 * system's prefers-reduced-motion unless the player chose explicitly.
 */
import type { SortMode } from './cards/model.ts';

export interface Settings {
  /** null = follow the system setting. */
  reducedMotion: boolean | null;
  hints: boolean;
  sort: SortMode;
  /** Table sounds on (false = muted). */
  sound: boolean;
  /** 0…1. */
  volume: number;
  /** Korean call-outs for poker bets, spoken by the device's voice. */
  voice: boolean;
  /** §9 접근성: ♠ black, ◆ blue, ♥ red, ♣ green, so no two suits share a colour. */
  fourColorDeck: boolean;
  /** §9 큰 글씨 모드: every table and the lobby scale their text by textScale(). */
  largeText: boolean;
  /** §9 내 차례에 진동 (navigator.vibrate where the device has it). */
  vibrate: boolean;
}

const KEY = 'joke.settings';
const DEFAULTS: Settings = {
  reducedMotion: null,
  hints: true,
  sort: 'suit',
  sound: true,
  volume: 0.7,
  voice: true,
  fourColorDeck: false,
  largeText: false,
  vibrate: true,
};
type Listener = (s: Settings) => void;
const listeners = new Set<Listener>();
let current: Settings | null = null;

export function getSettings(): Settings {
  if (current) return current;
  try {
    current = { ...DEFAULTS, ...(JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<Settings>) };
  } catch {
    current = { ...DEFAULTS };
  }
  return current;
}

export function updateSettings(patch: Partial<Settings>): Settings {
  current = { ...getSettings(), ...patch };
  try {
    localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // Private mode: settings just do not persist.
  }
  for (const fn of listeners) fn(current);
  return current;
}

export function onSettings(fn: Listener): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function systemPrefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

export function reducedMotion(): boolean {
  return getSettings().reducedMotion ?? systemPrefersReducedMotion();
}

/** Animation length to use: 0 when motion is reduced; never above the §9 cap of 300 ms. */
export function motionMs(ms: number): number {
  return reducedMotion() ? 0 : Math.min(ms, 300);
}

/**
 * Factor applied to every text size (canvas and DOM). 1.2 is the most the
 * 360 px-wide layouts take without clipping (checked by large-text-browser).
 */
export const LARGE_TEXT_SCALE = 1.2;
export function textScale(): number {
  return getSettings().largeText ? LARGE_TEXT_SCALE : 1;
}
