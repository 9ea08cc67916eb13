/**
 * Seeded, serialisable randomness. The generator is pure-rand's
 * xoroshiro128+; its four-number state is stored in the game state so a room
 * can be snapshotted and resumed anywhere with the exact same future draws.
 */
import { xoroshiro128plusFromState } from 'pure-rand/generator/xoroshiro128plus';
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import type { JumpableRandomGenerator } from 'pure-rand/types/JumpableRandomGenerator';
import { sha256Bytes } from './commit.ts';

export type RngState = number[];

export class Rng {
  private readonly gen: JumpableRandomGenerator;

  private constructor(gen: JumpableRandomGenerator) {
    this.gen = gen;
  }

  static fromState(state: RngState): Rng {
    return new Rng(xoroshiro128plusFromState(state));
  }

  /** Derives the initial state from any seed string via SHA-256 (domain-separated by `label`). */
  static fromSeed(seed: string, label = 'rng'): Rng {
    const h = sha256Bytes(`${label}:${seed}`);
    const dv = new DataView(h.buffer, h.byteOffset, h.byteLength);
    const s: number[] = [dv.getInt32(0), dv.getInt32(4), dv.getInt32(8), dv.getInt32(12)];
    // xoroshiro must not start from all zeros.
    if (!s.some((x) => x !== 0)) s[3] = 1;
    return new Rng(xoroshiro128plusFromState(s));
  }

  state(): RngState {
    return [...this.gen.getState()];
  }

  /** Uniform integer in [0, n). */
  int(n: number): number {
    return uniformInt(this.gen, 0, n - 1);
  }

  /** Uniform float in [0, 1). */
  float(): number {
    return (this.gen.next() >>> 0) / 0x1_0000_0000;
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** Fisher–Yates, in place; returns the same array. */
  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = uniformInt(this.gen, 0, i);
      const t = items[i];
      items[i] = items[j];
      items[j] = t;
    }
    return items;
  }
}

/** The generator a bot runs on: the one given, or one derived from a plain seed (`BotRandom`). */
export function botRng(r: Rng | string | number): Rng {
  return r instanceof Rng ? r : Rng.fromSeed(String(r), 'bot');
}

/**
 * The bot entry point for any caller: `game.bot(view, rng)` driven by the
 * engine's generator or by a plain seed (`Rng.fromSeed(String(seed), 'bot')`).
 * The platform games' own `bot` also accepts a seed directly.
 */
export function runBot<V, A>(
  game: { bot(view: V, rng: Rng): A | null },
  view: V,
  random: Rng | string | number,
): A | null {
  return game.bot(view, botRng(random));
}
