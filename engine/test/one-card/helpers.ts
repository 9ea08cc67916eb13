/** Test helpers: rigged states written in a short card notation. */
import { expect } from 'vitest';
import { oneCard } from '../../src/games/one-card/index.ts';
import type { Card, OneCardOptions, OneCardState } from '../../src/games/one-card/types.ts';
import type { ApplyResult, GameEvent } from '../../src/core/index.ts';

export const NOW = 1_800_000_000_000;
export const NAMES = ['민수', '지영', '철수', '영희', '동현', '수진', '현우', '은지', '준호', '서연'];

export function players(n: number) {
  return Array.from({ length: n }, (_, i) => ({ id: `p${i + 1}`, name: NAMES[i] }));
}

export function options(o: Record<string, unknown> = {}): OneCardOptions {
  return oneCard.optionsSchema.parse(o);
}

export function fresh(o: Record<string, unknown> = {}, n = 3, seed = 'seed'): OneCardState {
  return oneCard.setup({ seed, players: players(n), options: options(o), now: NOW });
}

let serial = 0;
const RANKS: Record<string, number> = { A: 1, J: 11, Q: 12, K: 13 };

/**
 * Classic: 'H2', 'SA', 'D10', 'CK', 'BJ' (흑백 조커), 'CJ' (컬러 조커 — so ♣J cannot be written; use another suit).
 * uno-style: 'R5', 'G+2', 'Bs' (skip), 'Yr' (reverse), 'W' (wild), 'W4' (wild +4).
 */
export function card(code: string, mode: 'classic' | 'uno-style' = 'classic'): Card {
  const id = `t${serial++}`;
  if (mode === 'classic') {
    if (code === 'BJ') return { id, kind: 'joker', joker: 'black' };
    if (code === 'CJ') return { id, kind: 'joker', joker: 'color' };
    const suit = code[0] as 'S' | 'H' | 'D' | 'C';
    const r = code.slice(1);
    return { id, kind: 'std', suit, rank: RANKS[r] ?? Number(r) };
  }
  if (code === 'W') return { id, kind: 'wild' };
  if (code === 'W4') return { id, kind: 'wild4' };
  const color = code[0] as 'R' | 'Y' | 'G' | 'B';
  const rest = code.slice(1);
  if (rest === '+2') return { id, kind: 'draw2', color };
  if (rest === 's') return { id, kind: 'skip', color };
  if (rest === 'r') return { id, kind: 'reverse', color };
  return { id, kind: 'num', color, value: Number(rest) };
}

export interface Rig {
  hands?: Record<string, string[]>;
  /** Bottom to top. */
  discard?: string[];
  /** Top first. */
  pile?: string[];
  current?: string;
  [key: string]: unknown;
}

/** A state from setup with hands, piles and any other fields replaced. */
export function rig(o: Record<string, unknown>, n: number, r: Rig): OneCardState {
  const base = fresh(o, n);
  const mode = base.mode;
  const { hands, discard, pile, ...rest } = r;
  const s: OneCardState = { ...base, ...(rest as Partial<OneCardState>) };
  if (hands) {
    s.hands = { ...base.hands };
    for (const p of base.seats) s.hands[p] = (hands[p] ?? []).map((c) => card(c, mode));
  }
  if (discard) s.discard = discard.map((c) => card(c, mode));
  s.drawPile = (pile ?? Array.from({ length: 30 }, () => (mode === 'classic' ? 'D9' : 'B9'))).map((c) => card(c, mode));
  if (s.phase.kind === 'chooseColor' && !('phase' in r)) s.phase = { kind: 'turn' };
  return s;
}

export function idOf(s: OneCardState, p: string, code: string): string {
  const c = s.hands[p].find((x) => codeOf(x) === code);
  if (!c) throw new Error(`${p} holds no ${code}: ${s.hands[p].map(codeOf).join(' ')}`);
  return c.id;
}

export function codeOf(c: Card): string {
  switch (c.kind) {
    case 'std':
      return `${c.suit}${({ 1: 'A', 11: 'J', 12: 'Q', 13: 'K' } as Record<number, string>)[c.rank] ?? c.rank}`;
    case 'joker':
      return c.joker === 'black' ? 'BJ' : 'CJ';
    case 'num':
      return `${c.color}${c.value}`;
    case 'draw2':
      return `${c.color}+2`;
    case 'skip':
      return `${c.color}s`;
    case 'reverse':
      return `${c.color}r`;
    case 'wild':
      return 'W';
    default:
      return 'W4';
  }
}

export function hand(s: OneCardState, p: string): string[] {
  return s.hands[p].map(codeOf);
}

export function ok(r: ApplyResult<OneCardState>): { state: OneCardState; events: GameEvent[] } {
  if (!r.ok) throw new Error(`rejected: ${r.reason}`);
  return r;
}

/** Plays cards by notation for `p`. */
export function play(s: OneCardState, p: string, codes: string[], extra: Record<string, unknown> = {}) {
  return oneCard.apply(s, p, { type: 'play', cardIds: codes.map((c) => idOf(s, p, c)), ...extra }, NOW + 1000);
}

export function act(s: OneCardState, p: string, action: unknown) {
  return oneCard.apply(s, p, action, NOW + 1000);
}

/** Runs `fn` on `s` and expects a rejection (with `reason`, if given) that leaves `s` JSON-identical. */
export function rejects(s: OneCardState, fn: (s: OneCardState) => ApplyResult<OneCardState>, reason?: string): string {
  const before = JSON.stringify(s);
  const r = fn(s);
  expect(r.ok).toBe(false);
  expect(JSON.stringify(s)).toBe(before);
  if (r.ok) return '';
  if (reason !== undefined) expect(r.reason).toBe(reason);
  return r.reason;
}

export function deepFreeze<T>(o: T): T {
  if (o !== null && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o as object)) deepFreeze(v);
  }
  return o;
}
