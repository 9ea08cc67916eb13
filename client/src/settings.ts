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
}

const KEY = 'joke.settings';
const DEFAULTS: Settings = { reducedMotion: null, hints: true, sort: 'suit', sound: true, volume: 0.7, voice: true };
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
